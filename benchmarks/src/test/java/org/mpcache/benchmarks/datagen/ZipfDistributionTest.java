package org.mpcache.benchmarks.datagen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Sampled frequencies follow the Zipf law. */
class ZipfDistributionTest {

  @Test
  void sample_exponentOne_rankFrequenciesFallAsOneOverRank() {
    ZipfDistribution zipf = new ZipfDistribution(1_000, 1.0);
    SeededRandom random = new SeededRandom(17);
    int draws = 1_000_000;
    int[] counts = new int[zipf.size()];
    for (int i = 0; i < draws; i++) {
      counts[zipf.sample(random)]++;
    }
    double harmonic = 0;
    for (int k = 1; k <= 1_000; k++) {
      harmonic += 1.0 / k;
    }
    for (int rank : new int[] {0, 1, 9}) {
      double expected = draws / ((rank + 1) * harmonic);
      assertEquals(expected, counts[rank], expected * 0.03, "rank " + rank);
    }
  }

  @Test
  void sample_exponentZero_isUniform() {
    ZipfDistribution uniform = new ZipfDistribution(4, 0.0);
    SeededRandom random = new SeededRandom(3);
    int[] counts = new int[4];
    for (int i = 0; i < 400_000; i++) {
      counts[uniform.sample(random)]++;
    }
    for (int count : counts) {
      assertEquals(100_000, count, 2_000);
    }
  }

  @Test
  void constructor_noRanks_throws() {
    assertThrows(IllegalArgumentException.class, () -> new ZipfDistribution(0, 1.0));
  }
}
