package org.mpcache.benchmarks.puma;

import java.util.Arrays;
import org.apache.hadoop.io.Text;

/**
 * One line of Netflix-style input, {@code movieId:userId_rating,userId_rating,...}, parsed into the
 * movie id and parallel arrays of users and ratings in line order. Parsing works on the line's
 * bytes, so a map task does not build a string per rating.
 *
 * <p>Immutable once parsed; the arrays are not copied, so callers must not change them.
 */
public final class MovieRatings {
  private final int movieId;
  private final int[] users;
  private final int[] ratings;

  private MovieRatings(int movieId, int[] users, int[] ratings) {
    this.movieId = movieId;
    this.users = users;
    this.ratings = ratings;
  }

  /**
   * Parses {@code line}.
   *
   * @throws IllegalArgumentException if the line is not in the format above
   */
  public static MovieRatings parse(Text line) {
    byte[] bytes = line.getBytes();
    int end = line.getLength();
    int pos = 0;
    int movie = 0;
    while (pos < end && bytes[pos] != ':') {
      movie = 10 * movie + digit(bytes[pos++], line);
    }
    if (pos == 0 || pos == end) {
      throw new IllegalArgumentException("Not a movie-ratings line: " + line);
    }
    pos++;
    int[] users = new int[16];
    int[] ratings = new int[16];
    int count = 0;
    while (pos < end) {
      int user = 0;
      while (pos < end && bytes[pos] != '_') {
        user = 10 * user + digit(bytes[pos++], line);
      }
      if (++pos >= end) {
        throw new IllegalArgumentException("Rating missing after user " + user + ": " + line);
      }
      int rating = digit(bytes[pos++], line);
      if (pos < end && bytes[pos++] != ',') {
        throw new IllegalArgumentException("Expected ',' after rating of user " + user + ": " + line);
      }
      if (count == users.length) {
        users = Arrays.copyOf(users, 2 * count);
        ratings = Arrays.copyOf(ratings, 2 * count);
      }
      users[count] = user;
      ratings[count++] = rating;
    }
    return new MovieRatings(movie, Arrays.copyOf(users, count), Arrays.copyOf(ratings, count));
  }

  private static int digit(byte b, Text line) {
    if (b < '0' || b > '9') {
      throw new IllegalArgumentException("Unexpected '" + (char) b + "' in " + line);
    }
    return b - '0';
  }

  /** The movie id. */
  public int movieId() {
    return movieId;
  }

  /** Number of ratings. */
  public int size() {
    return users.length;
  }

  /** The user of the {@code i}-th rating. */
  public int user(int i) {
    return users[i];
  }

  /** The {@code i}-th rating, 1 to 5. */
  public int rating(int i) {
    return ratings[i];
  }

  /** Sum of all ratings. */
  public long ratingSum() {
    long sum = 0;
    for (int r : ratings) {
      sum += r;
    }
    return sum;
  }
}
