package org.mpcache.benchmarks.puma;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.mpcache.benchmarks.datagen.DatasetKind;

/**
 * One of the 13 PUMA benchmarks the mpCache paper evaluates (Table 1). A benchmark reads input
 * produced by the generator of its {@link #inputKind()} from any Hadoop file system, writes its
 * result under {@code output}, and runs with the number of reduce tasks set in
 * {@code mapreduce.job.reduces} of the configuration it is given.
 */
public interface PumaBenchmark {

  /** The benchmark's name as in Table 1, such as {@code word-count}. */
  String name();

  /** The shuffle category Table 1 puts the benchmark in. */
  ShuffleClass shuffleClass();

  /** The kind of generated input the benchmark reads. */
  default DatasetKind inputKind() {
    return DatasetKind.resolve(name());
  }

  /**
   * Runs the benchmark to completion; {@code output} must not exist.
   *
   * @throws IOException if a job cannot be submitted or its files cannot be read or written
   * @throws InterruptedException if interrupted while waiting for a job
   */
  PumaRun run(Configuration conf, Path input, Path output)
      throws IOException, InterruptedException;
}
