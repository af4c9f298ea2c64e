package org.mpcache.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.mpcache.master.arbitrator.CachePolicies;
import org.mpcache.master.arbitrator.PolicyParameters;

/**
 * The offline bound on effective hits against every policy the simulator runs and against the
 * exact optimum, found by trying every set of hits on small random traces.
 */
class HitBoundTest {
  private static final long BLOCK = 128L << 20;

  private static SimJob job(int i, String dataset, int blocks) {
    return new SimJob("j" + i, "test", dataset, blocks, blocks * BLOCK, 0, 0, null, 0);
  }

  private static SimJob prefix(int i, String dataset, int blocks, int datasetBlocks) {
    return new SimJob("j" + i, "test", dataset, blocks, datasetBlocks, blocks * BLOCK, 0, 0,
        null, 0);
  }

  @Test
  void wholeInputJobs_workedByHand() {
    // Capacity 2 blocks; A has 2 blocks, B 1. Jobs: A B A B A. Candidate hits: job 2 (A, needs
    // 2 blocks at boundaries 0-1), job 3 (B, 1 block at 1-2), job 4 (A, 2 blocks at 2-3).
    // Highest value per block first: job 3 (1/(2*1)) fills 1 of 2 at boundaries 1 and 2: 1.
    // Job 2 (1/(2*2) per block) gets 2 blocks at 0 and 1 at 1: 3/4. Job 4: 1 at 2, 2 at 3: 3/4.
    // The true optimum is 2 (A's blocks and B's cannot all be held at boundaries 1-2).
    List<SimJob> jobs = List.of(job(0, "A", 2), job(1, "B", 1), job(2, "A", 2), job(3, "B", 1),
        job(4, "A", 2));
    assertEquals(2.5, HitBound.wholeInputJobs(jobs, 2), 1e-12);
    assertEquals(3.0, HitBound.wholeInputJobs(jobs, 3), 1e-12, "room for all: every re-read");
    assertEquals(0.0, HitBound.wholeInputJobs(jobs, 0), 1e-12);
  }

  @Test
  void wholeInputJobs_chargesEachBlockFromItsOwnLastRead() {
    // Capacity 2. A's second block is last read by job 0 and read again by job 4, so it must be
    // held at boundaries 0-3, while B's block (boundary 1) and A's first block (boundaries 0-2
    // for job 3) are held too: 3 blocks at boundary 1, so not all three re-reads can hit (the
    // optimum is 2). Greedy by 1/W (W: block-boundaries): job 2 (W 1) takes 1 at 1; job 3
    // (W 3) 1 at 0, 1 and 2; job 4 (W 1 + 4) gets 1 at 0, 0 at 1, 1 at 2 and 2 at 3: 4/5.
    List<SimJob> jobs = List.of(prefix(0, "A", 2, 2), job(1, "B", 1), job(2, "B", 1),
        prefix(3, "A", 1, 2), prefix(4, "A", 2, 2));
    assertEquals(3, HitBound.ceiling(jobs));
    assertEquals(2.8, HitBound.wholeInputJobs(jobs, 2), 1e-12);
    assertEquals(3.0, HitBound.wholeInputJobs(jobs, 3), 1e-12);
  }

  @Test
  void wholeInputJobs_belowTheCeilingWhereTheCacheIsSmallerThanTheWorkingSet() {
    Random r = new Random(20261126);
    int smaller = 0;
    for (int c = 0; c < 500; c++) {
      int datasets = 2 + r.nextInt(4);
      int[] sizes = new int[datasets];
      for (int d = 0; d < datasets; d++) {
        sizes[d] = 1 + r.nextInt(5);
      }
      List<SimJob> jobs = new ArrayList<>();
      int n = 6 + r.nextInt(20);
      for (int i = 0; i < n; i++) {
        int d = (int) (datasets * Math.pow(r.nextDouble(), 2));
        int read = r.nextInt(3) == 0 ? 1 + r.nextInt(sizes[d]) : sizes[d];
        jobs.add(prefix(i, "d" + d, read, sizes[d]));
      }
      long workingSet = HitBound.workingSet(jobs);
      for (long capacity = 0; capacity <= workingSet + 1; capacity++) {
        double bound = HitBound.wholeInputJobs(jobs, capacity);
        int ceiling = HitBound.ceiling(jobs);
        String where = "case " + c + ", capacity " + capacity + ", working set " + workingSet
            + ", jobs " + datasetsOf(jobs);
        assertTrue(bound <= ceiling + 1e-9, where + ": bound " + bound + " > " + ceiling);
        if (capacity < workingSet) {
          smaller++;
          assertTrue(bound < ceiling - 1e-9, where + ": bound " + bound + " = ceiling");
        } else {
          assertEquals(ceiling, bound, 1e-9, where);
        }
      }
    }
    assertTrue(smaller > 500, "only " + smaller + " cases with a cache below the working set");
  }

  @Test
  void wholeInputJobs_aJobReadingBlocksNoEarlierJobReadCannotHit() {
    List<SimJob> jobs = List.of(job(0, "A", 1), job(1, "A", 3), job(2, "A", 3));
    assertEquals(1.0, HitBound.wholeInputJobs(jobs, 100), 1e-12);
  }

