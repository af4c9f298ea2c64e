package org.mpcache.slave.store;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import org.mpcache.common.BlockKey;

/**
 * A reader's hold on a cached block's file from {@link FileBlockStore#lease}: while it is open,
 * the block's space stays reserved even if the block is removed, since an open descriptor keeps
 * an unlinked file's bytes on the SSD. It carries what the reader needs to verify the bytes: the
 * block's length, chunk size and every chunk's stored CRC32C.
 *
 * <p>Thread-safe; {@link #close} is idempotent.
 */
public final class BlockLease implements AutoCloseable {
  private final FileBlockStore store;
  private final BlockFile file;
  private final long length;
  private final int chunkSize;
  /** Set once by the store before the lease is handed out. */
  int[] checksums;
  private final AtomicBoolean closed = new AtomicBoolean();

  BlockLease(FileBlockStore store, BlockFile file, long length, int chunkSize) {
    this.store = store;
    this.file = file;
    this.length = length;
    this.chunkSize = chunkSize;
  }

  public BlockKey key() {
    return file.key();
  }

  BlockFile file() {
    return file;
  }

  /** The block's data file; gone once the block is removed. */
  public Path path() {
    return file.path();
  }

  public long length() {
    return length;
  }

  public int chunkSize() {
    return chunkSize;
  }

  /** Every chunk's CRC32C as stored when the block was filled; the caller must not change it. */
  public int[] checksums() {
    return checksums;
  }

  /**
   * Opens the block's file for the reader, through the store's seam where a failed or slow open
   * counts against the file's SSD directory; the caller closes it.
   *
   * @throws BlockNotCachedException when the directory has gone out of service
   */
  public FileInputStream open() throws IOException {
    return store.open(this);
  }

  /**
   * Tells the store that sending the file failed: an I/O error of the device counts against the
   * file's SSD directory, the socket's own errors do not.
   */
  public void transferFailed(IOException e) {
    store.transferFailed(this, e);
  }

  /** Ends the lease; the last lease of a removed block releases its space. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      store.unlease(file.key());
    }
  }
}
