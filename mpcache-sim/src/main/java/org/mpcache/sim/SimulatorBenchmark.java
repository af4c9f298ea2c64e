package org.mpcache.sim;

import com.sun.management.OperatingSystemMXBean;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.ThreadMXBean;
import java.lang.ref.Reference;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ToolRunner;
import org.mpcache.common.BlockKey;
import org.mpcache.common.tools.CommandLineTool;
import org.mpcache.common.tools.ToolOptions;
import org.mpcache.master.arbitrator.BlockAccess;
import org.mpcache.master.arbitrator.CacheDecision;
import org.mpcache.master.arbitrator.CachePolicies;
import org.mpcache.master.arbitrator.CachePolicy;
import org.mpcache.master.arbitrator.PolicyParameters;

/**
 * Measures the simulator's speed and scale and the master's metadata per cached block, on one
 * thread, and prints the figures docs/simulator.md reports:
 * <ol>
 *   <li>block accesses per second of the replaying thread's CPU time, of the process's CPU time
 *       (which adds garbage collection and compilation) and of wall time, replaying
 *       the paper's mix on 7 nodes with 80 GB per node, for each policy, after two warm-up
 *       replays of the same trace; CPU time keeps the figure honest on a shared, loaded machine;</li>
 *   <li>100,000 jobs on 1,000 nodes through mpCache's policy: wall time, accesses per second and
 *       the peak heap of the run;</li>
 *   <li>heap bytes per cached block held by mpCache's policy: live heap after GC with one million
 *       blocks admitted and stored (datasets of 100 blocks, round-robin over 7 and over 1,000
 *       slaves), minus the live heap before;</li>
 *   <li>the same per-policy throughput on a {@link SyntheticTrace} with its defaults (heavy-tailed
 *       dataset sizes, datasets of thousands of blocks), 25,000 jobs on 600 nodes, over ten
 *       measured replays (one takes a fifth of a second, too short for a steady figure on a shared
 *       machine), with the peak heap of each policy's runs (run it with {@code -Xmx2g} to show the
 *       runs fit in 2 GiB), the offline {@code belady} heuristic included, and the time the
 *       offline bound ({@link HitBound}) takes over the same trace.</li>
 * </ol>
 * {@link #options()} declares the options with their defaults ({@code --help} prints them). Run
 * it alone on the machine: the figures are wall-clock and heap measurements. Not thread-safe.
 */
public final class SimulatorBenchmark extends CommandLineTool {
  private static final long GB = 1L << 30;
  private static final long BLOCK_BYTES = 128L << 20;

  /** A benchmark printing to the standard streams. */
  public SimulatorBenchmark() {
  }

