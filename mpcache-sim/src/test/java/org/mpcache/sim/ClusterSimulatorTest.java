package org.mpcache.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.mpcache.master.arbitrator.CachePolicies;
import org.mpcache.master.arbitrator.PolicyParameters;

class ClusterSimulatorTest {
  private static final long GB = 1L << 30;

  private static SimResult run(String policy, long capacity, List<SimJob> trace) {
    return new ClusterSimulator(ClusterSimulator.Config.paper(capacity))
        .run(CachePolicies.create(policy, PolicyParameters.defaults()), trace);
  }

  @Test
  void run_unlimitedCacheMissesOnlyFirstReads() {
    List<SimJob> trace = new PaperMix(1.0, 0.1, 128L << 20).jobs(300, 7);
    Map<String, Integer> distinct = new HashMap<>();
    long accesses = 0;
    for (SimJob j : trace) {
      distinct.merge(j.dataset, j.blocks, Math::max);
      accesses += j.blocks;
    }
    long compulsory = distinct.values().stream().mapToLong(Integer::longValue).sum();
    SimResult r = run(CachePolicies.MPCACHE, 10_000 * GB, trace);
    assertEquals(accesses, r.blockAccesses);
    assertEquals(accesses - compulsory, r.blockHits, "only compulsory misses with room for all");
    assertTrue(r.speedup() > 1);
  }

  @Test
  void run_bytesWrittenAreTheBlocksStoredAndABudgetCutsThem() {
    List<SimJob> trace = new PaperMix(1.0, 0.2, 128L << 20).jobs(400, 11);
    long distinctBlocks = trace.stream().collect(java.util.stream.Collectors.toMap(
        j -> j.dataset, j -> j.blocks, Math::max)).values().stream()
        .mapToLong(Integer::longValue).sum();
    SimResult all = run(CachePolicies.LRU, 10_000 * GB, trace);
    assertEquals(distinctBlocks * (128L << 20), all.ssdWrittenBytes,
        "with room for everything, each block is written once");
    assertEquals(0, run(CachePolicies.NONE, 10 * GB, trace).ssdWrittenBytes);
    ClusterSimulator.Config small = ClusterSimulator.Config.paper(10 * GB);
    SimResult lru = new ClusterSimulator(small)
        .run(CachePolicies.create(CachePolicies.LRU, PolicyParameters.defaults()), trace);
    SimResult budgeted = new ClusterSimulator(small.withWriteBudget(GB / 4))
        .run(CachePolicies.create(CachePolicies.LRU, PolicyParameters.defaults()), trace);
    assertEquals("lru/wb0.25", budgeted.policy);
    assertTrue(budgeted.ssdWrittenBytes < lru.ssdWrittenBytes,
        budgeted.ssdWrittenBytes + " against " + lru.ssdWrittenBytes);
  }

  @Test
  void run_nullPolicyAndNoCacheNeverHit() {
    List<SimJob> trace = new PaperMix(1.0, 0.1, 128L << 20).jobs(100, 3);
    SimResult none = run(CachePolicies.NONE, 100 * GB, trace);
    assertEquals(0, none.blockHits);
    assertEquals(1.0, none.speedup(), 1e-9);
    assertEquals(0, run(CachePolicies.MPCACHE, 0, trace).blockHits);
  }

  @Test
  void run_sameSeedSameResultAndMoreCacheNoWorse() {
    List<SimJob> trace = new PaperMix(1.0, 0.2, 128L << 20).jobs(400, 11);
    SimResult a = run(CachePolicies.MPCACHE, 20 * GB, trace);
    SimResult b = run(CachePolicies.MPCACHE, 20 * GB, trace);
    assertEquals(a.csv(), b.csv());
    assertTrue(run(CachePolicies.MPCACHE, 200 * GB, trace).blockHits >= a.blockHits);
  }

