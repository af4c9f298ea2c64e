package org.mpcache.benchmarks.puma;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;

/**
 * Builds and awaits the benchmarks' jobs. Most share one shape, built by
 * {@link #textJob(Configuration, String, Path, Path, Class, Class)}: text lines in, one mapper and
 * one reducer, {@code key TAB value} lines out; callers add key and value classes and anything else
 * particular to them. A job's jar is the one holding its mapper, so it runs on a real cluster as
 * well as in the local runner.
 *
 * <p>Stateless and thread-safe.
 */
public final class PumaJobs {
  private PumaJobs() {
  }

  /** A text-to-text job named {@code name} reading {@code input} and writing {@code output}. */
  @SuppressWarnings("rawtypes")
  public static Job textJob(Configuration conf, String name, Path input, Path output,
      Class<? extends Mapper> mapper, Class<? extends Reducer> reducer) throws IOException {
    Job job = Job.getInstance(conf, name);
    job.setJarByClass(mapper);
    job.setInputFormatClass(TextInputFormat.class);
    job.setMapperClass(mapper);
    job.setReducerClass(reducer);
    job.setOutputFormatClass(TextOutputFormat.class);
    FileInputFormat.addInputPath(job, input);
    FileOutputFormat.setOutputPath(job, output);
    return job;
  }

  /**
   * Submits {@code job} and waits for it.
   *
   * @return whether it succeeded
   */
  public static boolean await(Job job) throws IOException, InterruptedException {
    try {
      return job.waitForCompletion(false);
    } catch (ClassNotFoundException e) {
      throw new IOException("Job " + job.getJobName() + " names a class that cannot be loaded", e);
    }
  }
}
