package org.mpcache.benchmarks.puma;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.reduce.LongSumReducer;

/**
 * Base of the benchmarks that count keys: a {@link CountingMapper} emits {@code (key, 1)} pairs
 * from text lines, Hadoop's {@link LongSumReducer} sums them as combiner and reducer, and the
 * output is {@code key TAB count}. Grep, word-count, the two histograms and sequence-count differ
 * only in their mapper; the combiner is what keeps the first four light or medium in Table 1.
 */
public abstract class CountingBenchmark extends SingleJobBenchmark {
  private final Class<? extends CountingMapper> mapper;

  protected CountingBenchmark(String name, ShuffleClass shuffleClass,
      Class<? extends CountingMapper> mapper) {
    super(name, shuffleClass);
    this.mapper = mapper;
  }

  @Override
  public Job createJob(Configuration conf, Path input, Path output) throws IOException {
    Job job = newTextJob(conf, input, output, mapper, LongSumReducer.class);
    job.setCombinerClass(LongSumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(LongWritable.class);
    return job;
  }

  /**
   * Mapper of a counting benchmark: subclasses call {@link #count(String, Context)} for every
   * occurrence of a key in a line.
   */
  public abstract static class CountingMapper extends Mapper<LongWritable, Text, Text, LongWritable> {
    private static final LongWritable ONE = new LongWritable(1);
    private final Text key = new Text();

    /** Emits one occurrence of {@code value}. */
    protected final void count(String value, Context context)
        throws IOException, InterruptedException {
      key.set(value);
      context.write(key, ONE);
    }
  }
}
