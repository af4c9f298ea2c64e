package org.mpcache.hdfs;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import javax.annotation.concurrent.GuardedBy;

/**
 * The time the cache may add to one block ({@code mpcache.client.cache.deadline.ms}): a
 * sequential reader's calls to the block's slave share one budget; a positional read's call has
 * the whole limit to itself. Time comes from an injected ticker (nanoseconds), so that tests
 * decide it.
 *
 * <p>Thread-safe.
 */
final class Deadline {
  /** A call to a slave. */
  @FunctionalInterface
  interface SlaveCall<T> {
    T call() throws IOException;
  }

  private final long limitNanos;
  private final LongSupplier ticker;
  /** Whether each call is measured on its own rather than against the calls before it. */
  private final boolean perCall;
  private final String what;
  @GuardedBy("this")
  private long spentNanos;

  private Deadline(long limitNanos, LongSupplier ticker, boolean perCall, String what) {
    this.limitNanos = limitNanos;
    this.ticker = ticker;
    this.perCall = perCall;
    this.what = what;
  }

  /** One budget for all the calls for a block, as a sequential reader makes them. */
  static Deadline perBlock(long limitNanos, LongSupplier ticker, String what) {
    return new Deadline(limitNanos, ticker, false, what);
  }

  /** The whole limit for each call, as positional reads make them. */
  static Deadline perCall(long limitNanos, LongSupplier ticker, String what) {
    return new Deadline(limitNanos, ticker, true, what);
  }

  long now() {
    return ticker.getAsLong();
  }

  /**
   * Makes {@code call} on the budget: its time is added to the budget's, and once over the limit
   * the call's answer is dropped for a {@link DeadlineExceededException}.
   */
  <T> T call(SlaveCall<T> call) throws IOException {
    long start = now();
    try {
      return call.call();
    } finally {
      long spent = charge(start);
      if (spent > limitNanos) {
        throw new DeadlineExceededException("calls for " + what + " took "
            + TimeUnit.NANOSECONDS.toMillis(spent) + " ms, over the cache deadline of "
            + TimeUnit.NANOSECONDS.toMillis(limitNanos) + " ms");
      }
    }
  }

  /** Adds the time since {@code start} to the budget; returns what the call counts against. */
  synchronized long charge(long start) {
    long took = now() - start;
    spentNanos += took;
    return perCall ? took : spentNanos;
  }

  /** What is left of the budget, at least 1 ms: the limit of the next wait for the slave. */
  synchronized int remainingMillis() {
    long left = perCall ? limitNanos : limitNanos - spentNanos;
    return (int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(left));
  }

  synchronized long remainingNanos() {
    return Math.max(0, perCall ? limitNanos : limitNanos - spentNanos);
  }

  long limitMillis() {
    return TimeUnit.NANOSECONDS.toMillis(limitNanos);
  }
}
