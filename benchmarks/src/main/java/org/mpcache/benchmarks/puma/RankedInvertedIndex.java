package org.mpcache.benchmarks.puma;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * ranked-inverted-index (Table 1's "ranked-inverted-count"): from sequence-count output,
 * {@code sequence TAB host TAB count}, the hosts of every sequence ranked by how often they use it.
 * Map re-keys each line by its sequence, emitting {@code (sequence, host TAB count)}; reduce sorts
 * the hosts by decreasing count, then host name. Output:
 * {@code sequence TAB host:count,host:count,...}. Shuffle-heavy: every input line crosses the
 * shuffle whole.
 */
public final class RankedInvertedIndex extends SingleJobBenchmark {

  /** The benchmark as Table 1 lists it. */
  public RankedInvertedIndex() {
    super("ranked-inverted-index", ShuffleClass.HEAVY);
  }

  @Override
  public Job createJob(Configuration conf, Path input, Path output) throws IOException {
    Job job = newTextJob(conf, input, output, SequenceMapper.class, RankingReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    return job;
  }

  /** Emits {@code (sequence, host TAB count)}; lines without two tabs are skipped. */
  public static final class SequenceMapper extends Mapper<LongWritable, Text, Text, Text> {
    private final Text sequence = new Text();
    private final Text posting = new Text();

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      String record = line.toString();
      int countTab = record.lastIndexOf('\t');
      int hostTab = countTab <= 0 ? -1 : record.lastIndexOf('\t', countTab - 1);
      if (hostTab <= 0) {
        return;
      }
      sequence.set(record.substring(0, hostTab));
      posting.set(record.substring(hostTab + 1));
      context.write(sequence, posting);
    }
  }

  /** Ranks a sequence's hosts by decreasing count. */
  public static final class RankingReducer extends Reducer<Text, Text, Text, Text> {
    private final Text ranking = new Text();

    @Override
    protected void reduce(Text sequence, Iterable<Text> postings, Context context)
        throws IOException, InterruptedException {
      List<Posting> hosts = new ArrayList<>();
      for (Text value : postings) {
        String posting = value.toString();
        int tab = posting.indexOf('\t');
        hosts.add(new Posting(posting.substring(0, tab), Long.parseLong(posting.substring(tab + 1))));
      }
      hosts.sort(Comparator.comparingLong(Posting::count).reversed()
          .thenComparing(Posting::host));
      StringBuilder text = new StringBuilder();
      for (Posting posting : hosts) {
        if (text.length() > 0) {
          text.append(',');
        }
        text.append(posting.host()).append(':').append(posting.count());
      }
      ranking.set(text.toString());
      context.write(sequence, ranking);
    }
  }

  private record Posting(String host, long count) {
  }
}
