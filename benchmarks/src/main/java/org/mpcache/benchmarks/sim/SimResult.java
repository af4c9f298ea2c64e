package org.mpcache.benchmarks.sim;

/**
 * What one simulation run measured, over the jobs after the warm-up: block accesses and hits,
 * jobs and jobs whose whole input was served from cache (all-or-nothing hits), bytes read from
 * HDD and SSD, the estimated total job time with the policy and without any cache, and the sum
 * over jobs of each job's own speedup. Immutable.
 */
public record SimResult(String policy, long cacheBytesPerNode, long blockAccesses,
    long blockHits, long jobs, long fullyCachedJobs, long hddBytes, long ssdBytes,
    double jobSeconds, double uncachedJobSeconds, double jobSpeedupSum) {

  public double blockHitRatio() {
    return blockAccesses == 0 ? 0 : (double) blockHits / blockAccesses;
  }

  /** Share of jobs whose every input block was a cache hit. */
  public double effectiveHitRatio() {
    return jobs == 0 ? 0 : (double) fullyCachedJobs / jobs;
  }

  /**
   * The mean over jobs of (estimated time without cache / estimated time with this policy): the
   * paper's "average speedup".
   */
  public double speedup() {
    return jobs == 0 ? 1 : jobSpeedupSum / jobs;
  }

  /** Total estimated time without cache over total time with this policy (long jobs weigh more). */
  public double totalTimeSpeedup() {
    return jobSeconds == 0 ? 1 : uncachedJobSeconds / jobSeconds;
  }
}
