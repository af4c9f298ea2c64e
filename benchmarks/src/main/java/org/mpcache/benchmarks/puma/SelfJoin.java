package org.mpcache.benchmarks.puma;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * self-join: from {@code k}-field associations (comma-separated lines), the {@code (k+1)}-field
 * associations obtained by joining records that agree on their first {@code k-1} fields, as in the
 * candidate generation step of Apriori. Map splits a record at its last comma and emits
 * {@code (prefix, last field)}; reduce emits {@code prefix,a,b} for every pair {@code a < b}
 * (lexicographic) of the prefix's distinct last fields. Output: one association per line.
 * Shuffle-heavy: every record crosses the shuffle nearly whole.
 */
public final class SelfJoin extends SingleJobBenchmark {

  /** The benchmark as Table 1 lists it. */
  public SelfJoin() {
    super("self-join", ShuffleClass.HEAVY);
  }

  @Override
  public Job createJob(Configuration conf, Path input, Path output) throws IOException {
    Job job = newTextJob(conf, input, output, PrefixMapper.class, PairReducer.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(Text.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(NullWritable.class);
    return job;
  }

  /** Emits {@code (first k-1 fields, last field)}; lines without a comma are skipped. */
  public static final class PrefixMapper extends Mapper<LongWritable, Text, Text, Text> {
    private final Text prefix = new Text();
    private final Text last = new Text();

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      String record = line.toString();
      int comma = record.lastIndexOf(',');
      if (comma <= 0) {
        return;
      }
      prefix.set(record.substring(0, comma));
      last.set(record.substring(comma + 1));
      context.write(prefix, last);
    }
  }

  /** Emits every pair of a prefix's distinct last fields as one association. */
  public static final class PairReducer extends Reducer<Text, Text, Text, NullWritable> {
    private final Text association = new Text();

    @Override
    protected void reduce(Text prefix, Iterable<Text> lasts, Context context)
        throws IOException, InterruptedException {
      TreeSet<String> distinct = new TreeSet<>();
      for (Text last : lasts) {
        distinct.add(last.toString());
      }
      List<String> sorted = new ArrayList<>(distinct);
      String head = prefix.toString() + ',';
      for (int i = 0; i < sorted.size(); i++) {
        for (int j = i + 1; j < sorted.size(); j++) {
          association.set(head + sorted.get(i) + ',' + sorted.get(j));
          context.write(association, NullWritable.get());
        }
      }
    }
  }
}
