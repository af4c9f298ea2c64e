package org.mpcache.benchmarks.puma;

import java.io.IOException;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;

/**
 * histogram-movies: how many movies have their average rating in each half-star bin. A movie with
 * average {@code a} falls in the bin labelled {@code floor(2a) / 2} ("1.0", "1.5", ..., "5.0"),
 * computed in integers so no rounding can move a movie across a boundary. Output:
 * {@code bin TAB movies}. Shuffle-light: nine keys, folded by the combiner.
 */
public final class HistogramMovies extends CountingBenchmark {

  /** The benchmark as Table 1 lists it. */
  public HistogramMovies() {
    super("histogram-movies", ShuffleClass.LIGHT, AverageRatingMapper.class);
  }

  /** The label of the bin holding a movie of {@code ratings} ratings summing to {@code sum}. */
  public static String bin(long sum, int ratings) {
    long halves = 2 * sum / ratings;
    return (halves / 2) + (halves % 2 == 0 ? ".0" : ".5");
  }

  /** Emits {@code (bin of the movie's average rating, 1)} per movie. */
  public static final class AverageRatingMapper extends CountingMapper {
    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      MovieRatings movie = MovieRatings.parse(line);
      if (movie.size() > 0) {
        count(bin(movie.ratingSum(), movie.size()), context);
      }
    }
  }
}
