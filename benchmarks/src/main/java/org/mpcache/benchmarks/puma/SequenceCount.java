package org.mpcache.benchmarks.puma;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;

/**
 * sequence-count: occurrences of every sequence of three consecutive words per host. PUMA counts
 * sequences per input file; here the host plays the file's part, since generated documents are
 * grouped by host. Sequences do not cross document boundaries. Output:
 * {@code word1 word2 word3 TAB host TAB occurrences}, which is the input format of
 * {@link RankedInvertedIndex}.
 */
public final class SequenceCount extends CountingBenchmark {

  /** The benchmark as Table 1 lists it. */
  public SequenceCount() {
    super("sequence-count", ShuffleClass.MEDIUM, SequenceMapper.class);
  }

  /** Emits {@code ("w1 w2 w3 TAB host", 1)} for each three-word window of a document. */
  public static final class SequenceMapper extends CountingMapper {
    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      String host = WikiLine.host(line);
      List<String> words = WikiLine.words(line);
      for (int i = 0; i + 2 < words.size(); i++) {
        count(words.get(i) + ' ' + words.get(i + 1) + ' ' + words.get(i + 2) + '\t' + host, context);
      }
    }
  }
}
