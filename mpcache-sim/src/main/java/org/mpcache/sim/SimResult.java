package org.mpcache.sim;

import java.util.Locale;

/**
 * What one simulation run measured: block accesses and hits, jobs whose whole input was cached
 * when they ran (the all-or-nothing effective hit ratio), bytes read from HDD and SSD, and the
 * estimated total job time with the cache and on plain Hadoop. Immutable.
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
  final double hadoopSeconds;
  final double cachedSeconds;
  /** The sum over jobs of each job's Hadoop time over its time with the cache. */
  final double jobSpeedups;

  SimResult(String policy, long capacityBytesPerNode, long blockAccesses, long blockHits,
      long jobs, long wholeInputCachedJobs, long hddBytes, long ssdBytes, double hadoopSeconds,
      double cachedSeconds, double jobSpeedups) {
    this.policy = policy;
    this.capacityBytesPerNode = capacityBytesPerNode;
    this.blockAccesses = blockAccesses;
    this.blockHits = blockHits;
    this.jobs = jobs;
    this.wholeInputCachedJobs = wholeInputCachedJobs;
    this.hddBytes = hddBytes;
    this.ssdBytes = ssdBytes;
    this.hadoopSeconds = hadoopSeconds;
    this.cachedSeconds = cachedSeconds;
    this.jobSpeedups = jobSpeedups;
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
        + "mean_job_speedup,total_time_speedup";
  }

  String csv() {
    return String.format(Locale.ROOT,
        "%s,%.1f,%d,%d,%.4f,%d,%d,%.4f,%.1f,%.1f,%.0f,%.0f,%.4f,%.4f",
        policy, capacityBytesPerNode / (double) (1L << 30), blockAccesses, blockHits, hitRatio(),
        jobs, wholeInputCachedJobs, effectiveHitRatio(), hddBytes / (double) (1L << 30),
        ssdBytes / (double) (1L << 30), hadoopSeconds, cachedSeconds, speedup(),
        totalTimeSpeedup());
  }
}
