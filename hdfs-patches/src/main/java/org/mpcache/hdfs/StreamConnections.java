package org.mpcache.hdfs;

import java.io.Closeable;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import javax.annotation.concurrent.GuardedBy;
import org.mpcache.common.stream.BlockStreamConnection;

/**
 * The block stream connections one FileSystem keeps once their readers let their blocks go, per
 * slave, so that the next block read from that slave's stream moves a connection on to itself
 * ({@link BlockStreamConnection#moveTo}) rather than connect again: HDFS's {@code PeerCache} for
 * mpCache's streams. A connection is kept only when it can move on (every answer received,
 * nothing failed); at most {@code maxIdle} per slave, each for at most {@code expiryNanos},
 * the most recently kept handed out first.
 *
 * <p>Thread-safe.
 */
final class StreamConnections implements Closeable {
  private record Idle(BlockStreamConnection connection, long since) {
  }

  private final int maxIdle;
  private final long expiryNanos;
  private final LongSupplier nanoClock;
  @GuardedBy("this")
  private final Map<InetSocketAddress, ArrayDeque<Idle>> idle = new HashMap<>();
  @GuardedBy("this")
  private boolean closed;

  /**
   * @param maxIdle the most idle connections kept per slave; 0 keeps none
   * @param expiryNanos how long an idle connection is kept
   */
  StreamConnections(int maxIdle, long expiryNanos, LongSupplier nanoClock) {
    this.maxIdle = maxIdle;
    this.expiryNanos = expiryNanos;
    this.nanoClock = nanoClock;
  }

  /** An idle connection to the stream at {@code address}, most recently kept first; or null. */
  BlockStreamConnection take(InetSocketAddress address) {
    List<BlockStreamConnection> expired = new ArrayList<>();
    BlockStreamConnection found = null;
    synchronized (this) {
      ArrayDeque<Idle> q = idle.get(address);
      long now = nanoClock.getAsLong();
      while (q != null && !q.isEmpty() && found == null) {
        Idle i = q.pollLast();
        if (now - i.since() > expiryNanos || !i.connection().reusable()) {
          expired.add(i.connection());
        } else {
          found = i.connection();
        }
      }
      expireEldest(q, now, expired);
    }
    expired.forEach(BlockStreamConnection::close);
    return found;
  }

  /**
   * Keeps {@code c}, a connection to the stream at {@code address} whose reader let its block
   * go, for another block; closes it instead when it cannot move on, none are kept or the
   * FileSystem closed. Past {@code maxIdle}, the one kept longest is closed.
   */
  void give(InetSocketAddress address, BlockStreamConnection c) {
    List<BlockStreamConnection> out = new ArrayList<>();
    synchronized (this) {
      if (closed || maxIdle == 0 || !c.reusable()) {
        out.add(c);
      } else {
        ArrayDeque<Idle> q = idle.computeIfAbsent(address, a -> new ArrayDeque<>());
        long now = nanoClock.getAsLong();
        q.addLast(new Idle(c, now));
        while (q.size() > maxIdle) {
          out.add(q.pollFirst().connection());
        }
        expireEldest(q, now, out);
      }
    }
    out.forEach(BlockStreamConnection::close);
  }

  /** Moves the connections of {@code q} kept past their expiry, eldest first, to {@code out}. */
  @GuardedBy("this")
  private void expireEldest(ArrayDeque<Idle> q, long now, List<BlockStreamConnection> out) {
    while (q != null && !q.isEmpty() && now - q.peekFirst().since() > expiryNanos) {
      out.add(q.pollFirst().connection());
    }
  }

  /** Idle connections kept now, over every slave. */
  synchronized int idle() {
    return idle.values().stream().mapToInt(ArrayDeque::size).sum();
  }

  /** Closes every idle connection; connections given later are closed at once. Idempotent. */
  @Override
  public void close() {
    List<BlockStreamConnection> out = new ArrayList<>();
    synchronized (this) {
      closed = true;
      idle.values().forEach(q -> q.forEach(i -> out.add(i.connection())));
      idle.clear();
    }
    out.forEach(BlockStreamConnection::close);
  }
}
