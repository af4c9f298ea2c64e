package org.mpcache.master.arbitrator;

/**
 * Whether the slaves' SSD writes are over their budget: a leaky bucket. Every byte written adds
 * to a backlog, which drains at the budget's rate and never below zero; the writes are over
 * budget while the backlog exceeds the bucket's depth: the larger of one hour of the budget and
 * the bytes the caches hold (their Input Cache capacity). So a cold cache may be filled once at
 * full speed, and one dataset at a time is admitted whole however large; over any span T the
 * writes admitted while under budget are at most the budget times T plus that depth, and the
 * budget bounds the churn of a full cache. (A depth of an hour alone held a large cache at its
 * warm-up for most of a run: on the paper's mix at 80 and 160 GB per node, 0.25 GiB per hour
 * per node lost 4.9 and 12.0 points of effective hit ratio; a depth of the caches' capacity
 * loses 0.4 and 0.1 for 7.0 and 7.3 times fewer bytes written. A sliding one-hour window forgot
 * a large admission an hour later, whatever its size, and cut mpCache's writes 1.6-2.4 times;
 * docs/policy.md.) Writes are added at the time they are learned of (the master: the growth of
 * each slave's counter at its heartbeat; the simulator: each stored block); time never goes
 * back (an earlier time counts as the latest one). Time, the rate and the depth are given,
 * never read.
 *
 * <p>Not thread-safe: the caller serializes calls.
 */
public final class WriteRateMeter {
  /** The shortest span of the budget the backlog may reach before it is over. */
  public static final long WINDOW_MS = 3_600_000L;

  private double backlog;
  private long latestMs = Long.MIN_VALUE;

  /**
   * Adds {@code written} bytes (not negative) at {@code nowMs}, after draining the backlog at
   * {@code bytesPerHour} since the latest call.
   */
  public void add(long nowMs, long written, long bytesPerHour) {
    if (written < 0) {
      throw new IllegalArgumentException("bytes written must not be negative: " + written);
    }
    drain(nowMs, bytesPerHour);
    backlog += written;
  }

  /** The bytes written and not yet drained at {@code bytesPerHour}, as of {@code nowMs}. */
  public long backlog(long nowMs, long bytesPerHour) {
    drain(nowMs, bytesPerHour);
    return (long) backlog;
  }

  /**
   * Whether the backlog at {@code nowMs} exceeds both an hour of {@code bytesPerHour} and
   * {@code capacityBytes}, the Input Cache capacity of the caches written.
   */
  public boolean over(long nowMs, long bytesPerHour, long capacityBytes) {
    return backlog(nowMs, bytesPerHour) > Math.max(bytesPerHour, capacityBytes);
  }

  private void drain(long nowMs, long bytesPerHour) {
    if (latestMs != Long.MIN_VALUE && nowMs > latestMs) {
      backlog = Math.max(0, backlog - (double) bytesPerHour * (nowMs - latestMs) / WINDOW_MS);
    }
    latestMs = Math.max(latestMs, nowMs);
  }
}
