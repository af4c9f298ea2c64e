package org.mpcache.benchmarks.eval;

import java.util.Collection;
import java.util.Locale;

/**
 * The mean and spread of one figure over the repetitions of a run: the mean, the smallest and
 * largest value, and, from three values on, the half-width of the 95% confidence interval of the
 * mean (Student's t with {@code n - 1} degrees of freedom, which assumes roughly normal
 * repetitions; with two values an interval would be too wide to say anything, so none is given).
 *
 * @param n the values it summarizes
 * @param mean their mean (NaN without values)
 * @param min the smallest (NaN without values)
 * @param max the largest (NaN without values)
 * @param ci95 half-width of the 95% interval of the mean; NaN below three values
 */
public record Spread(int n, double mean, double min, double max, double ci95) {
  /** Two-sided 97.5% quantiles of Student's t for 1 to 30 degrees of freedom. */
  private static final double[] T975 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
      2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080,
      2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};

  /** The spread of {@code values}. */
  public static Spread of(Collection<Double> values) {
    int n = values.size();
    if (n == 0) {
      return new Spread(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    }
    double sum = 0;
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    for (double v : values) {
      sum += v;
      min = Math.min(min, v);
      max = Math.max(max, v);
    }
    double mean = sum / n;
    double ci = Double.NaN;
    if (n >= 3) {
      double squares = 0;
      for (double v : values) {
        squares += (v - mean) * (v - mean);
      }
      double sd = Math.sqrt(squares / (n - 1));
      double t = n - 1 <= T975.length ? T975[n - 2] : 1.960;
      ci = t * sd / Math.sqrt(n);
    }
    return new Spread(n, mean, min, max, ci);
  }

  /** True if there is at least one value. */
  public boolean present() {
    return n > 0;
  }

  /**
   * The half-length of a symmetric error bar from the mean that reaches both the smallest and
   * the largest value (plots draw symmetric bars; this one covers the whole range).
   */
  public double coveringBar() {
    return present() ? Math.max(mean - min, max - mean) : 0;
  }

  /** {@code mean [min-max]}, or just the mean for one value, with {@code format} for each. */
  public String describe(String format) {
    if (!present()) {
      return "-";
    }
    String m = String.format(Locale.ROOT, format, mean);
    if (n == 1) {
      return m;
    }
    return m + " [" + String.format(Locale.ROOT, format, min) + "-"
        + String.format(Locale.ROOT, format, max) + "]";
  }

  /** A CSV cell: the value with four decimals, empty for NaN. */
  static String cell(double v) {
    return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.4f", v);
  }
}
