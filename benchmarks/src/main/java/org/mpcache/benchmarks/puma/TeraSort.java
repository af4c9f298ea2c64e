package org.mpcache.benchmarks.puma;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.partition.InputSampler;
import org.apache.hadoop.mapreduce.lib.partition.TotalOrderPartitioner;
import org.mpcache.benchmarks.datagen.TeraRecordGenerator;

/**
 * tera-sort: sorts 100-byte records by their 10-byte keys (unsigned byte order) into globally
 * sorted output: part files read in name order are one sorted sequence. Map and reduce are the
 * identity; the order comes from the shuffle's sort and a {@link TotalOrderPartitioner} whose
 * boundaries are drawn from about {@link PumaConfigKeys#TERA_SORT_SAMPLES_KEY} keys taken at even
 * intervals of the input (deterministic, unlike random sampling). The boundaries file lives next
 * to the output while the job runs. Shuffle-heavy: all input crosses the shuffle.
 */
public final class TeraSort extends SingleJobBenchmark {

  /** The benchmark as Table 1 lists it. */
  public TeraSort() {
    super("tera-sort", ShuffleClass.HEAVY);
  }

  @Override
  public Job createJob(Configuration conf, Path input, Path output)
      throws IOException, InterruptedException {
    Job job = Job.getInstance(conf, "puma-" + name());
    job.setJarByClass(TeraSort.class);
    job.setInputFormatClass(TeraInputFormat.class);
    job.setOutputFormatClass(TeraOutputFormat.class);
    job.setMapperClass(Mapper.class);
    job.setReducerClass(Reducer.class);
    job.setOutputKeyClass(BytesWritable.class);
    job.setOutputValueClass(BytesWritable.class);
    FileInputFormat.addInputPath(job, input);
    FileOutputFormat.setOutputPath(job, output);
    if (job.getNumReduceTasks() > 1) {
      Path partitions = partitionFile(output);
      TotalOrderPartitioner.setPartitionFile(job.getConfiguration(), partitions);
      job.setPartitionerClass(TotalOrderPartitioner.class);
      long inputBytes = input.getFileSystem(conf).getContentSummary(input).getLength();
      int samples = conf.getInt(PumaConfigKeys.TERA_SORT_SAMPLES_KEY,
          PumaConfigKeys.TERA_SORT_SAMPLES_DEFAULT);
      double frequency = Math.min(1.0,
          (double) samples * TeraRecordGenerator.RECORD_BYTES / Math.max(1, inputBytes));
      try {
        InputSampler.writePartitionFile(job,
            new InputSampler.IntervalSampler<BytesWritable, BytesWritable>(frequency,
                Integer.MAX_VALUE));
      } catch (ClassNotFoundException e) {
        throw new IOException("Cannot load the input format to sample " + input, e);
      }
    }
    return job;
  }

  @Override
  public PumaRun run(Configuration conf, Path input, Path output)
      throws IOException, InterruptedException {
    try {
      return super.run(conf, input, output);
    } finally {
      Path partitions = partitionFile(output);
      FileSystem fs = partitions.getFileSystem(conf);
      fs.delete(partitions, false);
    }
  }

  /** The partition boundaries file of a job writing {@code output}; hidden from input globs. */
  static Path partitionFile(Path output) {
    return new Path(output.getParent(), "_" + output.getName() + ".partitions");
  }
}
