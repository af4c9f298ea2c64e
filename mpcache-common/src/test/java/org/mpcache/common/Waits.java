package org.mpcache.common;

import java.util.function.BooleanSupplier;
import org.apache.hadoop.util.Time;

/**
 * Test support, shared through the test jar: waiting for a condition that other threads or
 * daemons bring about, with a deadline, instead of sleeping a fixed time. Stateless.
 */
public final class Waits {

  private Waits() {
  }

  /** Waits up to 10 s for {@code condition}, polling every 20 ms; else fails naming {@code what}. */
  public static void waitFor(BooleanSupplier condition, String what) throws InterruptedException {
    waitFor(condition, 10_000, what);
  }

  /**
   * Waits up to {@code timeoutMs} for {@code condition}, polling every 20 ms; else fails naming
   * {@code what}.
   */
  public static void waitFor(BooleanSupplier condition, long timeoutMs, String what)
      throws InterruptedException {
    long deadline = Time.monotonicNow() + timeoutMs;
    while (!condition.getAsBoolean()) {
      if (Time.monotonicNow() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(20);
    }
  }
}
