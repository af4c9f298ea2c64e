package org.mpcache.benchmarks.sim;

import java.util.Objects;

/**
 * One job of a replayed trace: when it was submitted, its id, the dataset it reads (its input
 * path) and the bytes it reads, shuffles and writes; for the paper's mix also the PUMA benchmark
 * it runs, which the cost model uses for its compute time. Immutable.
 *
 * @param benchmark the PUMA benchmark, or null for a job from a generic trace
 */
public record SimJob(long submitMillis, String jobId, String datasetId, long inputBytes,
    long shuffleBytes, long outputBytes, PumaBenchmark benchmark) {

  public SimJob {
    Objects.requireNonNull(jobId, "jobId");
    Objects.requireNonNull(datasetId, "datasetId");
    if (inputBytes <= 0 || shuffleBytes < 0 || outputBytes < 0) {
      throw new IllegalArgumentException("job " + jobId + ": input bytes must be positive and "
          + "shuffle/output bytes not negative");
    }
  }
}
