package org.mpcache.benchmarks.datagen;

import java.util.Arrays;

/**
 * Draws ranks {@code 0..n-1} with probability proportional to {@code 1 / (rank + 1)^s}, the
 * Zipf law that word frequencies, user activity and node degrees follow in the paper's sources.
 * Sampling inverts a precomputed cumulative table by binary search, so a draw costs
 * {@code O(log n)} and the result depends only on the uniform value consumed.
 *
 * <p>Immutable and thread-safe once built.
 */
public final class ZipfDistribution {
  private final double[] cumulative;

  /**
   * Builds the table for {@code n} ranks and exponent {@code s}.
   *
   * @throws IllegalArgumentException if {@code n} is not positive or {@code s} is negative
   */
  public ZipfDistribution(int n, double s) {
    if (n <= 0) {
      throw new IllegalArgumentException("n must be positive: " + n);
    }
    if (s < 0) {
      throw new IllegalArgumentException("exponent must not be negative: " + s);
    }
    cumulative = new double[n];
    double sum = 0;
    for (int i = 0; i < n; i++) {
      sum += 1.0 / Math.pow(i + 1, s);
      cumulative[i] = sum;
    }
    for (int i = 0; i < n; i++) {
      cumulative[i] /= sum;
    }
  }

  /** Number of ranks. */
  public int size() {
    return cumulative.length;
  }

  /** Draws one rank using one value of {@code random}. */
  public int sample(SeededRandom random) {
    double u = random.nextDouble();
    int index = Arrays.binarySearch(cumulative, u);
    int rank = index >= 0 ? index + 1 : -index - 1;
    return Math.min(rank, cumulative.length - 1);
  }
}
