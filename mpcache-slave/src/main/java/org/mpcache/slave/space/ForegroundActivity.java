package org.mpcache.slave.space;

import java.util.Arrays;
import java.util.function.LongSupplier;
import javax.annotation.concurrent.GuardedBy;

/**
 * A meter of the foreground work on the slave's SSD over a recent window: the bytes of cached
 * blocks the slave serves or hands out to readers, and the bytes of room the Localized Cache
 * grants tasks for their spills, map outputs and merges (counted when granted, before they are
 * written: a grant is the only sign of those writes the slave gets). The slave's fills read it to
 * stay out of the way of that work ({@code org.mpcache.slave.fill.FillYield}).
 *
 * <p>The window is cut into {@value #MAX_SLICES} equal slices (fewer for a window under
 * {@value #MAX_SLICES} ms); {@link #recentBytes} adds up the current slice and the ones before it
 * in the window, so a byte leaves the window a slice at a time: the figure covers between the
 * last window less one slice and the last window.
 *
 * <p>Thread-safe: each call holds the meter's monitor for a few array operations; the clock is
 * read before the monitor is taken.
 */
public final class ForegroundActivity {
  /** Into how many slices the window is cut at most. */
  static final int MAX_SLICES = 10;

  private final int slices;
  private final long sliceMs;
  private final LongSupplier clock;
  /** The bytes recorded in each slice, by the slice's number modulo {@link #slices}. */
  @GuardedBy("this")
  private final long[] bytes;
  /** Which slice each entry of {@link #bytes} counts, by number (time / sliceMs). */
  @GuardedBy("this")
  private final long[] sliceOf;

  /**
   * @param windowMs how far back, in milliseconds, the meter counts
   * @param monotonicMs a monotonic clock in milliseconds
   */
  public ForegroundActivity(long windowMs, LongSupplier monotonicMs) {
    if (windowMs < 1) {
      throw new IllegalArgumentException("windowMs must be at least 1: " + windowMs);
    }
    this.slices = (int) Math.min(MAX_SLICES, windowMs);
    this.sliceMs = windowMs / slices;
    this.clock = monotonicMs;
    this.bytes = new long[slices];
    this.sliceOf = new long[slices];
    Arrays.fill(sliceOf, Long.MIN_VALUE);
  }

  /** Counts {@code n} bytes of foreground work on the SSD, now. */
  public void record(long n) {
    if (n < 0) {
      throw new IllegalArgumentException("bytes must not be negative: " + n);
    }
    if (n == 0) {
      return;
    }
    long slice = Math.floorDiv(clock.getAsLong(), sliceMs);
    int i = (int) Math.floorMod(slice, slices);
    synchronized (this) {
      // A caller that read the clock before another's newer slice took this entry adds to it.
      if (sliceOf[i] < slice) {
        sliceOf[i] = slice;
        bytes[i] = 0;
      }
      bytes[i] += n;
    }
  }

  /** The bytes recorded within the last window (see the class's note on slices). */
  public long recentBytes() {
    long slice = Math.floorDiv(clock.getAsLong(), sliceMs);
    long sum = 0;
    synchronized (this) {
      for (int i = 0; i < slices; i++) {
        if (sliceOf[i] > slice - slices) {
          sum += bytes[i];
        }
      }
    }
    return sum;
  }
}
