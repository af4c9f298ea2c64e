package org.mpcache.master.arbitrator;

/**
 * Whether the slaves' SSD writes are over their budget: a leaky bucket. Every byte written adds
 * to a backlog, which drains at the budget's rate and never below zero; the writes are over
 * budget while the backlog exceeds one hour of the budget. So an hour's budget may be written
 * in a burst (one dataset at a time is admitted whole, and a large one is many blocks), and over
 * any longer span the writes admitted while under budget average at most the budget plus that
 * burst. (A sliding one-hour window forgot a large admission an hour later, whatever its size:
 * on the paper's mix, at 0.25 GiB per hour per node, it cut mpCache's writes 1.6-2.4 times, the
 * bucket 5.6-13 times; docs/policy.md.) Writes are added at the time they are learned of (the
 * master: the growth of each slave's counter at its heartbeat; the simulator: each stored
 * block); time never goes back (an earlier time counts as the latest one). Time and the rate
 * are given, never read.
 *
 * <p>Not thread-safe: the caller serializes calls.
 */
public final class WriteRateMeter {
  /** The span of the budget: the backlog may reach this much of the budget before it is over. */
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

  /** Whether the backlog exceeds an hour of {@code bytesPerHour} at {@code nowMs}. */
  public boolean over(long nowMs, long bytesPerHour) {
    return backlog(nowMs, bytesPerHour) > bytesPerHour;
  }

  private void drain(long nowMs, long bytesPerHour) {
    if (latestMs != Long.MIN_VALUE && nowMs > latestMs) {
      backlog = Math.max(0, backlog - (double) bytesPerHour * (nowMs - latestMs) / WINDOW_MS);
    }
    latestMs = Math.max(latestMs, nowMs);
  }
}
