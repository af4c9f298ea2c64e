package org.mpcache.benchmarks.eval;

import java.util.ArrayList;
import java.util.List;
import org.mpcache.benchmarks.datagen.SeededRandom;
import org.mpcache.benchmarks.datagen.ZipfDistribution;
import org.mpcache.benchmarks.puma.PumaBenchmark;
import org.mpcache.benchmarks.puma.PumaBenchmarks;

/**
 * The paper's job mix (Section 3.2), scaled to one machine: each job is one of the 13 PUMA
 * benchmarks, drawn uniformly, over input size class {@code k} in {@code 1..classes} drawn by the
 * Zipf law of Equation 3, {@code f(k; s, N) = (1/k^s) / sum_{i=1..N} 1/i^s}; a dataset of class
 * {@code k} holds {@code k * bytesPerClass} bytes (the paper's 3-4.3 GB per unit of k shrunk to
 * what the machine holds). Pure: equal arguments give the same mix.
 */
public final class EvalMix {
  private EvalMix() {
  }

  /**
   * Draws {@code jobs} jobs.
   *
   * @param benchmarks the benchmarks to draw from (all 13 for the paper's mix)
   * @param classes N of Equation 3
   * @param exponent s of Equation 3
   * @param bytesPerClass bytes of a size-class-1 dataset
   */
  public static List<MixJob> draw(List<PumaBenchmark> benchmarks, int jobs, int classes,
      double exponent, long bytesPerClass, long seed) {
    if (jobs < 1 || classes < 1 || bytesPerClass < 1 || benchmarks.isEmpty()) {
      throw new IllegalArgumentException("A mix needs jobs >= 1, size classes >= 1, bytes per "
          + "class >= 1 and at least one benchmark; got " + jobs + ", " + classes + ", "
          + bytesPerClass + ", " + benchmarks.size());
    }
    ZipfDistribution zipf = new ZipfDistribution(classes, exponent);
    SeededRandom random = new SeededRandom(seed);
    List<MixJob> out = new ArrayList<>(jobs);
    for (int i = 0; i < jobs; i++) {
      PumaBenchmark b = benchmarks.get(random.nextInt(benchmarks.size()));
      int k = zipf.sample(random) + 1;
      out.add(new MixJob(i, b, k, k * bytesPerClass));
    }
    return out;
  }

  /** The paper's mix over all 13 benchmarks. */
  public static List<MixJob> paper(int jobs, int classes, double exponent, long bytesPerClass,
      long seed) {
    return draw(PumaBenchmarks.all(), jobs, classes, exponent, bytesPerClass, seed);
  }
}
