package org.mpcache.hdfs;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import javax.annotation.concurrent.GuardedBy;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.common.stream.BlockStreamConnection;
import org.mpcache.common.stream.BlockStreamConnection.Answer;

/**
 * Reads one cached block from a slave's block stream ({@link BlockStreamConnection}): the way
 * remote hits, and local hits without a descriptor, read a block instead of the slave's
 * {@code read} RPC. A sequential reader keeps {@code readahead} bytes asked for ahead of the
 * answer it waits for, so the next bytes travel while the reader consumes the last; a reader
 * that moves elsewhere in the block lets the answers it no longer needs go by (verified,
 * unused). Every answer is verified chunk by chunk before it is returned; reads within the
 * last answer are served from it. Each wait for the slave is bounded by what is left of the
 * block's {@link Deadline}.
 *
 * <p>Thread-safe: reads are serialized on the reader (positional readers of one block share
 * it); {@link #release} may come from any thread and fails a read under way.
 */
final class StreamBlockReader implements BlockReader {
  private final BlockStreamConnection connection;
  private final long length;
  private final int requestBytes;
  private final long readahead;
  private final Deadline deadline;
  /** The block offset the next read-ahead request starts at. */
  @GuardedBy("this")
  private long next;
  /** The last answer; null before the first. */
  @GuardedBy("this")
  private Answer last;

  private StreamBlockReader(BlockStreamConnection connection, long length, int requestBytes,
      long readahead, Deadline deadline) {
    this.connection = connection;
    this.length = length;
    this.requestBytes = requestBytes;
    this.readahead = readahead;
    this.deadline = deadline;
  }

  /**
   * Connects to the block stream of {@code t}'s slave, within what is left of {@code deadline}.
   *
   * @param requestBytes the bytes asked for per request
   * @param readahead the bytes kept asked for ahead of the answer a read waits for; 0 asks for
   *     one answer at a time (positional readers)
   */
  static StreamBlockReader open(BlockTarget t, int requestBytes, long readahead,
      Deadline deadline) throws IOException {
    return new StreamBlockReader(BlockStreamConnection.open(
        new InetSocketAddress(t.slave().host(), t.slave().streamPort()),
        ProtoConverters.toProto(t.key()), t.token(), t.length(), deadline.remainingMillis()),
        t.length(), requestBytes, readahead, deadline);
  }

  @Override
  public synchronized int read(long blockOff, byte[] b, int off, int len) throws IOException {
    if (last == null || !last.covers(blockOff)) {
      last = answer(blockOff, deadline.remainingMillis());
    }
    int from = (int) (blockOff - last.offset());
    int n = Math.min(len, last.length() - from);
    System.arraycopy(last.data(), from, b, off, n);
    return n;
  }

  /**
   * The verified bytes of the block around {@code blockOff}: an answer that holds it.
   *
   * @param timeoutMs the limit of each wait for the slave during this read
   */
  @GuardedBy("this")
  private Answer answer(long blockOff, int timeoutMs) throws IOException {
    connection.timeout(timeoutMs);
    while (connection.hasPending() && !connection.nextCovers(blockOff)) {
      // Asked for before the reader moved: let it go by.
      connection.receive();
    }
    if (!connection.hasPending()) {
      connection.request(blockOff, requestBytes);
      // Starts at the chunk holding blockOff: the protocol's promise, checked by receive.
      Answer a = connection.receive();
      next = a.end();
      askAhead();
      return a;
    }
    askAhead();
    Answer a = connection.receive();
    if (a.covers(blockOff)) {
      return a;
    }
    // The slave sent less than asked for (its largest answer is smaller): ask from blockOff.
    return answer(blockOff, timeoutMs);
  }

  @GuardedBy("this")
  private void askAhead() throws IOException {
    while (readahead > 0 && next < length && connection.pendingBytes() < readahead) {
      connection.request(next, requestBytes);
      next += Math.min(requestBytes, length - next);
    }
  }

  @Override
  public synchronized boolean holds(long blockOff) {
    return last != null && last.covers(blockOff);
  }

  @Override
  public Transport transport() {
    return Transport.STREAM;
  }

  /** Closes the connection; the slave ends its hold on the block. Idempotent. */
  @Override
  public Future<?> release() {
    connection.close();
    return CompletableFuture.completedFuture(null);
  }
}
