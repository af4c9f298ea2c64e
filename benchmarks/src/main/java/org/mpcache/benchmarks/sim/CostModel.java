package org.mpcache.benchmarks.sim;

/**
 * Estimates a job's running time from where its input came from. Deliberately simple and stated
 * in full, so that every speedup in the reports can be recomputed by hand.
 *
 * <p>Per job on N nodes, with HDD and SSD read bandwidths per node (effective, under a full
 * node of concurrent map tasks) and C cores per node:
 * <pre>
 *   map    = hddBytes / (N * hddBw) + ssdBytes / (N * ssdBw) + mapCpuCoreSeconds / (N * C)
 *   reduce = (PUMA) Table 1 reduce seconds * (input / input at k=10) * (7 / N)
 *            (trace) shuffleBytes / (N * networkBw) + outputBytes / (N * hddBw)
 *   time   = map + reduce
 * </pre>
 * For a PUMA benchmark, {@code mapCpuCoreSeconds} is calibrated from Table 1: on the paper's 7
 * nodes the k = 10 Map phase took T seconds, of which reading the input from HDD takes
 * {@code input / (7 * hddBw)}; the rest, times the paper's 7 * 16 cores, is its compute in
 * core-seconds, scaled linearly with the input size. A generic trace job uses
 * {@code cpuCoreSecondsPerGb}. Reading and computing are added, not overlapped: the model errs
 * towards smaller speedups for compute-heavy jobs. The defaults (30 MB/s HDD, 90 MB/s SSD per
 * node, 16 cores) are chosen so that a fully cached grep at k = 10 speeds its Map phase up about as much as the paper reports
 * (2.4x); they are effective rates under contention, not device ratings.
 *
 * <p>Immutable and thread-safe.
 */
public final class CostModel {
  private static final double MB = 1 << 20;
  private static final double GB = 1L << 30;

  private final int nodes;
  private final double hddBytesPerSec;
  private final double ssdBytesPerSec;
  private final double networkBytesPerSec;
  private final int coresPerNode;
  private final double cpuCoreSecondsPerGb;

  /**
   * @param hddMbPerSec effective HDD read MB/s per node
   * @param ssdMbPerSec effective SSD read MB/s per node
   * @param networkMbPerSec shuffle MB/s per node (trace jobs only)
   * @param cpuCoreSecondsPerGb map compute of a trace job, core-seconds per input GB
   */
  public CostModel(int nodes, double hddMbPerSec, double ssdMbPerSec, double networkMbPerSec,
      int coresPerNode, double cpuCoreSecondsPerGb) {
    if (nodes < 1 || coresPerNode < 1 || !(hddMbPerSec > 0) || !(ssdMbPerSec > 0)
        || !(networkMbPerSec > 0) || !(cpuCoreSecondsPerGb >= 0)) {
      throw new IllegalArgumentException("cost model needs positive nodes, cores and bandwidths "
          + "and a non-negative cpu cost");
    }
    this.nodes = nodes;
    this.hddBytesPerSec = hddMbPerSec * MB;
    this.ssdBytesPerSec = ssdMbPerSec * MB;
    this.networkBytesPerSec = networkMbPerSec * MB;
    this.coresPerNode = coresPerNode;
    this.cpuCoreSecondsPerGb = cpuCoreSecondsPerGb;
  }

  /** The defaults described in the class comment, on {@code nodes} nodes. */
  public static CostModel defaults(int nodes) {
    return new CostModel(nodes, 30, 90, 117, 16, 20);
  }

  /** Estimated seconds for a job that read {@code hddBytes} from HDD and the rest from SSD. */
  public double jobSeconds(SimJob job, long hddBytes, long ssdBytes) {
    double map = hddBytes / (nodes * hddBytesPerSec) + ssdBytes / (nodes * ssdBytesPerSec)
        + mapCpuCoreSeconds(job) / ((double) nodes * coresPerNode);
    return map + reduceSeconds(job);
  }

  private double mapCpuCoreSeconds(SimJob job) {
    PumaBenchmark b = job.benchmark();
    if (b == null) {
      return cpuCoreSecondsPerGb * job.inputBytes() / GB;
    }
    double tableInput = b.gbPerK() * PumaBenchmark.TABLE_K * GB;
    double tableIo = tableInput / (PumaBenchmark.TABLE_NODES * hddBytesPerSec);
    double tableCpu = Math.max(0, b.mapSeconds() - tableIo)
        * PumaBenchmark.TABLE_NODES * PumaBenchmark.TABLE_CORES;
    return tableCpu * job.inputBytes() / tableInput;
  }

  private double reduceSeconds(SimJob job) {
    PumaBenchmark b = job.benchmark();
    if (b == null) {
      return job.shuffleBytes() / (nodes * networkBytesPerSec)
          + job.outputBytes() / (nodes * hddBytesPerSec);
    }
    double tableInput = b.gbPerK() * PumaBenchmark.TABLE_K * GB;
    return b.reduceSeconds() * (job.inputBytes() / tableInput)
        * ((double) PumaBenchmark.TABLE_NODES / nodes);
  }
}
