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
  void profile_withoutPaths_matchesThePublishedShapes() {
    SyntheticTrace g = new SyntheticTrace(SyntheticTrace.catalogFor(10_000), 1.0, 0.8, 8192,
        250, BLOCK);
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
    assertEquals(0, p.sliceJobs);
  }

  @Test
  void profile_defaults_haveARealTracesShape() {
    SyntheticTrace g = SyntheticTrace.defaults(25_000, BLOCK);
    SyntheticTrace.Profile p = g.profile(g.jobs(25_000, 42));
    // Tens of thousands of paths, most read once; four huge paths, each re-read 25 times in
    // slices; the rest still heavy-tailed.
    assertTrue(p.datasetsRead > 10_000, "paths read " + p.datasetsRead);
    assertTrue(p.pathsReadOnce > 0.5, "paths read once " + p.pathsReadOnce);
    assertEquals(SyntheticTrace.DEFAULT_HUGE_PATH_BLOCKS, p.largestDatasetBlocks);
    assertEquals(SyntheticTrace.DEFAULT_HUGE_PATHS * SyntheticTrace.DEFAULT_HUGE_PATH_READS,
        p.sliceJobs);
    assertEquals(SyntheticTrace.DEFAULT_HUGE_PATH_READS, p.mostSliceReadsOfOnePath);
    assertTrue(p.smallJobs > 0.8, "small jobs " + p.smallJobs);
    assertTrue(p.largestTenthBytes > 0.8, "bytes of the largest tenth " + p.largestTenthBytes);
  }

  @Test
  void jobs_hugePaths_readInFirstBlockSlicesSpreadOverTheTrace() {
    SyntheticTrace g = new SyntheticTrace(50, 1.0, 0.8, 64, 250, BLOCK)
        .withPaths(2, 1000, 5, 3, 0.5);
    List<SimJob> jobs = g.jobs(400, 3);
    Map<String, Integer> reads = new HashMap<>();
    int lastHuge = -1;
    int once = 0;
    for (int j = 0; j < jobs.size(); j++) {
      SimJob job = jobs.get(j);
      if (job.dataset.startsWith("/synthetic/huge")) {
        assertEquals(1000, job.datasetBlocks, job.id);
        assertTrue(job.blocks >= 1 && job.blocks <= 3, job.id + " reads " + job.blocks);
        assertEquals(job.blocks * BLOCK, job.inputBytes, job.id);
        assertTrue(lastHuge < 0 || j - lastHuge == 40, "huge reads " + lastHuge + " and " + j);
        lastHuge = j;
        reads.merge(job.dataset, 1, Integer::sum);
      } else {
        assertEquals(job.blocks, job.datasetBlocks, job.id);
        assertTrue(job.blocks <= 64, job.id + " has " + job.blocks);
        once += job.dataset.startsWith("/synthetic/once") ? 1 : 0;
      }
    }
    assertEquals(Map.of("/synthetic/huge0", 5, "/synthetic/huge1", 5), reads);
    // A share of 0.5 of the 390 other jobs read a path of their own.
    assertTrue(once > 150 && once < 240, "once-read jobs " + once);
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
    e = assertThrows(IllegalArgumentException.class,
        () -> new SyntheticTrace(10, 1.0, 0.8, 8192, 250, BLOCK).withPaths(1, 10, 5, 11, 0.5));
    assertTrue(e.getMessage().contains("1, 10, 5, 11, 0.5"), e.getMessage());
  }
}
