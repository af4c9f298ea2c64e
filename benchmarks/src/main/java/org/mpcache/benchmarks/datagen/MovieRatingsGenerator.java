package org.mpcache.benchmarks.datagen;

import java.io.IOException;
import java.util.HashSet;
import java.util.Set;

/**
 * Netflix-style ratings, one movie per line: {@code movieId:userId_rating,userId_rating,...} with
 * movie ids counting from 1, user ids in {@code [1, USERS]} and ratings 1 to 5, each user at most
 * once per movie.
 *
 * <p>A movie's number of ratings is Pareto distributed (shape 1.2, at least 20, at most 4,000), so a
 * few blockbusters carry many ratings, as in the Netflix prize data. Raters are drawn from a Zipf law
 * over users (exponent 0.8; popularity ranks scrambled onto ids), so some users rate far more than
 * others. A rating is the movie's quality (uniform in 1.5..4.5) plus a per-user bias (uniform in
 * -0.5..0.5), plus one if the user's favourite of {@link #GENRES} genres is the movie's, plus
 * Gaussian noise (sd 0.8), rounded and clamped to 1..5. Genres give k-means clusters to find.
 *
 * <p>Stateless and thread-safe.
 */
public final class MovieRatingsGenerator implements DatasetGenerator {
  /** Distinct users that may rate a movie. */
  public static final int USERS = 100_000;
  /** Number of genres; user taste and movie genre agree for about one pair in eight. */
  public static final int GENRES = 8;
  private static final int MIN_RATINGS = 20;
  private static final int MAX_RATINGS = 4_000;
  private static final double PARETO_SHAPE = 1.2;

  @Override
  public void generate(ByteSink sink, long targetBytes, long seed) throws IOException {
    SeededRandom random = new SeededRandom(seed);
    ZipfDistribution activity = new ZipfDistribution(USERS, 0.8);
    IdScrambler userIds = new IdScrambler(USERS, seed);
    Set<Integer> raters = new HashSet<>();
    for (long movie = 1; sink.written() < targetBytes; movie++) {
      int ratings = (int) Math.min(MAX_RATINGS,
          MIN_RATINGS / Math.pow(1.0 - random.nextDouble(), 1.0 / PARETO_SHAPE));
      double quality = 1.5 + 3.0 * random.nextDouble();
      int genre = random.nextInt(GENRES);
      sink.putDecimal(movie);
      sink.put(':');
      raters.clear();
      for (int r = 0; r < ratings; r++) {
        int user = 1 + userIds.id(activity.sample(random));
        if (!raters.add(user)) {
          continue;
        }
        if (raters.size() > 1) {
          sink.put(',');
        }
        sink.putDecimal(user);
        sink.put('_');
        sink.putDecimal(rating(user, quality, genre, random, seed));
      }
      sink.put('\n');
    }
  }

  private static int rating(int user, double quality, int genre, SeededRandom random, long seed) {
    long traits = SeededRandom.mix(seed ^ ((long) user << 20));
    double bias = ((traits & 0xffff) / 65535.0) - 0.5;
    int favourite = (int) ((traits >>> 16) & 0x7fff) % GENRES;
    double value = quality + bias + (favourite == genre ? 1.0 : 0.0) + 0.8 * random.nextGaussian();
    return (int) Math.max(1, Math.min(5, Math.round(value)));
  }
}
