package org.mpcache.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The paper's job mix (Section 3.2): each job is one of the 13 Table 1 benchmarks chosen
 * uniformly, with input size class {@code k} in 1..20 drawn by the Zipf law of Equation 3,
 * {@code f(k; s, N) = (1/k^s) / sum_{i=1..N} 1/i^s}. Benchmarks on the same data source and size
 * class read the same dataset (grep and word-count over the same Wikipedia dump, say); shuffle
 * bytes scale linearly with {@code k} from Table 1's {@code k = 10} figures, and so do the times
 * {@link CostModel} derives. Pure: the same seed gives the same trace.
 */
public final class PaperMix {
  static final int SIZE_CLASSES = 20;

  private final double exponent;
  private final double scale;
  private final long blockBytes;

  /**
   * @param exponent Zipf exponent s of Equation 3
   * @param scale multiplies every input size (1 = the paper's sizes)
   * @param blockBytes HDFS block size
   */
  public PaperMix(double exponent, double scale, long blockBytes) {
    if (!(exponent >= 0) || !(scale > 0) || blockBytes <= 0) {
      throw new IllegalArgumentException("Zipf exponent must be >= 0, scale > 0 and block size "
          + "> 0; got " + exponent + ", " + scale + ", " + blockBytes);
    }
    this.exponent = exponent;
    this.scale = scale;
    this.blockBytes = blockBytes;
  }

  /** The probability of size class k (Equation 3). */
  double probability(int k) {
    double norm = 0;
    for (int i = 1; i <= SIZE_CLASSES; i++) {
      norm += 1 / Math.pow(i, exponent);
    }
    return (1 / Math.pow(k, exponent)) / norm;
  }

  /** A trace of {@code jobs} jobs. */
  public List<SimJob> jobs(int jobs, long seed) {
    Random r = new Random(seed);
    double[] cdf = new double[SIZE_CLASSES];
    double acc = 0;
    for (int k = 1; k <= SIZE_CLASSES; k++) {
      acc += probability(k);
      cdf[k - 1] = acc;
    }
    List<SimJob> out = new ArrayList<>(jobs);
    for (int j = 0; j < jobs; j++) {
      Benchmark b = Benchmark.TABLE_1.get(r.nextInt(Benchmark.TABLE_1.size()));
      double u = r.nextDouble() * acc;
      int k = 1;
      while (k < SIZE_CLASSES && cdf[k - 1] < u) {
        k++;
      }
      long bytes = (long) (b.inputGbPerK * k * scale * (1L << 30));
      long shuffle = (long) (b.shuffleGbAtK10 * k / 10 * scale * (1L << 30));
      out.add(new SimJob("job" + j, b.name, b.source + "/k" + k,
          SimJob.blocksOf(bytes, blockBytes), bytes, shuffle, 0, b, k));
    }
    return out;
  }
}
