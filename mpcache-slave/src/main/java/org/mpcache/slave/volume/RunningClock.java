package org.mpcache.slave.volume;

import java.io.Closeable;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import javax.annotation.concurrent.GuardedBy;
import org.apache.hadoop.util.Time;

/**
 * A clock in milliseconds that advances only while the process runs: a daemon thread looks at the
 * monotonic clock every {@code tickMs} and adds what passed since its last look, but never more
 * than {@code maxStepMs} at once. A stall of the whole process (a {@code SIGSTOP}, a long
 * garbage-collection pause, a starved machine) then adds at most one step, as Hadoop's
 * {@code JvmPauseMonitor} tells such pauses from slow work. The slave times its SSD reads with it,
 * so that a read which was slow only because the process stood still is not counted against the
 * directory ({@link VolumeHealth#readTook}); a device that is slow while the process runs still
 * is. Its resolution is one tick; a stall shortens what it measures, never lengthens it.
 *
 * <p>Thread-safe.
 */
public final class RunningClock implements LongSupplier, Closeable {
  /** How often the slave's clock looks at the monotonic clock, in milliseconds. */
  public static final long TICK_MS = 50;
  /** The most one look of the slave's clock adds, in milliseconds. */
  public static final long MAX_STEP_MS = 250;

  private final LongSupplier raw;
  private final long maxStepMs;
  private final Thread ticker;
  @GuardedBy("this")
  private long last;
  private volatile long running;

  /**
   * A clock that is not started: it advances only through {@link #tick}.
   *
   * @param raw a monotonic clock in milliseconds
   * @param maxStepMs the most one tick adds, at least 1
   */
  RunningClock(LongSupplier raw, long maxStepMs) {
    this(raw, maxStepMs, 0);
  }

  private RunningClock(LongSupplier raw, long maxStepMs, long tickMs) {
    if (maxStepMs < 1) {
      throw new IllegalArgumentException("maxStepMs must be at least 1: " + maxStepMs);
    }
    this.raw = raw;
    this.maxStepMs = maxStepMs;
    this.last = raw.getAsLong();
    if (tickMs <= 0) {
      this.ticker = null;
      return;
    }
    this.ticker = new Thread(() -> {
      try {
        while (!Thread.currentThread().isInterrupted()) {
          TimeUnit.MILLISECONDS.sleep(tickMs);
          tick();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "mpcache-running-clock");
    this.ticker.setDaemon(true);
    this.ticker.start();
  }

  /** Starts a clock that looks every {@link #TICK_MS} and adds at most {@link #MAX_STEP_MS}. */
  public static RunningClock start() {
    return new RunningClock(Time::monotonicNow, MAX_STEP_MS, TICK_MS);
  }

  /** Adds what passed on the monotonic clock since the last tick, at most one step. */
  synchronized void tick() {
    long now = raw.getAsLong();
    running += Math.min(Math.max(0, now - last), maxStepMs);
    last = now;
  }

  /** The milliseconds the process has run since the clock started, to within one tick. */
  @Override
  public long getAsLong() {
    return running;
  }

  /** Stops the ticking thread; the clock then stands still. */
  @Override
  public void close() {
    if (ticker != null) {
      ticker.interrupt();
    }
  }
}
