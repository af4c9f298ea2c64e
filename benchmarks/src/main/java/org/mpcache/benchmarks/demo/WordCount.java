package org.mpcache.benchmarks.demo;

import java.io.IOException;
import java.util.StringTokenizer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;

/**
 * The word-count job the demo and the end-to-end tests run: an ordinary MapReduce job that knows
 * nothing of mpCache (whitespace-separated words, summed with a combiner).
 */
public final class WordCount {

  /** Emits (word, 1) for every whitespace-separated token. */
  public static final class TokenMapper extends Mapper<LongWritable, Text, Text, IntWritable> {
    private static final IntWritable ONE = new IntWritable(1);
    private final Text word = new Text();

    @Override
    protected void map(LongWritable key, Text value, Context context)
        throws IOException, InterruptedException {
      StringTokenizer t = new StringTokenizer(value.toString());
      while (t.hasMoreTokens()) {
        word.set(t.nextToken());
        context.write(word, ONE);
      }
    }
  }

  /** Sums the counts of a word; also the combiner. */
  public static final class SumReducer extends Reducer<Text, IntWritable, Text, IntWritable> {
    private final IntWritable sum = new IntWritable();

    @Override
    protected void reduce(Text key, Iterable<IntWritable> values, Context context)
        throws IOException, InterruptedException {
      int s = 0;
      for (IntWritable v : values) {
        s += v.get();
      }
      sum.set(s);
      context.write(key, sum);
    }
  }

  private WordCount() {
  }

  /** A word-count job over {@code in} writing {@code reducers} part files to {@code out}. */
  public static Job create(Configuration conf, Path in, Path out, int reducers)
      throws IOException {
    Job job = Job.getInstance(conf, "word-count " + in);
    job.setJarByClass(WordCount.class);
    job.setMapperClass(TokenMapper.class);
    job.setCombinerClass(SumReducer.class);
    job.setReducerClass(SumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    job.setNumReduceTasks(reducers);
    FileInputFormat.addInputPath(job, in);
    FileOutputFormat.setOutputPath(job, out);
    return job;
  }
}
