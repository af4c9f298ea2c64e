package org.mpcache.benchmarks.puma;

import java.io.IOException;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;

/**
 * word-count: occurrences of every word in the text of Wikipedia-like documents (see
 * {@link WikiLine} for what a word is; host and document id are not counted). Output:
 * {@code word TAB occurrences}. Shuffle-medium: the combiner leaves one pair per distinct word per
 * map task.
 */
public final class WordCount extends CountingBenchmark {

  /** The benchmark as Table 1 lists it. */
  public WordCount() {
    super("word-count", ShuffleClass.MEDIUM, WordMapper.class);
  }

  /** Emits {@code (word, 1)} for each word of a document. */
  public static final class WordMapper extends CountingMapper {
    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      for (String word : WikiLine.words(line)) {
        count(word, context);
      }
    }
  }
}
