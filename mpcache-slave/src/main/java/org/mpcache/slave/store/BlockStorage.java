package org.mpcache.slave.store;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.mpcache.common.BlockKey;

/**
 * The file I/O of the Input Cache, block file by block file ({@link BlockFile}): the narrow seam
 * under {@link FileBlockStore}, which keeps the blocks' states, space and checksums above it. The
 * slave's implementation is {@link #local()}; tests wrap it to inject the errors a real SSD gives
 * (no space left, I/O errors, too many open files) and latency, operation by operation.
 *
 * <p>No method but {@link #open} keeps a file open after it returns, so a fill waiting between
 * its reads from HDFS holds no descriptor. Every failure is an {@link IOException}:
 * {@link java.nio.file.NoSuchFileException} when the file is absent, whatever the file system
 * said otherwise.
 *
 * <p>Implementations are thread-safe; callers give each file one writer at a time.
 */
public interface BlockStorage {

  /**
   * The local file system's, creating directories {@code rwx------}, checksum files
   * {@code rw-------} and data files {@code rw-r--r--} (reachable by path through the private
   * directories only; see {@link LocalBlockStorage}).
   */
  static BlockStorage local() {
    return LocalBlockStorage.INSTANCE;
  }

  /**
   * Makes {@code dir} ready to hold blocks: creates its {@code current} and {@code tmp}
   * directories as needed and deletes what {@code tmp} holds (fills a previous run left unfinished).
   */
  void prepare(Path dir) throws IOException;

  /**
   * The blocks whose data files are under {@code dir}'s {@code current} directory, whether or not
   * their sidecars are there and intact. A file there that is not named as a block file is
   * deleted.
   */
  List<BlockKey> list(Path dir) throws IOException;

  /**
   * The bytes the file system holding {@code dir} can still take (its usable space). The Input
   * Cache's own accounting sees only its blocks, not what else is written to the SSD (YARN's
   * local dirs, logs), so a fill checks this before it creates its file.
   */
  long usableBytes(Path dir) throws IOException;

  /** The file's size in bytes. */
  long size(BlockFile file) throws IOException;

  /**
   * Reads from {@code position} into {@code dst} until it is full or the file ends.
   *
   * @return the bytes read, fewer than {@code dst} had room for only when the file ended
   */
  int read(BlockFile file, long position, ByteBuffer dst) throws IOException;

  /**
   * Opens the file for reading by a reader outside the store (a block lent to the block stream or
   * handed out as a descriptor); the caller closes it.
   */
  FileInputStream open(BlockFile file) throws IOException;

  /**
   * Writes all of {@code src} at {@code position}.
   *
   * @param create whether to create the file, which must then not exist; otherwise it must
   */
  void write(BlockFile file, long position, ByteBuffer src, boolean create) throws IOException;

  /** Forces the file's bytes to the device (fsync), so that they survive a crash. */
  void sync(BlockFile file) throws IOException;

  /** Renames {@code from} to {@code to} atomically, creating {@code to}'s directory as needed. */
  void move(BlockFile from, BlockFile to) throws IOException;

  /** Deletes the file; returns false when it did not exist. */
  boolean delete(BlockFile file) throws IOException;
}
