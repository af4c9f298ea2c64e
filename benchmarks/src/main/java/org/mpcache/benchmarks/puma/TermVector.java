package org.mpcache.benchmarks.puma;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * term-vector: the frequent words of each host, those occurring at least
 * {@link PumaConfigKeys#TERM_VECTOR_MIN_COUNT_KEY} times in its documents. Map counts the words of
 * consecutive documents of one host and emits {@code (host, partial term vector)} when the host
 * changes and at the end of the split; reduce merges a host's partial vectors and drops infrequent
 * words. Output: {@code host TAB word:count,word:count,...} by decreasing count, then word. A host
 * with no frequent word is left out. Shuffle-medium: a host's vocabulary is shuffled once per map
 * task that reads the host.
 */
public final class TermVector extends SingleJobBenchmark {
  private static final char ENTRY_SEPARATOR = ',';
  private static final char COUNT_SEPARATOR = ':';

  /** The benchmark as Table 1 lists it. */
  public TermVector() {
    super("term-vector", ShuffleClass.MEDIUM);
  }

  @Override
  public Job createJob(Configuration conf, Path input, Path output) throws IOException {
    Job job = newTextJob(conf, input, output, PartialVectorMapper.class, FrequentTermsReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    return job;
  }

  /** Formats {@code counts} as {@code word:count,...} in the order given. */
  static String format(List<Map.Entry<String, Long>> counts) {
    StringBuilder text = new StringBuilder();
    for (Map.Entry<String, Long> entry : counts) {
      if (text.length() > 0) {
        text.append(ENTRY_SEPARATOR);
      }
      text.append(entry.getKey()).append(COUNT_SEPARATOR).append(entry.getValue());
    }
    return text.toString();
  }

  /** Emits each host's word counts, one partial vector per run of the host's documents. */
  public static final class PartialVectorMapper extends HostRunMapper {
    private final Map<String, Long> counts = new HashMap<>();
    private final Text host = new Text();
    private final Text vector = new Text();

    @Override
    protected void addWords(List<String> words) {
      for (String word : words) {
        counts.merge(word, 1L, Long::sum);
      }
    }

    @Override
    protected void endRun(String runHost, Context context)
        throws IOException, InterruptedException {
      if (!counts.isEmpty()) {
        host.set(runHost);
        vector.set(format(new ArrayList<>(counts.entrySet())));
        context.write(host, vector);
      }
      counts.clear();
    }
  }

  /** Sums a host's partial vectors and keeps the frequent words. */
  public static final class FrequentTermsReducer extends Reducer<Text, Text, Text, Text> {
    private final Text vector = new Text();
    private long minCount;

    @Override
    protected void setup(Context context) {
      minCount = context.getConfiguration().getInt(PumaConfigKeys.TERM_VECTOR_MIN_COUNT_KEY,
          PumaConfigKeys.TERM_VECTOR_MIN_COUNT_DEFAULT);
    }

    @Override
    protected void reduce(Text host, Iterable<Text> partials, Context context)
        throws IOException, InterruptedException {
      Map<String, Long> counts = new HashMap<>();
      for (Text partial : partials) {
        for (String entry : partial.toString().split(String.valueOf(ENTRY_SEPARATOR))) {
          int colon = entry.lastIndexOf(COUNT_SEPARATOR);
          counts.merge(entry.substring(0, colon), Long.parseLong(entry.substring(colon + 1)),
              Long::sum);
        }
      }
      List<Map.Entry<String, Long>> frequent = new ArrayList<>();
      for (Map.Entry<String, Long> entry : counts.entrySet()) {
        if (entry.getValue() >= minCount) {
          frequent.add(entry);
        }
      }
      if (frequent.isEmpty()) {
        return;
      }
      frequent.sort(Map.Entry.<String, Long>comparingByValue().reversed()
          .thenComparing(Map.Entry.comparingByKey()));
      vector.set(format(frequent));
      context.write(host, vector);
    }
  }
}
