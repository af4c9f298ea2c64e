package org.mpcache.benchmarks.puma;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * Base of the benchmarks that are one MapReduce job: subclasses build the job in
 * {@link #createJob(Configuration, Path, Path)}, and running the benchmark submits it and waits.
 */
public abstract class SingleJobBenchmark implements PumaBenchmark {
  private final String name;
  private final ShuffleClass shuffleClass;

  protected SingleJobBenchmark(String name, ShuffleClass shuffleClass) {
    this.name = name;
    this.shuffleClass = shuffleClass;
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final ShuffleClass shuffleClass() {
    return shuffleClass;
  }

  /**
   * Builds the job reading {@code input} and writing {@code output}, ready to submit. The job's
   * number of reduce tasks is the configuration's {@code mapreduce.job.reduces}.
   */
  public abstract Job createJob(Configuration conf, Path input, Path output)
      throws IOException, InterruptedException;

  @Override
  public PumaRun run(Configuration conf, Path input, Path output)
      throws IOException, InterruptedException {
    Job job = createJob(conf, input, output);
    PumaJobs.await(job);
    return PumaRun.of(List.of(job));
  }

  /** A {@link PumaJobs#textJob text job} named after this benchmark. */
  @SuppressWarnings("rawtypes")
  protected final Job newTextJob(Configuration conf, Path input, Path output,
      Class<? extends Mapper> mapper, Class<? extends Reducer> reducer) throws IOException {
    return PumaJobs.textJob(conf, "puma-" + name, input, output, mapper, reducer);
  }
}
