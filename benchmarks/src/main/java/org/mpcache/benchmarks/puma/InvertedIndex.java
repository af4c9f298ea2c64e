package org.mpcache.benchmarks.puma;

import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * inverted-index: for every word, the hosts whose documents use it. PUMA indexes words by input
 * file; here the host plays the file's part, since generated documents are grouped by host. Map
 * emits each {@code (word, host)} pair once per run of consecutive documents of a host; reduce
 * removes the duplicates that different map tasks produce. Output:
 * {@code word TAB host,host,...} with hosts in lexicographic order. Shuffle-medium: a word is
 * shuffled once per host, not once per occurrence.
 */
public final class InvertedIndex extends SingleJobBenchmark {

  /** The benchmark as Table 1 lists it. */
  public InvertedIndex() {
    super("inverted-index", ShuffleClass.MEDIUM);
  }

  @Override
  public Job createJob(Configuration conf, Path input, Path output) throws IOException {
    Job job = newTextJob(conf, input, output, HostWordMapper.class, HostListReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    return job;
  }

  /**
   * Collects the distinct words of consecutive documents of one host and emits
   * {@code (word, host)} for each when the host changes and at the end of the split.
   */
  public static final class HostWordMapper extends HostRunMapper {
    private final Set<String> words = new HashSet<>();
    private final Text word = new Text();
    private final Text host = new Text();

    @Override
    protected void addWords(List<String> lineWords) {
      words.addAll(lineWords);
    }

    @Override
    protected void endRun(String runHost, Context context)
        throws IOException, InterruptedException {
      host.set(runHost);
      for (String w : words) {
        word.set(w);
        context.write(word, host);
      }
      words.clear();
    }
  }

  /** Emits a word with its distinct hosts, sorted. */
  public static final class HostListReducer extends Reducer<Text, Text, Text, Text> {
    private final Text hosts = new Text();

    @Override
    protected void reduce(Text word, Iterable<Text> values, Context context)
        throws IOException, InterruptedException {
      Set<String> distinct = new TreeSet<>();
      for (Text value : values) {
        distinct.add(value.toString());
      }
      hosts.set(String.join(",", distinct));
      context.write(word, hosts);
    }
  }
}
