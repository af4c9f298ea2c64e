package org.mpcache.hdfs;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import javax.annotation.concurrent.GuardedBy;
import org.apache.hadoop.fs.ChecksumException;
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
 * block's {@link Deadline}. The connection comes from, and goes back to, the FileSystem's
 * {@link StreamConnections}: a reader of many blocks of one slave connects once. A kept
 * connection that fails before its first answer for this block (the slave closed it meanwhile)
 * is replaced by a new one, once.
 *
 * <p>Thread-safe: reads are serialized on the reader (positional readers of one block share
 * it); {@link #release} may come from any thread and fails a read under way. Once released, the
 * reader never touches its connection again (another reader may have it).
 */
final class StreamBlockReader implements BlockReader {
  private static final int IDLE = 0;
  private static final int READING = 1;
  private static final int RELEASED = 2;

  private final BlockTarget target;
  private final InetSocketAddress address;
  private final StreamConnections connections;
  private final int requestBytes;
  private final long readahead;
  private final Deadline deadline;
  /** Whether a read is under way ({@code READING}) or the reader was let go ({@code RELEASED}). */
  private final AtomicInteger state = new AtomicInteger(IDLE);
  /** Written under the monitor; volatile for {@link #release} during a read. */
  private volatile BlockStreamConnection connection;
  /** Whether the connection was kept from another block and has not answered for this one. */
  @GuardedBy("this")
  private boolean untried;
  /** The block offset the next read-ahead request starts at. */
  @GuardedBy("this")
  private long next;
  /** The last answer; null before the first. */
  @GuardedBy("this")
  private Answer last;

  private StreamBlockReader(BlockTarget target, InetSocketAddress address,
      StreamConnections connections, BlockStreamConnection connection, boolean untried,
      int requestBytes, long readahead, Deadline deadline) {
    this.target = target;
    this.address = address;
    this.connections = connections;
    this.connection = connection;
    this.untried = untried;
    this.requestBytes = requestBytes;
    this.readahead = readahead;
    this.deadline = deadline;
  }

  /**
   * Reads {@code t} from the block stream of its slave: over a connection {@code connections}
   * kept, moved on to the block, or a new one within what is left of {@code deadline}.
   *
   * @param requestBytes the bytes asked for per request
   * @param readahead the bytes kept asked for ahead of the answer a read waits for; 0 asks for
   *     one answer at a time (positional readers)
   */
  static StreamBlockReader open(BlockTarget t, StreamConnections connections, int requestBytes,
      long readahead, Deadline deadline) throws IOException {
    InetSocketAddress address = new InetSocketAddress(t.slave().host(), t.slave().streamPort());
    BlockStreamConnection kept = connections.take(address);
    if (kept != null) {
      ClientCounters.get().streamConnectionReused();
      kept.moveTo(ProtoConverters.toProto(t.key()), t.token(), t.length());
      return new StreamBlockReader(t, address, connections, kept, true, requestBytes, readahead,
          deadline);
    }
    return new StreamBlockReader(t, address, connections, connect(t, address, deadline), false,
        requestBytes, readahead, deadline);
  }

  private static BlockStreamConnection connect(BlockTarget t, InetSocketAddress address,
      Deadline deadline) throws IOException {
    return BlockStreamConnection.open(address, ProtoConverters.toProto(t.key()), t.token(),
        t.length(), deadline.remainingMillis());
  }

  @Override
  public synchronized int read(long blockOff, byte[] b, int off, int len) throws IOException {
    if (!state.compareAndSet(IDLE, READING)) {
      throw new IOException("the block stream reader of " + target.describe() + " was let go");
    }
    try {
      if (last == null || !last.covers(blockOff)) {
        last = answer(blockOff);
      }
      int from = (int) (blockOff - last.offset());
      int n = Math.min(len, last.length() - from);
      System.arraycopy(last.data(), from, b, off, n);
      return n;
    } finally {
      // Released meanwhile: the connection was closed under the read, which failed.
      state.compareAndSet(READING, IDLE);
    }
  }

  /**
   * {@link #answer(long, int)}; when a kept connection fails before its first answer for this
   * block (not by a refusal or a checksum, which are the slave's answers), once more over a
   * new connection.
   */
  @GuardedBy("this")
  private Answer answer(long blockOff) throws IOException {
    try {
      Answer a = answer(blockOff, deadline.remainingMillis());
      untried = false;
      return a;
    } catch (BlockStreamConnection.RefusedException | ChecksumException e) {
      throw e;
    } catch (IOException e) {
      if (!untried) {
        throw e;
      }
      untried = false;
      connection.close();
      connection = connect(target, address, deadline);
      if (state.get() == RELEASED) {
        // Let go while connecting: nothing else will close it.
        connection.close();
        throw new IOException("the block stream reader of " + target.describe() + " was let go");
      }
      next = 0;
      return answer(blockOff, deadline.remainingMillis());
    }
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
    long length = target.length();
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

  /**
   * Lets the block go: a connection with every answer in goes back to the FileSystem's
   * {@link StreamConnections}, for another block of the slave; one with answers due, or failed,
   * is closed. A read under way fails: its connection is closed under it. Idempotent.
   */
  @Override
  public Future<?> release() {
    while (true) {
      int s = state.get();
      if (s == RELEASED) {
        break;
      }
      if (s == IDLE && state.compareAndSet(IDLE, RELEASED)) {
        connections.give(address, connection);
        break;
      }
      if (s == READING && state.compareAndSet(READING, RELEASED)) {
        closeUnderRead();
        break;
      }
    }
    return CompletableFuture.completedFuture(null);
  }

  /**
   * Closes the connection a read holds, without waiting for the read: the read fails. A
   * connection the read makes after this is closed by the read itself.
   */
  private void closeUnderRead() {
    connection.close();
  }
}
