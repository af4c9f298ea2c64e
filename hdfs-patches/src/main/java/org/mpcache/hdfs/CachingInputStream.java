package org.mpcache.hdfs;

import java.io.EOFException;
import java.io.IOException;
import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.LongSupplier;
import javax.annotation.concurrent.GuardedBy;
import org.apache.hadoop.fs.ByteBufferPositionedReadable;
import org.apache.hadoop.fs.ByteBufferReadable;
import org.apache.hadoop.fs.CanUnbuffer;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;

/**
 * An HDFS input stream that reads each block from the SSD cache of the slave chosen for it when
 * the block is cached there, and from HDFS otherwise. It knows positions, block boundaries and
 * the read loop; where a block's bytes come from, {@link SequentialReads} and
 * {@link PositionalReads} decide, through the {@link BlockReader}s {@link BlockReaderFactory}
 * builds. Any cache-side fault moves the rest of that block to HDFS ({@link FallbackCause}).
 * The stream's behaviour (positions, EOF, exceptions, positional and ByteBuffer reads, unbuffer)
 * is that of the HDFS stream it wraps. docs/architecture.md walks through a hit and a miss.
 *
 * <p>Thread-safe as HDFS's stream is: sequential reads, seeks and close are serialized on the
 * stream's monitor; positional reads take no stream-wide lock and may run beside them and each
 * other, so a positional read waiting for a slave never holds up the sequential reader.
 *
 * <p>Closing waits for the releases of the block readers the stream left and for its read
 * reports, so the slave's counters hold the stream's reads when close returns. Every reader the
 * stream holds is released when it closes or unbuffers, when it is dropped unclosed, or when
 * its FileSystem closes ({@link OpenStreams}).
 */
