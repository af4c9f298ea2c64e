package org.mpcache.sim;

import java.util.Locale;

/**
 * What one simulation run measured: block accesses and hits, jobs whose whole input was cached
 * when they ran (the all-or-nothing effective hit ratio), bytes read from HDD and SSD, bytes
 * written to the SSDs, and the estimated total job time with the cache and on plain Hadoop.
 * Immutable.
 */
public final class SimResult {
  final String policy;
  final long capacityBytesPerNode;
  final long blockAccesses;
  final long blockHits;
  final long jobs;
  final long wholeInputCachedJobs;
  final long hddBytes;
  final long ssdBytes;
  /** Bytes the slaves stored on their SSDs: every admitted block that was cached. */
  final long ssdWrittenBytes;
  final double hadoopSeconds;
  final double cachedSeconds;
  /** The sum over jobs of each job's Hadoop time over its time with the cache. */
  final double jobSpeedups;
  /** Simulated time: the estimated job times with the cache, back to back. */
  final long simulatedMs;

  SimResult(String policy, long capacityBytesPerNode, long blockAccesses, long blockHits,
      long jobs, long wholeInputCachedJobs, long hddBytes, long ssdBytes, long ssdWrittenBytes,
      double hadoopSeconds, double cachedSeconds, double jobSpeedups, long simulatedMs) {
    this.policy = policy;
    this.capacityBytesPerNode = capacityBytesPerNode;
    this.blockAccesses = blockAccesses;
    this.blockHits = blockHits;
    this.jobs = jobs;
    this.wholeInputCachedJobs = wholeInputCachedJobs;
    this.hddBytes = hddBytes;
    this.ssdBytes = ssdBytes;
    this.ssdWrittenBytes = ssdWrittenBytes;
    this.hadoopSeconds = hadoopSeconds;
    this.cachedSeconds = cachedSeconds;
    this.jobSpeedups = jobSpeedups;
    this.simulatedMs = simulatedMs;
  }

  /**
   * The suffix naming a policy run under a write budget of {@code bytesPerHourPerNode}: "/wb"
   * and the budget in GiB per hour per node ({@code mpcache/wb8} is mpcache with 8 GiB/h).
   */
  static String budgetSuffix(long bytesPerHourPerNode) {
    double gib = bytesPerHourPerNode / (double) (1L << 30);
    return "/wb" + (gib == Math.rint(gib) ? String.valueOf((long) gib)
        : String.format(Locale.ROOT, "%.2f", gib));
  }

  /** GiB written to the SSDs. */
  public double ssdWrittenGib() {
    return ssdWrittenBytes / (double) (1L << 30);
  }

  /** GiB written to the SSDs per node per simulated hour. */
  public double ssdWrittenGibPerNodeHour(int nodes) {
    return simulatedMs == 0 ? 0 : ssdWrittenGib() / nodes / (simulatedMs / 3_600_000.0);
  }
  public double hitRatio() {
    return blockAccesses == 0 ? 0 : blockHits / (double) blockAccesses;
  }

  /** The share of jobs whose every input block was cached when they read it. */
  public double effectiveHitRatio() {
    return jobs == 0 ? 0 : wholeInputCachedJobs / (double) jobs;
  }

  /**
   * The estimated speedup a job sees: the mean over jobs of its time on Hadoop over its time with
   * the cache ({@link CostModel}).
   */
  public double speedup() {
    return jobs == 0 ? 1 : jobSpeedups / jobs;
  }

  /** Total estimated job time on Hadoop over total estimated job time with the cache. */
  public double totalTimeSpeedup() {
    return cachedSeconds == 0 ? 1 : hadoopSeconds / cachedSeconds;
  }

  static String csvHeader() {
    return "policy,cache_gb_per_node,block_accesses,block_hits,hit_ratio,jobs,"
        + "whole_input_cached_jobs,effective_hit_ratio,hdd_gb,ssd_gb,hadoop_s,cached_s,"
        + "mean_job_speedup,total_time_speedup,ssd_written_gb";
  }

  String csv() {
    return String.format(Locale.ROOT,
        "%s,%.1f,%d,%d,%.4f,%d,%d,%.4f,%.1f,%.1f,%.0f,%.0f,%.4f,%.4f,%.1f",
        policy, capacityBytesPerNode / (double) (1L << 30), blockAccesses, blockHits, hitRatio(),
        jobs, wholeInputCachedJobs, effectiveHitRatio(), hddBytes / (double) (1L << 30),
        ssdBytes / (double) (1L << 30), hadoopSeconds, cachedSeconds, speedup(),
        totalTimeSpeedup(), ssdWrittenGib());
  }
}
