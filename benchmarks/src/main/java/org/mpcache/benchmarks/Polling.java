package org.mpcache.benchmarks;

import java.util.function.BooleanSupplier;
import org.apache.hadoop.util.Time;

/** Waiting for a condition in the benchmarks' command-line tools. Stateless; thread-safe. */
public final class Polling {
  private Polling() {
  }

  /**
   * Polls {@code done} every 20 ms until it holds.
   *
   * @throws IllegalStateException naming {@code what} after {@code timeoutMs}
   */
  public static void await(BooleanSupplier done, long timeoutMs, String what)
      throws InterruptedException {
    long deadline = Time.monotonicNow() + timeoutMs;
    while (!done.getAsBoolean()) {
      if (Time.monotonicNow() > deadline) {
        throw new IllegalStateException("timed out waiting for " + what);
      }
      Thread.sleep(20);
    }
  }
}
