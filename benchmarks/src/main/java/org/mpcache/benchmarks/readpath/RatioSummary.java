package org.mpcache.benchmarks.readpath;

import java.util.Arrays;
import java.util.Locale;
import java.util.Random;

/**
 * What a benchmark's per-round ratios (one path's MB/s over another's, read in the same round)
 * say about the ratio itself: their median and range, and a 95% percentile-bootstrap interval of
 * the median, so that a target such as "at least 0.9x" can be called met only when the whole
 * interval clears it rather than when one run's median happens to. The resampling is seeded:
 * the same ratios give the same interval.
 */
final class RatioSummary {
  static final int RESAMPLES = 10_000;

  final double median;
  final double min;
  final double max;
  /** The bootstrap interval's ends: the 2.5th and 97.5th percentiles of resampled medians. */
  final double low;
  final double high;
  final int rounds;

  private RatioSummary(double median, double min, double max, double low, double high,
      int rounds) {
    this.median = median;
    this.min = min;
    this.max = max;
    this.low = low;
    this.high = high;
    this.rounds = rounds;
  }

  /** The summary of {@code ratios}, at least one, each positive. */
  static RatioSummary of(double[] ratios) {
    if (ratios.length == 0) {
      throw new IllegalArgumentException("no ratios");
    }
    double[] sorted = ratios.clone();
    Arrays.sort(sorted);
    Random r = new Random(sorted.length);
    double[] medians = new double[RESAMPLES];
    double[] draw = new double[sorted.length];
    for (int i = 0; i < RESAMPLES; i++) {
      for (int j = 0; j < draw.length; j++) {
        draw[j] = sorted[r.nextInt(sorted.length)];
      }
      Arrays.sort(draw);
      medians[i] = median(draw);
    }
    Arrays.sort(medians);
    return new RatioSummary(median(sorted), sorted[0], sorted[sorted.length - 1],
        medians[(int) (0.025 * RESAMPLES)], medians[(int) (0.975 * RESAMPLES) - 1],
        sorted.length);
  }

  /** The median of a sorted, non-empty array. */
  static double median(double[] sorted) {
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%.2fx (range %.2f-%.2f; 95%% interval of the median "
        + "%.2f-%.2f, %d rounds)", median, min, max, low, high, rounds);
  }
}
