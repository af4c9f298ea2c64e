package org.mpcache.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The synthetic trace generator: deterministic, within its bounds, and calibrated. */
class SyntheticTraceTest {
  private static final long BLOCK = 128L << 20;


  private static String signature(List<SimJob> jobs) {
    StringBuilder b = new StringBuilder();
    for (SimJob j : jobs) {
      b.append(j.dataset).append('/').append(j.blocks).append(';');
    }
    return b.toString();
  }

  @Test
  void jobs_sameSeed_sameTraceAndOtherSeed_otherTrace() {
    SyntheticTrace g = SyntheticTrace.defaults(2000, BLOCK);
    assertEquals(signature(g.jobs(2000, 7)), signature(g.jobs(2000, 7)));
    assertNotEquals(signature(g.jobs(2000, 7)), signature(g.jobs(2000, 8)));
  }

  @Test
  void jobs_everyJobReadsItsWholeDatasetOfOneSize() {
    Map<String, Integer> sizes = new HashMap<>();
    for (SimJob j : new SyntheticTrace(300, 1.0, 0.5, 50, 250, BLOCK).jobs(3000, 1)) {
      assertEquals(j.blocks, j.datasetBlocks, j.id);
      assertEquals(j.blocks * BLOCK, j.inputBytes, j.id);
      assertTrue(j.blocks >= 1 && j.blocks <= 50, j.id + " has " + j.blocks + " blocks");
      assertEquals(j.blocks, (int) sizes.computeIfAbsent(j.dataset, d -> j.blocks), j.dataset);
    }
  }

  @Test
  void profile_defaults_matchThePublishedShapes() {
    SyntheticTrace g = SyntheticTrace.defaults(10_000, BLOCK);
    SyntheticTrace.Profile p = g.profile(g.jobs(10_000, 1));
    // Most jobs small, most bytes in few large jobs, datasets of thousands of blocks, most jobs
    // re-reading recent data and few reading data no other job reads.
    assertTrue(p.smallJobs > 0.8, "small jobs " + p.smallJobs);
    assertTrue(p.smallDatasetBytes < 0.25, "bytes of small datasets " + p.smallDatasetBytes);
    assertTrue(p.largestTenthBytes > 0.8, "bytes of the largest tenth " + p.largestTenthBytes);
    assertTrue(p.largestDatasetBlocks >= 1000, "largest " + p.largestDatasetBlocks);
    assertTrue(p.reReadWithinSixHours > 0.5 && p.reReadWithinSixHours < 0.8,
        "re-read within 6 hours " + p.reReadWithinSixHours);
    assertTrue(p.singlyRead > 0.02 && p.singlyRead < 0.12, "singly read " + p.singlyRead);
  }

  @Test
  void profile_uniformPopularity_spreadsReadsOverTheCatalog() {
    SyntheticTrace g = new SyntheticTrace(1000, 0.0, 0.8, 8192, 250, BLOCK);
    SyntheticTrace.Profile p = g.profile(g.jobs(2000, 1));
    assertTrue(p.datasetsRead > 800, "datasets read " + p.datasetsRead);
  }

  @Test
  void constructor_badParameter_throwsNamingTheValues() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new SyntheticTrace(10, 1.0, 0, 8192, 250, BLOCK));
    assertTrue(e.getMessage().contains("size tail index > 0"), e.getMessage());
  }
}
