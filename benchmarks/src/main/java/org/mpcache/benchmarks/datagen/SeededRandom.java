package org.mpcache.benchmarks.datagen;

/**
 * The pseudo-random source of every generator: SplitMix64 (Steele, Lea and Flood, "Fast splittable
 * pseudorandom number generators", OOPSLA 2014), written out here rather than taken from the JDK so
 * that a seed yields the same stream on every Java version, which is what makes generated datasets
 * byte-identical across machines.
 *
 * <p>Not thread-safe: each generator owns its instance.
 */
public final class SeededRandom {
  private static final long GOLDEN_GAMMA = 0x9e3779b97f4a7c15L;
  private static final double DOUBLE_UNIT = 0x1.0p-53;

  private long state;

  /** Starts the stream at {@code seed}; equal seeds give equal streams. */
  public SeededRandom(long seed) {
    this.state = seed;
  }

  /** Returns the next 64 uniformly distributed bits. */
  public long nextLong() {
    state += GOLDEN_GAMMA;
    return mix(state);
  }

  /** Returns a uniform value in {@code [0, 1)} with 53 bits of precision. */
  public double nextDouble() {
    return (nextLong() >>> 11) * DOUBLE_UNIT;
  }

  /** Returns a uniform value in {@code [0, bound)}; {@code bound} must be positive. */
  public int nextInt(int bound) {
    if (bound <= 0) {
      throw new IllegalArgumentException("bound must be positive: " + bound);
    }
    // Multiply-shift maps 32 random bits onto the range; its bias below 2^-32 per value is far
    // smaller than anything a benchmark dataset could show.
    return (int) (((nextLong() >>> 32) * bound) >>> 32);
  }

  /** Returns true with probability {@code p}. */
  public boolean nextBoolean(double p) {
    return nextDouble() < p;
  }

  /** Returns a standard normal deviate (Box-Muller; one of the pair is discarded for simplicity). */
  public double nextGaussian() {
    double u1 = 1.0 - nextDouble();
    double u2 = nextDouble();
    return Math.sqrt(-2.0 * Math.log(u1)) * Math.cos(2.0 * Math.PI * u2);
  }

  /**
   * Derives an independent-looking value from {@code value} alone: the SplitMix64 finaliser. Used to
   * give entities (users, hosts) stable attributes without storing a table.
   */
  public static long mix(long value) {
    long z = value;
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
