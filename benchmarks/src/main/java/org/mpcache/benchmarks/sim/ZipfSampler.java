package org.mpcache.benchmarks.sim;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Draws k in 1..n with the Zipf probabilities of the mpCache paper's Equation 3,
 * {@code f(k; s, n) = (1/k^s) / sum_{i=1..n} 1/i^s}, by binary search in the cumulative
 * distribution. Immutable; the random source is passed in.
 */
public final class ZipfSampler {
  private final double[] cumulative;

  public ZipfSampler(int n, double exponent) {
    if (n < 1 || exponent < 0 || !Double.isFinite(exponent)) {
      throw new IllegalArgumentException("need n >= 1 and a finite exponent >= 0: n=" + n
          + ", exponent=" + exponent);
    }
    cumulative = new double[n];
    double sum = 0;
    for (int k = 1; k <= n; k++) {
      sum += 1 / Math.pow(k, exponent);
      cumulative[k - 1] = sum;
    }
    for (int i = 0; i < n; i++) {
      cumulative[i] /= sum;
    }
  }

  /** Equation 3's probability of k. */
  public double probability(int k) {
    return cumulative[k - 1] - (k == 1 ? 0 : cumulative[k - 2]);
  }

  public int sample(SplittableRandom random) {
    int i = Arrays.binarySearch(cumulative, random.nextDouble());
    int k = i >= 0 ? i + 1 : -i;
    return Math.min(k, cumulative.length);
  }
}
