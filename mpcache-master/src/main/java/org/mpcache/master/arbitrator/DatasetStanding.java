package org.mpcache.master.arbitrator;

/**
 * How a cache policy ranks one dataset, as operators see it in {@code mpcache admin datasets}:
 * its priority Pr (NaN when the dataset is not in the main cache), its frequency Fr, whether its
 * Full bonus applies, and whether the auxiliary cache remembers it. A snapshot; immutable.
 */
public final class DatasetStanding {
  private final double priority;
  private final double frequency;
  private final boolean full;
  private final boolean inAuxiliaryCache;

  public DatasetStanding(double priority, double frequency, boolean full,
      boolean inAuxiliaryCache) {
    this.priority = priority;
    this.frequency = frequency;
    this.full = full;
    this.inAuxiliaryCache = inAuxiliaryCache;
  }

  /** Pr(jd) (paper Equation 2), or NaN when the policy does not rank the dataset. */
  public double priority() {
    return priority;
  }

  /** Fr(jd) = Blocks_Access / Size (paper Equation 1). */
  public double frequency() {
    return frequency;
  }

  public boolean full() {
    return full;
  }

  public boolean inAuxiliaryCache() {
    return inAuxiliaryCache;
  }
}
