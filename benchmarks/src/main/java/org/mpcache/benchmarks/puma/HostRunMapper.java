package org.mpcache.benchmarks.puma;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;

/**
 * A mapper over Wikipedia-like lines (see {@link WikiLine}) that treats each run of consecutive
 * lines of one host as a unit: it hands the words of every line to {@link #addWords} and calls
 * {@link #endRun} with the run's host when the host changes and at the end of the split. Generated
 * documents are grouped by host, so a run usually holds all of a host's documents in the split.
 *
 * <p>Not thread-safe: Hadoop gives each map task its own instance.
 */
public abstract class HostRunMapper extends Mapper<LongWritable, Text, Text, Text> {
  private String currentHost;

  @Override
  protected final void map(LongWritable offset, Text line, Context context)
      throws IOException, InterruptedException {
    String lineHost = WikiLine.host(line);
    if (!lineHost.equals(currentHost)) {
      finishRun(context);
      currentHost = lineHost;
    }
    addWords(WikiLine.words(line));
  }

  @Override
  protected final void cleanup(Context context) throws IOException, InterruptedException {
    finishRun(context);
  }

  private void finishRun(Context context) throws IOException, InterruptedException {
    if (currentHost != null) {
      endRun(currentHost, context);
    }
  }

  /** Adds the words of one line of the current run, in line order. */
  protected abstract void addWords(List<String> words);

  /**
   * Emits what the run of {@code host}'s lines added and forgets it, so the next run starts empty.
   */
  protected abstract void endRun(String host, Context context)
      throws IOException, InterruptedException;
}
