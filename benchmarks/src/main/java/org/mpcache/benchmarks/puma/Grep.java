package org.mpcache.benchmarks.puma;

import java.io.IOException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;

/**
 * grep: counts every match of a regular expression ({@link PumaConfigKeys#GREP_PATTERN_KEY}) in
 * text input, whole lines searched. Output: {@code match TAB occurrences}. Shuffle-light: few lines
 * match and the combiner folds repeated matches within a map task.
 */
public final class Grep extends CountingBenchmark {

  /** The benchmark as Table 1 lists it. */
  public Grep() {
    super("grep", ShuffleClass.LIGHT, MatchMapper.class);
  }

  /** Emits {@code (match, 1)} for each match of the pattern in a line. */
  public static final class MatchMapper extends CountingMapper {
    private Pattern pattern;

    @Override
    protected void setup(Context context) {
      pattern = Pattern.compile(context.getConfiguration()
          .get(PumaConfigKeys.GREP_PATTERN_KEY, PumaConfigKeys.GREP_PATTERN_DEFAULT));
    }

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      Matcher matcher = pattern.matcher(line.toString());
      while (matcher.find()) {
        count(matcher.group(), context);
      }
    }
  }
}
