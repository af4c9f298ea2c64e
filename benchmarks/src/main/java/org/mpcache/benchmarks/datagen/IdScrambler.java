package org.mpcache.benchmarks.datagen;

/**
 * A bijection on {@code [0, n)} that spreads popularity ranks over identifiers, so that the most
 * active user or the best-connected node is not simply id 0. It is {@code (rank * a + b) mod n} with
 * {@code a} coprime to {@code n} and near {@code 0.618 n}, so that consecutive ranks land far
 * apart (Fibonacci hashing).
 *
 * <p>Immutable and thread-safe.
 */
public final class IdScrambler {
  private final long n;
  private final long multiplier;
  private final long offset;

  /** Builds the bijection for {@code n} identifiers, varying with {@code salt}. */
  public IdScrambler(int n, long salt) {
    if (n <= 0) {
      throw new IllegalArgumentException("n must be positive: " + n);
    }
    this.n = n;
    long a = Math.max(1, (long) (n * 0.6180339887498949));
    while (gcd(a, n) != 1) {
      a++;
    }
    this.multiplier = a;
    this.offset = Math.floorMod(SeededRandom.mix(salt), (long) n);
  }

  /** Maps {@code rank} in {@code [0, n)} to its identifier in {@code [0, n)}. */
  public int id(int rank) {
    // Both factors are below 2^31, so the product cannot overflow a long.
    return (int) ((rank * multiplier + offset) % n);
  }

  private static long gcd(long a, long b) {
    return b == 0 ? a : gcd(b, a % b);
  }
}
