package org.mpcache.hdfs;

import java.io.IOException;
import java.util.concurrent.Future;

/**
 * A cached block read from its file through the descriptor the slave on this host passed
 * ({@link LocalBlockReader}), held by reference in its FileSystem's {@link DescriptorCache}:
 * reads of whole chunks at chunk offsets go straight into the caller's buffer; others read the
 * chunks around them first, a sequential reader into its stream's one {@link Window} (so that a
 * local hit allocates nothing per read or block), a positional one only the chunks it covers in
 * part, into its thread's scratch chunk, and the whole chunks between straight into the caller's
 * buffer. A read that fails drops the file from the cache: it is not handed out again.
 *
 * <p>Thread-safe for positional readers (no window); a sequential reader's, like its window, is
 * used by one thread at a time.
 */
final class DescriptorBlockReader implements BlockReader {
  /**
   * The sequential reader's verified bytes of one block file, {@code len} bytes from block offset
   * {@code start}, valid for the reader that filled it ({@code owner}). One per stream, reused by
   * the blocks it reads in turn.
   */
  static final class Window {
    private byte[] buf;
    private DescriptorBlockReader owner;
    private long start;
    private int len;
  }

  /**
   * Each positional reader thread's buffer for the chunks a read covers in part: one chunk,
   * grown to the largest chunk size read.
   */
  private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[0]);

  private final DescriptorCache.Ref ref;
  private final LocalBlockReader file;
  /** The stream's window; null for positional readers. */
  private final Window window;
  private final int windowBytes;

  /**
   * @param window the sequential reader's window, null for a positional reader
   * @param windowBytes the bytes read into the window at a time (rounded down to whole chunks)
   */
  DescriptorBlockReader(DescriptorCache.Ref ref, Window window, int windowBytes) {
    this.ref = ref;
    this.file = ref.file();
    this.window = window;
    this.windowBytes = windowBytes;
  }

  @Override
  public int read(long blockOff, byte[] b, int off, int len) throws IOException {
    try {
      return readVerified(blockOff, b, off, len);
    } catch (IOException | RuntimeException e) {
      ref.drop();
      throw e;
    }
  }

  private int readVerified(long blockOff, byte[] b, int off, int len) throws IOException {
    int chunk = file.chunkSize();
    long start = blockOff - blockOff % chunk;
    int n;
    if (start == blockOff && len >= chunk) {
      n = file.read(blockOff, b, off, len);
    } else if (window == null) {
      byte[] scratch = SCRATCH.get();
      if (scratch.length < chunk) {
        scratch = new byte[chunk];
        SCRATCH.set(scratch);
      }
      n = file.readAt(blockOff, b, off, len, scratch);
    } else {
      if (window.owner != this || blockOff < window.start
          || blockOff >= window.start + window.len) {
        int size = Math.max(chunk, windowBytes - windowBytes % chunk);
        if (window.buf == null || window.buf.length != size) {
          window.buf = new byte[size];
        }
        window.owner = null;
        window.len = file.read(start, window.buf);
        window.start = start;
        window.owner = this;
      }
      int from = (int) (blockOff - window.start);
      n = Math.min(len, window.len - from);
      System.arraycopy(window.buf, from, b, off, n);
    }
    file.served(n);
    return n;
  }

  @Override
  public Transport transport() {
    return Transport.DESCRIPTOR;
  }

  @Override
  public Future<?> release() {
    if (window != null && window.owner == this) {
      window.owner = null;
    }
    return ref.release();
  }
}
