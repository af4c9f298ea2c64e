package org.mpcache.benchmarks.datagen;

import java.util.Arrays;

/**
 * Draws ranks {@code 0..n-1} with probability proportional to {@code 1 / (rank + 1)^s}, the
 * Zipf law that word frequencies, user activity and node degrees follow in the paper's sources.
 * Sampling inverts the cumulative distribution: a guide table (Chen and Asau, 1974) maps the
 * uniform value to the few ranks it can fall on, and a binary search over those finishes the job,
 * so a draw costs about constant time and depends only on the uniform value consumed.
 *
 * <p>Immutable and thread-safe once built.
 */
public final class ZipfDistribution {
  private final double[] cumulative;
  /** {@code guide[i]} is the first rank whose cumulative probability reaches {@code i / n}. */
  private final int[] guide;

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
    guide = new int[n + 1];
    int rank = 0;
    for (int i = 0; i <= n; i++) {
      double threshold = (double) i / n;
      while (rank < n - 1 && cumulative[rank] < threshold) {
        rank++;
      }
      guide[i] = rank;
    }
  }

  /** Number of ranks. */
  public int size() {
    return cumulative.length;
  }

  /** Draws one rank using one value of {@code random}. */
  public int sample(SeededRandom random) {
    double u = random.nextDouble();
    int bucket = (int) (u * cumulative.length);
    // The answer, the first rank whose cumulative probability exceeds u, lies in this range.
    int low = bucket == 0 ? 0 : guide[bucket] - 1;
    int high = guide[bucket + 1];
    int index = Arrays.binarySearch(cumulative, Math.max(0, low), high + 1, u);
    int rank = index >= 0 ? index + 1 : -index - 1;
    return Math.min(rank, cumulative.length - 1);
  }
}
