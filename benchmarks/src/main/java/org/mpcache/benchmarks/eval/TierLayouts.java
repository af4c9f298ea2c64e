package org.mpcache.benchmarks.eval;

import java.io.File;
import java.io.PrintStream;

/**
 * Chooses the storage tiers the evaluation runs on: emulated HDD and SSD devices where this
 * build and machine can provide them, plain directories (with a notice) otherwise. Stateless.
 */
public final class TierLayouts {
  private TierLayouts() {
  }

  /** Opens the tiers under {@code base}, printing a notice to {@code console} when degraded. */
  public static TierLayout open(File base, PrintStream console) {
    String reason = "no storage tier emulation in this build";
    console.println("NOTICE: " + reason + "; HDD and SSD directories are plain directories "
        + "on one disk, so the speedups below do not show what SSDs would give.");
    return new PlainTiers(base, reason);
  }
}