final class CachingInputStream extends FSInputStream
    implements ByteBufferReadable, ByteBufferPositionedReadable, CanUnbuffer, StreamCapabilities {
  private final DFSInputStream hdfs;
  private final FileBlocks blocks;
  private final long fileLength;
  private final ClientContext ctx;
  private final ClientCounters counters = ClientCounters.get();
  @GuardedBy("this")
  private final SequentialReads sequential;
  private final PositionalReads preads;
  @GuardedBy("this")
  private long pos;
  private final Cleaner.Cleanable cleanable;
  private volatile boolean closed;

  /**
   * @param path the file, a qualified URI
   * @param cacheableBlocks how many leading blocks may be cached: all of them, or all but the
   *     last for a file still being written
   * @param ticker the time in nanoseconds ({@link System#nanoTime} but in tests)
   */
  CachingInputStream(DFSInputStream hdfs, String path, List<LocatedBlock> blocks,
      int cacheableBlocks, ClientContext ctx, Dataset dataset, LongSupplier ticker) {
    this.hdfs = hdfs;
    this.blocks = new FileBlocks(blocks, cacheableBlocks, path, dataset, ctx.conf());
    this.fileLength = hdfs.getFileLength();
    this.ctx = ctx;
    BlockReaderFactory factory = new BlockReaderFactory(ctx, ticker);
    this.sequential = new SequentialReads(this.blocks, ctx, factory, ticker);
    this.preads = new PositionalReads(this.blocks, ctx, factory, hdfs);
    // Neither reaches the stream, which must be collectable while they are registered.
    LookAhead.HeldFiles held = sequential.held();
    PositionalReads positional = preads;
    this.cleanable = ctx.openStreams().register(this, () -> {
      held.run();
      positional.releaseAll();
    });
  }

  private void checkOpen() throws IOException {
    if (closed) {
      throw new IOException(FSExceptionMessages.STREAM_IS_CLOSED);
    }
  }

  @Override
  public synchronized int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n <= 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public synchronized int read(byte[] b, int off, int len) throws IOException {
    checkOpen();
    validatePositionedReadArgs(pos, b, off, len);
    if (len == 0) {
      return 0;
    }
    if (pos >= fileLength) {
      return -1;
    }
    BlockCursor c = sequential.at(pos);
    if (c == null) {
      return readHdfs(null, b, off, len);
    }
    int want = (int) Math.min(len, c.end() - pos);
    int n = sequential.readCache(c, pos, b, off, want);
    if (n > 0) {
      pos += n;
      return n;
    }
    return readHdfs(c, b, off, want);
  }

  private int readHdfs(BlockCursor c, byte[] b, int off, int len) throws IOException {
    if (hdfs.getPos() != pos) {
      hdfs.seek(pos);
    }
    int n = hdfs.read(b, off, len);
    if (n <= 0) {
      return n;
    }
    if (c != null) {
      c.readFromHdfs(n);
    }
    counters.readFromHdfs(n);
    pos += n;
    return n;
  }

  @Override
  public synchronized int read(ByteBuffer buf) throws IOException {
    if (buf.hasArray()) {
      int n = read(buf.array(), buf.arrayOffset() + buf.position(), buf.remaining());
      if (n > 0) {
        buf.position(buf.position() + n);
      }
      return n;
    }
    byte[] tmp = new byte[Math.min(buf.remaining(), 64 * 1024)];
    int n = read(tmp, 0, tmp.length);
    if (n > 0) {
      buf.put(tmp, 0, n);
    }
    return n;
  }

  @Override
  public int read(long position, byte[] b, int off, int len) throws IOException {
    validatePositionedReadArgs(position, b, off, len);
    if (len == 0) {
      return 0;
    }
    // No stream monitor here, as in DFSInputStream: a pread waiting for a slow slave must not
    // hold up the sequential reader of the same stream.
    checkOpen();
    if (position >= fileLength) {
      return -1;
    }
    return preads.read(position, b, off, len);
  }

  @Override
  public int read(long position, ByteBuffer buf) throws IOException {
    byte[] tmp = new byte[Math.min(buf.remaining(), 1024 * 1024)];
    int n = read(position, tmp, 0, tmp.length);
    if (n > 0) {
      buf.put(tmp, 0, n);
    }
    return n;
  }

  @Override
  public void readFully(long position, ByteBuffer buf) throws IOException {
    while (buf.hasRemaining()) {
      int n = read(position, buf);
      if (n < 0) {
        throw new EOFException(FSExceptionMessages.EOF_IN_READ_FULLY);
      }
      position += n;
    }
  }

  @Override
  public synchronized void seek(long target) throws IOException {
    checkOpen();
    if (target < 0) {
      throw new EOFException(FSExceptionMessages.NEGATIVE_SEEK);
    }
    if (target > fileLength) {
      throw new EOFException(FSExceptionMessages.CANNOT_SEEK_PAST_EOF);
    }
    pos = target;
  }

  @Override
  public synchronized long skip(long n) throws IOException {
    if (n <= 0) {
      return 0;
    }
    long skipped = Math.min(n, fileLength - pos);
    seek(pos + skipped);
    return skipped;
  }

  @Override
  public synchronized long getPos() {
    return pos;
  }

  @Override
  public synchronized boolean seekToNewSource(long target) throws IOException {
    checkOpen();
    sequential.newSource();
    pos = target;
    hdfs.seek(target);
    return hdfs.seekToNewSource(target);
  }

  /** How many blocks' cache readers the stream's positional reads hold now. */
  int heldPositionalReaders() {
    return preads.held();
  }

  @Override
  public synchronized int available() throws IOException {
    checkOpen();
    long remaining = fileLength - pos;
    return remaining <= Integer.MAX_VALUE ? (int) remaining : Integer.MAX_VALUE;
  }

  @Override
  public synchronized void unbuffer() {
    sequential.leave();
    sequential.dropAhead();
    sequential.releasing(preads.releaseAll());
    hdfs.unbuffer();
  }

  @Override
  public boolean hasCapability(String capability) {
    switch (capability.toLowerCase(java.util.Locale.ROOT)) {
      case StreamCapabilities.UNBUFFER:
      case StreamCapabilities.READBYTEBUFFER:
      case StreamCapabilities.PREADBYTEBUFFER:
        return true;
      default:
        return false;
    }
  }

  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    sequential.leave();
    sequential.releasing(preads.releaseAll());
    // Releases a block file found ahead; the cleaner has nothing left to do.
    cleanable.clean();
    sequential.await(ctx.conf().deadlineMs);
    preads.reportAndForget();
    hdfs.close();
  }
}
