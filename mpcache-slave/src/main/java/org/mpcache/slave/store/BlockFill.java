package org.mpcache.slave.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.CRC32C;
import org.mpcache.common.BlockKey;

/**
 * One block being written into the cache: the bytes must arrive in order, exactly the expected
 * length of them, and the block becomes readable only at {@link #commit}. Checksums are computed
 * chunk by chunk as the bytes arrive. Space for the whole block was reserved when the fill began
 * and is released if it is aborted. The fill's file is written through the store's
 * {@link BlockStorage}, which holds no file descriptor between writes, so neither does a fill
 * waiting between its reads from HDFS.
 *
 * <p>Not thread-safe: one filler thread writes one fill; the caller serializes calls on it.
 */
public final class BlockFill {
  private final FileBlockStore store;
  private final BlockStorage storage;
  private final BlockFile file;
  private final BlockKey key;
  private final long length;
  private final int chunkSize;
  private final Object claim;
  /** The block as the store will record it once committed. */
  private final CachedBlock block;
  private final CRC32C crc = new CRC32C();
  private int[] checksums;
  private int chunksDone;
  private int bytesInChunk;
  private long written;
  private boolean finished;

  BlockFill(FileBlockStore store, BlockStorage storage, BlockFile file, int chunkSize,
      Object claim, CachedBlock block) {
    this.store = store;
    this.storage = storage;
    this.file = file;
    this.key = block.key();
    this.length = block.length();
    this.chunkSize = chunkSize;
    this.claim = claim;
    this.block = block;
    this.checksums = new int[(int) ((length + chunkSize - 1) / chunkSize)];
  }

  public BlockKey key() {
    return key;
  }

  public long length() {
    return length;
  }

  /**
   * Appends bytes at {@code offset}, which must equal the bytes written so far.
   *
   * @throws IOException if the offset is out of order, the block would grow past its length, or
   *     the write fails
   */
  public void append(long offset, ByteBuffer data) throws IOException {
    checkOpen();
    if (offset != written) {
      throw new IOException("Fill of " + key + " expects offset " + written + ", got " + offset);
    }
    if (written + data.remaining() > length) {
      throw new IOException("Fill of " + key + " would grow to " + (written + data.remaining())
          + " bytes, past its length " + length);
    }
    if (!data.hasRemaining()) {
      return;
    }
    // Checksums only of bytes written: a failed write leaves the fill's account as it was.
    ByteBuffer sum = data.duplicate();
    int bytes = data.remaining();
    storage.write(file, written, data, written == 0);
    store.wrote(bytes);
    // Each chunk's CRC over a window of the one buffer: no object per chunk.
    int end = sum.limit();
    while (sum.position() < end) {
      int n = Math.min(end - sum.position(), chunkSize - bytesInChunk);
      sum.limit(sum.position() + n);
      crc.update(sum);
      bytesInChunk += n;
      if (bytesInChunk == chunkSize) {
        closeChunk();
      }
    }
    written += bytes;
  }

  private void closeChunk() {
    checksums[chunksDone++] = (int) crc.getValue();
    crc.reset();
    bytesInChunk = 0;
  }

  /**
   * Makes the block readable; all of its bytes must have been written.
   *
   * @throws IOException if bytes are missing, the files cannot be written, or the block was
   *     removed from the store while it was being filled (it is then deleted)
   */
  public void commit() throws IOException {
    checkOpen();
    if (written != length) {
      throw new IOException("Fill of " + key + " has " + written + " of " + length + " bytes");
    }
    if (bytesInChunk > 0) {
      closeChunk();
    }
    checksums = Arrays.copyOf(checksums, chunksDone);
    finished = true;
    if (length == 0) {
      storage.write(file, 0, ByteBuffer.allocate(0), true);
    }
    store.completeFill(this);
  }

  /** Abandons the fill: its file is deleted and its space released. Idempotent. */
  public void abort() {
    if (finished) {
      return;
    }
    finished = true;
    store.abortFill(this);
  }

  private void checkOpen() throws IOException {
    if (finished) {
      throw new IOException("Fill of " + key + " is already finished");
    }
  }

  /** The fill's file, under {@code tmp} in the SSD directory holding its reservation. */
  BlockFile file() {
    return file;
  }

  int chunkSize() {
    return chunkSize;
  }

  int[] checksums() {
    return checksums;
  }

  /** The dataset the block is cached for. */
  public String datasetId() {
    return block.datasetId();
  }

  CachedBlock block() {
    return block;
  }

  /** What marks the store's entry of the block as this fill's. */
  Object claim() {
    return claim;
  }
}
