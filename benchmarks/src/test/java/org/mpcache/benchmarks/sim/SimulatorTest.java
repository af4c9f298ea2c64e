package org.mpcache.benchmarks.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.master.arbitrator.CachePolicies;
import org.mpcache.master.arbitrator.PolicyParameters;

class SimulatorTest {
  private static final long GB = 1L << 30;

  @TempDir
  Path dir;

  private static SimResult run(String policy, List<SimJob> jobs, long cacheGb) {
    return new Simulator(7, 3, 128L << 20, cacheGb * GB,
        CachePolicies.create(policy, PolicyParameters.defaults()), CostModel.defaults(7), 1)
        .run(jobs, 0);
  }

  @Test
  void run_sameDatasetTwice_secondJobFullyCached() {
    SimJob a = new SimJob(0, "j1", "/d", 10 * GB, 0, 0, null);
    SimJob b = new SimJob(1, "j2", "/d", 10 * GB, 0, 0, null);
    SimResult r = run("mpcache", List.of(a, b), 10);
    assertEquals(160, r.blockAccesses());
    assertEquals(80, r.blockHits());
    assertEquals(1, r.fullyCachedJobs());
    assertEquals(10 * GB, r.ssdBytes());
    assertTrue(r.speedup() > 1);
  }

  @Test
  void run_nullPolicy_noHitsAndSpeedupOne() {
    SimResult r = run("none", PumaWorkload.generate(50, 1.0, 3), 80);
    assertEquals(0, r.blockHits());
    assertEquals(1.0, r.speedup(), 1e-12);
  }

  @Test
  void run_everyPolicyAndClairvoyant_sameSeedSameResult() {
    List<SimJob> jobs = PumaWorkload.generate(200, 1.0, 5);
    for (String name : CachePolicies.names()) {
      assertEquals(run(name, jobs, 20), run(name, jobs, 20), name);
    }
    SimResult c1 = new Simulator(7, 3, 128L << 20, 20 * GB, new ClairvoyantPolicy(jobs),
        CostModel.defaults(7), 1).run(jobs, 0);
    SimResult c2 = new Simulator(7, 3, 128L << 20, 20 * GB, new ClairvoyantPolicy(jobs),
        CostModel.defaults(7), 1).run(jobs, 0);
    assertEquals(c1, c2);
  }

  @Test
  void zipf_equation3Probabilities() {
    ZipfSampler z = new ZipfSampler(20, 1.0);
    double h = 0;
    for (int i = 1; i <= 20; i++) {
      h += 1.0 / i;
    }
    assertEquals(1 / h, z.probability(1), 1e-12);
    assertEquals(1 / (7 * h), z.probability(7), 1e-12);
  }

  @Test
  void pumaWorkload_sharedSourcesShareDatasets() {
    for (SimJob j : PumaWorkload.generate(300, 1.0, 9)) {
      assertTrue(j.datasetId().startsWith("/puma/" + j.benchmark().source() + "/k"), j.toString());
    }
  }

  @Test
  void costModel_fullyCachedGrepAtK10_mapSpeedupNearPaper() {
    CostModel m = CostModel.defaults(7);
    long input = (long) (4.3 * 10 * GB);
    SimJob grep = new SimJob(0, "g", "/w", input, 0, 0, PumaBenchmark.GREP);
    double uncached = m.jobSeconds(grep, input, 0);
    double cached = m.jobSeconds(grep, 0, input);
    assertEquals(224, uncached, 1.0); // Table 1: 222 s map + 2 s reduce
    assertTrue(uncached / cached > 2.3 && uncached / cached < 3.0, uncached / cached + "");
  }

  @Test
  void traceCsv_readsDocumentedFormat() throws IOException {
    Path f = dir.resolve("t.csv");
    Files.writeString(f, "# comment\n" + TraceCsv.HEADER + "\n0,job_1,/data/a,1000,10,5\n"
        + "60000\tjob_2\t/data/b\t2000\t0\t0\n");
    List<SimJob> jobs = TraceCsv.read(f);
    assertEquals(List.of(new SimJob(0, "job_1", "/data/a", 1000, 10, 5, null),
        new SimJob(60000, "job_2", "/data/b", 2000, 0, 0, null)), jobs);
  }

  @Test
  void traceCsv_badLine_namesFileAndLine() throws IOException {
    Path f = dir.resolve("t.csv");
    Files.writeString(f, TraceCsv.HEADER + "\n0,job_1,/data/a,lots,10,5\n");
    IOException e = assertThrows(IOException.class, () -> TraceCsv.read(f));
    assertTrue(e.getMessage().startsWith(f + ":2: "), e.getMessage());
  }
}
