package org.mpcache.benchmarks.sim;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.List;
import java.util.Locale;
import org.mpcache.common.BlockKey;
import org.mpcache.master.arbitrator.BlockAccess;
import org.mpcache.master.arbitrator.CachePolicies;
import org.mpcache.master.arbitrator.MpCachePolicy;
import org.mpcache.master.arbitrator.PolicyParameters;

/**
 * Measures the simulator's speed and scale and the master's metadata per cached block, on one
 * thread, and prints the figures docs/simulator.md reports:
 * <ol>
 *   <li>block accesses per second replaying the paper's mix (7 nodes, 80 GB per node) per policy,
 *       after a warm-up run of the same replay;
 *   <li>100,000 jobs on 1,000 nodes through mpCache's policy: time, accesses per second, and the
 *       peak heap of the run;
 *   <li>heap bytes per cached block held by {@link MpCachePolicy}, for blocks spread over 7 and
 *       over 1,000 slaves (live heap after GC, with and without one million cached blocks).
 * </ol>
 * Flags: {@code --jobs [20000] --policies [every name] --scale-jobs [100000] --scale-nodes [1000]
 * --blocks [1000000]}.
 * Run it alone on the machine: the figures are wall-clock and heap measurements.
 */
public final class SimulatorBenchmark {
  private static final long GB = 1L << 30;

  private SimulatorBenchmark() {
  }

  public static void main(String[] args) {
    var flags = SimulatorMain.parse(args);
    int jobs = Integer.parseInt(flags.getOrDefault("jobs", "20000"));
    int scaleJobs = Integer.parseInt(flags.getOrDefault("scale-jobs", "100000"));
    int scaleNodes = Integer.parseInt(flags.getOrDefault("scale-nodes", "1000"));
    int blocks = Integer.parseInt(flags.getOrDefault("blocks", "1000000"));

    List<SimJob> mix = PumaWorkload.generate(jobs, 1.0, 42);
    System.out.printf(Locale.ROOT, "1. throughput, %d PUMA jobs, 7 nodes, 80 GB/node%n", jobs);
    for (String name : flags.getOrDefault("policies", String.join(",", CachePolicies.names()))
        .split(",")) {
      replay(name, mix, 7);
      long t0 = System.nanoTime();
      SimResult r = replay(name, mix, 7);
      double s = (System.nanoTime() - t0) / 1e9;
      System.out.printf(Locale.ROOT, "   %-8s %,12d accesses in %6.2f s = %,12.0f accesses/s%n",
          name, r.blockAccesses(), s, r.blockAccesses() / s);
    }

    System.out.printf(Locale.ROOT, "2. scale, %d PUMA jobs, %d nodes, 80 GB/node, mpcache%n",
        scaleJobs, scaleNodes);
    List<SimJob> big = PumaWorkload.generate(scaleJobs, 1.0, 42);
    resetPeaks();
    long t0 = System.nanoTime();
    SimResult r = replay(MpCachePolicy.NAME, big, scaleNodes);
    double s = (System.nanoTime() - t0) / 1e9;
    System.out.printf(Locale.ROOT, "   %,d accesses in %.2f s = %,.0f accesses/s; effective hit "
        + "ratio %.4f; peak heap %,d MiB%n", r.blockAccesses(), s, r.blockAccesses() / s,
        r.effectiveHitRatio(), peakHeap() >> 20);

    System.out.printf(Locale.ROOT, "3. master metadata per cached block, %,d blocks%n", blocks);
    for (int slaves : new int[] {7, 1000}) {
      long before = liveHeap();
      MpCachePolicy p = MpCachePolicy.mpCache(PolicyParameters.defaults());
      fill(p, blocks, slaves);
      long after = liveHeap();
      System.out.printf(Locale.ROOT, "   %4d slaves: %,d blocks held, %.1f bytes per block%n",
          slaves, p.cachedBlocks(), (after - before) / (double) p.cachedBlocks());
    }
  }

  private static SimResult replay(String policy, List<SimJob> jobs, int nodes) {
    return new Simulator(nodes, 3, 128L << 20, 80 * GB,
        CachePolicies.create(policy, PolicyParameters.defaults()), CostModel.defaults(nodes), 42)
        .run(jobs, 0);
  }

  /** Admits {@code blocks} blocks in datasets of 100 blocks, round-robin over the slaves. */
  private static void fill(MpCachePolicy p, int blocks, int slaves) {
    String[] slaveIds = new String[slaves];
    for (int i = 0; i < slaves; i++) {
      slaveIds[i] = "slave-" + i;
    }
    String dataset = null;
    for (int b = 0; b < blocks; b++) {
      if (b % 100 == 0) {
        dataset = "/data/set-" + b / 100;
      }
      BlockAccess a = new BlockAccess(slaveIds[b % slaves], new BlockKey("BP-1", b, 1001),
          128L << 20, dataset, 100, "job-" + b / 100, b);
      p.onMiss(a, 1L << 40);
    }
  }

  private static long liveHeap() {
    for (int i = 0; i < 4; i++) {
      System.gc();
    }
    Runtime rt = Runtime.getRuntime();
    return rt.totalMemory() - rt.freeMemory();
  }

  private static void resetPeaks() {
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      pool.resetPeakUsage();
    }
  }

  private static long peakHeap() {
    long sum = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        sum += pool.getPeakUsage().getUsed();
      }
    }
    return sum;
  }
}
