package org.mpcache.slave.fill;

/**
 * When a fill a reader's miss asked for may start: once the misses on the reader's file have
 * been quiet for {@code quietMs} ({@code mpcache.slave.fill.quiet.ms}), and at the latest
 * {@code maxDelayMs} after the fill was asked for ({@code mpcache.slave.fill.max-delay.ms}).
 *
 * <p>A reader that misses a file's blocks one after another keeps asking for fills; a fill run
 * beside it takes CPU and memory bandwidth from the reader and its DataNode, which on a node whose
 * cores the reads keep busy slows the read itself. Held off until the reader has moved on, the
 * fill reads the blocks from the page cache the reader has just warmed. A reader whose misses
 * never stop (a long scan) delays its fills by {@code maxDelayMs} at most.
 *
 * <p>A pure policy: immutable, no clock of its own.
 */
public final class FillHoldOff {
  private final long quietMs;
  private final long maxDelayMs;

  /**
   * @param quietMs how long a file's misses must have stopped before its fills start; 0 to start
   *     them at once
   * @param maxDelayMs the longest a fill waits for that, from when it was asked for
   */
  public FillHoldOff(long quietMs, long maxDelayMs) {
    if (quietMs < 0 || maxDelayMs < 0) {
      throw new IllegalArgumentException("quietMs and maxDelayMs must not be negative: " + quietMs
          + ", " + maxDelayMs);
    }
    this.quietMs = quietMs;
    this.maxDelayMs = maxDelayMs;
  }

  /** Whether fills ever wait: with a quiet time of 0 they start at once. */
  public boolean holdsOff() {
    return quietMs > 0 && maxDelayMs > 0;
  }

  /**
   * How many milliseconds a fill asked for at {@code askedAt} still waits at {@code now}, when the
   * last miss on its file reached the slave at {@code lastMiss}; 0 when it may start. All three are
   * readings of one monotonic clock, in milliseconds.
   */
  public long delayMs(long askedAt, long lastMiss, long now) {
    if (!holdsOff()) {
      return 0;
    }
    long start = Math.min(Math.max(askedAt, lastMiss) + quietMs, askedAt + maxDelayMs);
    return Math.max(0, start - now);
  }
}