  @Test
  void belady_unlimitedCacheMissesOnlyFirstReadsAndHitsAtSmallSizes() {
    List<SimJob> trace = new PaperMix(1.0, 0.1, 128L << 20).jobs(300, 5);
    SimResult big = new ClusterSimulator(ClusterSimulator.Config.paper(10_000 * GB))
        .run(new BeladyDatasetPolicy(trace), trace);
    assertEquals(run(CachePolicies.MPCACHE, 10_000 * GB, trace).blockHits, big.blockHits);
    SimResult small = new ClusterSimulator(ClusterSimulator.Config.paper(2 * GB))
        .run(new BeladyDatasetPolicy(trace), trace);
    assertTrue(small.blockHits > 0);
    assertTrue(small.blockHits <= big.blockHits);
  }

  @Test
  void main_writesCsvAndPlots(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws Exception {
    System.setProperty("java.awt.headless", "true");
    SimulatorMain m = new SimulatorMain();
    m.parse(new String[] {"--jobs", "120", "--scale", "0.1", "--sizes-gb", "1,4",
        "--out", dir.toString()});
    List<SimResult> results = m.run(new java.io.PrintStream(
        java.io.OutputStream.nullOutputStream()));
    assertEquals(2 * SimulatorMain.names().size(), results.size());
    List<String> csv = java.nio.file.Files.readAllLines(dir.resolve("simulation.csv"));
    assertEquals(results.size() + 1, csv.size());
    assertUnderBound(dir, results);
    for (String png : new String[] {"hit-ratio.png", "effective-hit-ratio.png", "speedup.png"}) {
      byte[] b = java.nio.file.Files.readAllBytes(dir.resolve(png));
      assertTrue(b.length > 1000 && b[1] == 'P' && b[2] == 'N' && b[3] == 'G', png);
    }
  }

  @Test
  void main_syntheticTrace_everyPolicyUnderTheBound(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    System.setProperty("java.awt.headless", "true");
    SimulatorMain m = new SimulatorMain();
    m.parse(new String[] {"--trace", "synthetic", "--jobs", "400", "--nodes", "20",
        "--sizes-gb", "2,16", "--max-dataset-blocks", "2000", "--out", dir.toString()});
    List<SimResult> results = m.run(new java.io.PrintStream(
        java.io.OutputStream.nullOutputStream()));
    assertEquals(2 * SimulatorMain.names().size(), results.size());
    assertTrue(results.stream().anyMatch(r -> r.wholeInputCachedJobs > 0), "no hits at all");
    assertUnderBound(dir, results);
  }

  /** Every result's effective hit ratio is at most the bound at its size in bound.csv. */
  private static void assertUnderBound(java.nio.file.Path dir, List<SimResult> results)
      throws java.io.IOException {
    List<String> bound = java.nio.file.Files.readAllLines(dir.resolve("bound.csv"));
    assertEquals(3, bound.size());
    for (String row : bound.subList(1, 3)) {
      String[] f = row.split(",");
      double ratio = Double.parseDouble(f[3]);
      for (SimResult r : results) {
        if (r.capacityBytesPerNode == Long.parseLong(f[0]) * GB) {
          assertTrue(r.effectiveHitRatio() <= ratio + 1e-4, r.policy + " above the bound " + row);
        }
      }
    }
  }

  @Test
  void paperMix_followsEquation3() {
    PaperMix m = new PaperMix(1.0, 1, 128L << 20);
    double h20 = 0;
    for (int i = 1; i <= 20; i++) {
      h20 += 1.0 / i;
    }
    assertEquals(1 / h20, m.probability(1), 1e-12);
    assertEquals(0.5 / h20, m.probability(2), 1e-12);
    assertThrows(IllegalArgumentException.class, () -> new PaperMix(-1, 1, 1));
  }

  @Test
  void parse_rejectsUnknownPolicyNamingTheKnownOnes() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new SimulatorMain().parse(new String[] {"--policies", "fifo"}));
    assertTrue(e.getMessage().contains("mpcache"), e.getMessage());
  }
}
