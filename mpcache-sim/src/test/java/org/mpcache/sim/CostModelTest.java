package org.mpcache.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The cost model's estimates, worked by hand from its documented formulas. */
class CostModelTest {
  private static final double MB = 1 << 20;
  private static final long GB = 1L << 30;

  @Test
  void jobSeconds_traceJob() {
    // 2 nodes, HDD 100 MB/s, SSD 400 MB/s, network 50 MB/s, 4 cores, 10 core-s per GiB.
    CostModel m = new CostModel(2, 100, 400, 50, 4, 10);
    SimJob j = new SimJob("j", "trace", "/d", 8, GB, 200 * (long) MB, 100 * (long) MB, null, 0);
    double reduce = 200 / (2 * 50.0) + 100 / (2 * 100.0); // 2 + 0.5
    double cpu = 10 / (2 * 4.0); // 1.25
    assertEquals(1024 / 200.0 + cpu + reduce, m.jobSeconds(j, GB, 0), 1e-9);
    assertEquals(1024 / 800.0 + cpu + reduce, m.jobSeconds(j, 0, GB), 1e-9);
  }

  @Test
  void jobSeconds_paperJobReproducesTable1OnThePaperCluster() {
    // On the paper's 7 nodes, with every byte from HDD, a k = 10 job takes Table 1's time.
    CostModel m = CostModel.defaults(7);
    for (Benchmark b : Benchmark.TABLE_1) {
      long input = (long) (b.inputGbPerK * 10 * GB);
      SimJob j = new SimJob("j", b.name, "d", 1, input, 0, 0, b, 10);
      double table = b.mapSecondsAtK10 + b.reduceSecondsAtK10;
      double io = input / (7 * 30 * MB);
      // Where Table 1's Map time is shorter than reading the input at 30 MB/s, compute is 0.
      assertEquals(Math.max(table, io + b.reduceSecondsAtK10), m.jobSeconds(j, input, 0),
          1e-6 * table, b.name);
      assertTrue(m.jobSeconds(j, 0, input) < m.jobSeconds(j, input, 0), b.name);
    }
  }

  @Test
  void constructor_rejectsNonsense() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new CostModel(0, 1, 1, 1, 1, 0));
    assertTrue(e.getMessage().contains("nodes 0"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new CostModel(1, 1, -1, 1, 1, 0));
  }
}
