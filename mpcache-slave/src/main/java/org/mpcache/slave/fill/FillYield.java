package org.mpcache.slave.fill;

/**
 * When a fill gives way to foreground work on the SSD: a fill (for a reader's miss or for a
 * prefetch) waits, before it starts and between the chunks it copies, while the foreground bytes
 * of the last {@code windowMs} ({@link org.mpcache.slave.space.ForegroundActivity}: hits served,
 * Localized Cache room granted) come to more than {@code foregroundBytesPerSec}
 * ({@code mpcache.slave.fill.yield.foreground.bytes.per.sec}), until {@code maxDelayMs} have
 * passed since the fill was asked for ({@code mpcache.slave.fill.yield.max-delay.ms}), so that a
 * cache under constant load still fills, in time for the next job over the same data.
 *
 * <p>A fill is background work: it pays off in later jobs, while the SSD's bandwidth it takes is
 * taken from the hits and the spills, map outputs and merges of the jobs running now. While it
 * waits, it looks again every tenth of the window, the meter's resolution.
 *
 * <p>A pure policy: immutable, no clock of its own.
 */
public final class FillYield {
  private final long foregroundBytesPerSec;
  private final long windowMs;
  private final long maxDelayMs;

  /**
   * @param foregroundBytesPerSec the foreground rate above which fills wait; 0 never to wait
   * @param windowMs the window the foreground bytes are counted over, at least 1
   * @param maxDelayMs the longest after it was asked for that a fill waits; 0 never to wait
   */
  public FillYield(long foregroundBytesPerSec, long windowMs, long maxDelayMs) {
    if (foregroundBytesPerSec < 0 || windowMs < 1 || maxDelayMs < 0) {
      throw new IllegalArgumentException("foregroundBytesPerSec and maxDelayMs must not be"
          + " negative and windowMs must be at least 1: " + foregroundBytesPerSec + ", "
          + windowMs + ", " + maxDelayMs);
    }
    this.foregroundBytesPerSec = foregroundBytesPerSec;
    this.windowMs = windowMs;
    this.maxDelayMs = maxDelayMs;
  }

  /** Whether fills ever wait: not with a rate or a longest delay of 0. */
  public boolean yields() {
    return foregroundBytesPerSec > 0 && maxDelayMs > 0;
  }

  /**
   * How many milliseconds a fill asked for {@code waitedMs} ago waits before it asks again, when
   * the SSD's foreground work came to {@code foregroundBytes} over the last window;
   * 0 when it goes on.
   */
  public long delayMs(long foregroundBytes, long waitedMs) {
    if (foregroundBytes < 0 || waitedMs < 0) {
      throw new IllegalArgumentException("foregroundBytes and waitedMs must not be negative: "
          + foregroundBytes + ", " + waitedMs);
    }
    if (!yields() || waitedMs >= maxDelayMs) {
      return 0;
    }
    // In doubles: bytes times 1,000 may pass a long's range where a rate never does.
    if (foregroundBytes * 1000.0 / windowMs <= foregroundBytesPerSec) {
      return 0;
    }
    return Math.min(maxDelayMs - waitedMs, Math.max(1, windowMs / 10));
  }
}