  @Test
  void wholeInputJobs_boundsEveryPolicyAndTheExactOptimum() {
    Random r = new Random(20261124);
    int withHits = 0;
    for (int c = 0; c < 300; c++) {
      int nodes = 1 + r.nextInt(3);
      int perNode = r.nextInt(5);
      int datasets = 2 + r.nextInt(4);
      int[] sizes = new int[datasets];
      for (int d = 0; d < datasets; d++) {
        sizes[d] = 1 + r.nextInt(4);
      }
      List<SimJob> jobs = new ArrayList<>();
      int n = 6 + r.nextInt(9);
      for (int i = 0; i < n; i++) {
        int d = (int) (datasets * Math.pow(r.nextDouble(), 2));
        // A third of the jobs read only part of their dataset, as trace jobs may.
        int read = r.nextInt(3) == 0 ? 1 + r.nextInt(sizes[d]) : sizes[d];
        jobs.add(prefix(i, "d" + d, read, sizes[d]));
      }
      if (boundsEveryPolicyAndTheOptimum("case " + c, jobs, nodes, perNode)) {
        withHits++;
      }
    }
    assertTrue(withHits > 150, "only " + withHits + " of 300 cases could have any hit");
  }

  @Test
  void wholeInputJobs_syntheticTraces_boundsEveryPolicyAndTheExactOptimum() {
    Random r = new Random(20261125);
    int withHits = 0;
    for (int c = 0; c < 200; c++) {
      // The synthetic generator shrunk: a heavy-tailed catalog of 2-7 datasets of up to 5
      // blocks, Zipf popularity, 6-14 jobs.
      SyntheticTrace g = new SyntheticTrace(2 + r.nextInt(6), 1.0, 0.8, 5, 250, BLOCK);
      List<SimJob> jobs = g.jobs(6 + r.nextInt(9), c);
      if (boundsEveryPolicyAndTheOptimum("synthetic case " + c, jobs, 1 + r.nextInt(3),
          r.nextInt(6))) {
        withHits++;
      }
    }
    assertTrue(withHits > 100, "only " + withHits + " of 200 cases could have any hit");
  }

  /**
   * Checks that the bound is at least the exact optimum and the optimum at least every policy's
   * whole-input hits on {@code jobs} and the cluster; returns whether the optimum is positive.
   */
  private static boolean boundsEveryPolicyAndTheOptimum(String name, List<SimJob> jobs,
      int nodes, int perNode) {
    ClusterSimulator sim = new ClusterSimulator(new ClusterSimulator.Config(nodes,
        perNode * BLOCK, BLOCK, 2, CostModel.defaults(nodes)));
    double bound = HitBound.wholeInputJobs(jobs, sim.capacityBlocks());
    int optimum = exactOptimum(sim, jobs, nodes, perNode);
    String where = name + ": " + nodes + " nodes of " + perNode + " blocks, jobs "
        + datasetsOf(jobs);
    assertTrue(optimum <= bound + 1e-9, where + ": optimum " + optimum + " > bound " + bound);
    for (String p : SimulatorMain.names()) {
      SimResult res = sim.run(p.equals(BeladyDatasetPolicy.NAME) ? new BeladyDatasetPolicy(jobs)
          : CachePolicies.create(p, PolicyParameters.defaults()), jobs);
      assertTrue(res.wholeInputCachedJobs <= optimum, where + ": " + p + " had "
          + res.wholeInputCachedJobs + " whole-input hits, more than the optimum " + optimum);
    }
    return optimum > 0;
  }

  private static String datasetsOf(List<SimJob> jobs) {
    StringBuilder b = new StringBuilder();
    for (SimJob j : jobs) {
      b.append(j.dataset).append('/').append(j.blocks).append(' ');
    }
    return b.toString().trim();
  }

  /**
   * The most whole-input hits any run can have: the largest set of jobs each of whose blocks, held
   * on its home node at every job boundary since the block was last read, fit each node's
   * capacity, found by trying every set.
   */
  private static int exactOptimum(ClusterSimulator sim, List<SimJob> jobs, int nodes,
      int perNode) {
    Map<String, Long> first = ClusterSimulator.firstBlockIds(jobs);
    Map<Long, Integer> lastRead = new HashMap<>();
    List<int[][]> items = new ArrayList<>();
    for (int j = 0; j < jobs.size(); j++) {
      SimJob job = jobs.get(j);
      // Each block: {node, first boundary it must be held at, the job}; none if never read.
      int[][] blocks = new int[job.blocks][];
      boolean possible = true;
      for (int b = 0; b < job.blocks; b++) {
        long id = first.get(job.dataset) + b;
        Integer prev = lastRead.put(id, j);
        possible &= prev != null;
        blocks[b] = new int[] {sim.home(id), prev == null ? j : prev, j};
      }
      if (possible) {
        items.add(blocks);
      }
    }
    int[][] used = new int[jobs.size()][nodes];
    return best(items, 0, used, perNode);
  }

  private static int best(List<int[][]> items, int k, int[][] used, int perNode) {
    if (k == items.size()) {
      return 0;
    }
    int without = best(items, k + 1, used, perNode);
    int[][] blocks = items.get(k);
    boolean fits = true;
    for (int[] b : blocks) {
      for (int m = b[1]; m < b[2]; m++) {
        fits &= ++used[m][b[0]] <= perNode;
      }
    }
    int with = fits ? 1 + best(items, k + 1, used, perNode) : 0;
    for (int[] b : blocks) {
      for (int m = b[1]; m < b[2]; m++) {
        used[m][b[0]]--;
      }
    }
    return Math.max(with, without);
  }
}