  /** A benchmark printing its figures and help to {@code out}, errors to {@code err}. */
  SimulatorBenchmark(PrintStream out, PrintStream err) {
    super(out, err);
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Configuration(), new SimulatorBenchmark(), args));
  }

  @Override
  public ToolOptions options() {
    return new ToolOptions("SimulatorBenchmark", "Measures the simulator's speed and scale and "
        + "the master's metadata per cached block, on one thread.")
        .option("jobs", "N", "paper-mix jobs of the throughput trace", 20_000)
        .option("policies", "a,b,...", "policies whose throughput to measure",
            String.join(",", SimulatorMain.names()))
        .option("scale-jobs", "N", "paper-mix jobs of the scale run", 100_000)
        .option("scale-nodes", "N", "nodes of the scale run", 1_000)
        .option("scale-gb", "N", "cache per node of the scale run, GB", 1)
        .option("blocks", "N", "blocks admitted for the metadata measurement", 1_000_000)
        .option("synthetic-jobs", "N", "jobs of the synthetic-trace throughput run", 25_000)
        .option("synthetic-nodes", "N", "nodes of the synthetic-trace throughput run", 600)
        .option("synthetic-gb", "N", "cache per node of the synthetic-trace run, GB", 5)
        .option("synthetic-repeats", "N", "measured replays of the synthetic trace per policy, "
            + "their accesses and times summed", 10);
  }

  @Override
  protected int execute(ToolOptions.Values o) {
    List<String> policies = o.allOf("policies", SimulatorMain.names());
    measure(o.positiveInt("jobs"), policies,
        o.positiveInt("scale-jobs"), o.positiveInt("scale-nodes"), o.positiveLong("scale-gb"),
        o.positiveInt("blocks"));
    int synthJobs = o.positiveInt("synthetic-jobs");
    int synthNodes = o.positiveInt("synthetic-nodes");
    long synthGb = o.positiveLong("synthetic-gb");
    int synthRepeats = o.positiveInt("synthetic-repeats");
    List<SimJob> synth = SyntheticTrace.defaults(synthJobs, BLOCK_BYTES).jobs(synthJobs, 42);
    console.printf(Locale.ROOT, "4. throughput: %,d synthetic-trace jobs, %,d nodes, %d GB/node "
        + "(%d measured replays each, summed; peak heap of the measured runs; max heap %,d MiB)%n",
        synthJobs, synthNodes, synthGb, synthRepeats, Runtime.getRuntime().maxMemory() >> 20);
    throughput(policies, synth, synthNodes, synthGb, synthRepeats);
    bound(synth, synthNodes, synthGb, synthRepeats);
    return 0;
  }

  private void measure(int jobs, List<String> policies, int scaleJobs, int scaleNodes,
      long scaleGb, int blocks) {
    List<SimJob> mix = new PaperMix(1.0, 1.0, BLOCK_BYTES).jobs(jobs, 42);
    console.printf(Locale.ROOT, "1. throughput: %,d paper-mix jobs, 7 nodes, 80 GB/node%n",
        jobs);
    throughput(policies, mix, 7, 80, 1);
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    OperatingSystemMXBean process =
        (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    console.printf(Locale.ROOT, "2. scale: %,d paper-mix jobs, %,d nodes, %d GB/node, "
        + "mpcache%n", scaleJobs, scaleNodes, scaleGb);
    List<SimJob> big = new PaperMix(1.0, 1.0, BLOCK_BYTES).jobs(scaleJobs, 42);
    resetPeaks();
    long t0 = System.nanoTime();
    long c0 = threads.getCurrentThreadCpuTime();
    long p0 = process.getProcessCpuTime();
    SimResult r = replay(CachePolicies.MPCACHE, big, scaleNodes, scaleGb);
    double cpu = (threads.getCurrentThreadCpuTime() - c0) / 1e9;
    double all = (process.getProcessCpuTime() - p0) / 1e9;
    double s = (System.nanoTime() - t0) / 1e9;
    console.printf(Locale.ROOT, "   %,d accesses: %.2f s wall, %.2f s thread CPU, %.2f s "
        + "process CPU = %,.0f accesses per thread CPU second; effective hit ratio %.4f; peak "
        + "heap %,d MiB (max heap %,d MiB)%n", r.blockAccesses, s, cpu, all,
        r.blockAccesses / cpu, r.effectiveHitRatio(), peakHeap() >> 20,
        Runtime.getRuntime().maxMemory() >> 20);
    big = null;

    console.printf(Locale.ROOT, "3. master metadata per cached block: %,d blocks%n", blocks);
    for (int slaves : new int[] {7, 1000}) {
      long before = liveHeap();
      CachePolicy p = CachePolicies.create(CachePolicies.MPCACHE, PolicyParameters.defaults());
      int held = fill(p, blocks, slaves);
      long after = liveHeap();
      console.printf(Locale.ROOT, "   %4d slaves: %,d blocks held, %.1f bytes per block%n",
          slaves, held, (after - before) / (double) held);
      Reference.reachabilityFence(p);
    }
  }

  /**
   * Prints each policy's block accesses per second of thread CPU, process CPU and wall time
   * replaying {@code trace} {@code repeats} times (accesses and times summed), after two warm-up
   * replays, and the peak heap of the measured runs.
   */
  private void throughput(List<String> policies, List<SimJob> trace, int nodes, long gbPerNode,
      int repeats) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    OperatingSystemMXBean process =
        (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    for (String name : policies) {
      // Two warm-up replays: with one, the first policy measured still paid for JIT compilation
      // in the process's CPU time.
      replay(name, trace, nodes, gbPerNode);
      replay(name, trace, nodes, gbPerNode);
      resetPeaks();
      long t0 = System.nanoTime();
      long c0 = threads.getCurrentThreadCpuTime();
      long p0 = process.getProcessCpuTime();
      long accesses = 0;
      for (int i = 0; i < repeats; i++) {
        accesses += replay(name, trace, nodes, gbPerNode).blockAccesses;
      }
      double cpu = (threads.getCurrentThreadCpuTime() - c0) / 1e9;
      double all = (process.getProcessCpuTime() - p0) / 1e9;
      double s = (System.nanoTime() - t0) / 1e9;
      console.printf(Locale.ROOT, "   %-8s %,12d accesses: %,12.0f per thread CPU s (%5.2f s), "
          + "%,12.0f per process CPU s (%5.2f s), %,12.0f per wall s (%5.2f s); peak heap "
          + "%,d MiB%n", name, accesses, accesses / cpu, cpu, accesses / all, all,
          accesses / s, s, peakHeap() >> 20);
    }
  }

  private static SimResult replay(String policy, List<SimJob> jobs, int nodes, long gbPerNode) {
    return simulator(nodes, gbPerNode).run(policy.equals(BeladyDatasetPolicy.NAME)
        ? new BeladyDatasetPolicy(jobs) : CachePolicies.create(policy, PolicyParameters.defaults()),
        jobs);
  }

  private static ClusterSimulator simulator(int nodes, long gbPerNode) {
    return new ClusterSimulator(new ClusterSimulator.Config(nodes, gbPerNode * GB, BLOCK_BYTES, 3,
        CostModel.defaults(nodes)));
  }

  /**
   * Prints the time {@link HitBound} takes over {@code trace}, {@code repeats} times after a
   * warm-up, as block reads of the trace per second of the thread's CPU time, with the peak heap.
   */
  private void bound(List<SimJob> trace, int nodes, long gbPerNode, int repeats) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long capacity = simulator(nodes, gbPerNode).capacityBlocks();
    long reads = trace.stream().mapToLong(j -> j.blocks).sum();
    double jobs = HitBound.wholeInputJobs(trace, capacity);
    resetPeaks();
    long c0 = threads.getCurrentThreadCpuTime();
    for (int i = 0; i < repeats; i++) {
      jobs = HitBound.wholeInputJobs(trace, capacity);
    }
    double cpu = (threads.getCurrentThreadCpuTime() - c0) / 1e9;
    console.printf(Locale.ROOT, "   %-8s %,12d accesses: %,12.0f per thread CPU s (%5.2f s); "
        + "%.1f jobs; peak heap %,d MiB%n", "bound", reads * repeats, reads * repeats / cpu, cpu,
        jobs, peakHeap() >> 20);
  }

  /**
   * Admits and stores {@code blocks} blocks in datasets of 100 blocks, round-robin over the
   * slaves, each slave reporting room to spare; returns how many were admitted.
   */
  private static int fill(CachePolicy p, int blocks, int slaves) {
    List<String> slaveIds = new ArrayList<>(slaves);
    for (int i = 0; i < slaves; i++) {
      slaveIds.add("slave-" + i);
    }
    String dataset = null;
    int held = 0;
    for (int b = 0; b < blocks; b++) {
      if (b % 100 == 0) {
        dataset = "/data/set-" + b / 100;
      }
      String slave = slaveIds.get(b % slaves);
      BlockKey key = new BlockKey("BP-1", b, 1001);
      CacheDecision d = p.onMiss(new BlockAccess(slave, key, BLOCK_BYTES, dataset, 100,
          "job-" + b / 100, b), 1L << 50);
      if (d.admitted()) {
        p.onCached(slave, key);
        held++;
      }
    }
    return held;
  }

  private static long liveHeap() {
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      System.gc();
      long u = 0;
      for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
        if (pool.getType() == MemoryType.HEAP) {
          u += pool.getUsage().getUsed();
        }
      }
      used = Math.min(used, u);
    }
    return used;
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
