package org.mpcache.benchmarks.puma;

import java.io.IOException;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;

/**
 * histogram-ratings: how many ratings of each value (1 to 5) the movie-ratings input holds. Output:
 * {@code rating TAB count}. Shuffle-light: five keys, folded by the combiner.
 */
public final class HistogramRatings extends CountingBenchmark {

  /** The benchmark as Table 1 lists it. */
  public HistogramRatings() {
    super("histogram-ratings", ShuffleClass.LIGHT, RatingMapper.class);
  }

  /** Emits {@code (rating, 1)} for every rating of a movie. */
  public static final class RatingMapper extends CountingMapper {
    private static final String[] LABELS = {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"};

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      MovieRatings movie = MovieRatings.parse(line);
      for (int i = 0; i < movie.size(); i++) {
        count(LABELS[movie.rating(i)], context);
      }
    }
  }
}
