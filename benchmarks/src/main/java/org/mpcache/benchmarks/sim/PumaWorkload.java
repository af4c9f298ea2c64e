package org.mpcache.benchmarks.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The mpCache paper's job mix (Section 3.2): each job is one of the 13 PUMA benchmarks chosen
 * uniformly, with input size {@code k * base} where k in 1..20 follows the Zipf law of Equation 3.
 * A job reads dataset {@code /puma/<source>/k<k>}: benchmarks over the same source and k share
 * their input. Shuffle and output sizes scale Table 1's k = 10 shuffle size by k/10 (output is
 * taken equal to shuffle, which Table 1 does not give). Jobs are submitted one a minute.
 *
 * <p>Stateless and thread-safe.
 */
public final class PumaWorkload {
  /** The number of input-size classes, k = 1..20. */
  public static final int SIZE_CLASSES = 20;
  private static final double GB = 1L << 30;

  private PumaWorkload() {
  }

  /** {@code jobs} jobs drawn with the given Zipf exponent from a random source seeded by seed. */
  public static List<SimJob> generate(int jobs, double zipfExponent, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    ZipfSampler zipf = new ZipfSampler(SIZE_CLASSES, zipfExponent);
    PumaBenchmark[] all = PumaBenchmark.values();
    List<SimJob> out = new ArrayList<>(jobs);
    for (int j = 0; j < jobs; j++) {
      PumaBenchmark b = all[random.nextInt(all.length)];
      int k = zipf.sample(random);
      long input = (long) (b.gbPerK() * k * GB);
      long shuffle = (long) (b.shuffleGb() * k / PumaBenchmark.TABLE_K * GB);
      out.add(new SimJob(j * 60_000L, String.format("job_%06d", j),
          String.format("/puma/%s/k%02d", b.source(), k), input, shuffle, shuffle, b));
    }
    return out;
  }
}
