package org.mpcache.benchmarks.puma;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskCounter;

/**
 * The outcome of one benchmark run: whether every job succeeded, the jobs in the order they ran
 * (one for most benchmarks, one per iteration for k-means), and their counters summed.
 *
 * @param success true if every job succeeded
 * @param jobs the completed jobs, for per-job details such as task reports
 * @param counters the sum of all jobs' counters
 */
public record PumaRun(boolean success, List<Job> jobs, Counters counters) {

  /** Collects the outcome of {@code jobs}, which must all have completed. */
  public static PumaRun of(List<Job> jobs) throws IOException {
    boolean success = true;
    Counters total = new Counters();
    for (Job job : jobs) {
      success &= job.isSuccessful();
      Counters counters = job.getCounters();
      if (counters != null) {
        total.incrAllCounters(counters);
      }
    }
    return new PumaRun(success, List.copyOf(jobs), total);
  }

  /** The summed value of a task counter, such as {@link TaskCounter#MAP_OUTPUT_MATERIALIZED_BYTES}. */
  public long counter(TaskCounter counter) {
    return counters.findCounter(counter).getValue();
  }
}
