package org.mpcache.benchmarks.puma;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * A cluster centre for movies: a sparse vector over users (user id to mean rating) with its cluster
 * id. Similarity to a movie is the cosine of the angle between the centre and the movie's ratings
 * vector, users a vector lacks counting as zero. A centroid keeps at most {@code dimensions} users,
 * those of highest value (ties to the lower user id), so the centroid that every map task loads
 * stays small however many users a cluster touches.
 *
 * <p>Text form: {@code user:value,user:value,...} by increasing user, values as
 * {@link Double#toString(double)} so that they read back exactly. Immutable and thread-safe.
 */
public final class Centroid {
  private final int clusterId;
  private final int[] users;
  private final double[] values;
  private final double norm;

  private Centroid(int clusterId, int[] users, double[] values) {
    this.clusterId = clusterId;
    this.users = users;
    this.values = values;
    double squares = 0;
    for (double v : values) {
      squares += v * v;
    }
    this.norm = Math.sqrt(squares);
  }

  /** The centroid equal to {@code movie}'s ratings, reduced to {@code dimensions} users. */
  public static Centroid ofMovie(int clusterId, MovieRatings movie, int dimensions) {
    int[] users = new int[movie.size()];
    double[] values = new double[movie.size()];
    for (int i = 0; i < movie.size(); i++) {
      users[i] = movie.user(i);
      values[i] = movie.rating(i);
    }
    return reduced(clusterId, users, values, dimensions);
  }

  /**
   * The mean of {@code members} movies whose ratings summed to {@code sums[i]} for user
   * {@code users[i]}, reduced to {@code dimensions} users. Users a member did not rate count as
   * zero, so the value of user {@code u} is {@code sum(u) / members}.
   */
  public static Centroid mean(int clusterId, int[] users, long[] sums, int members, int dimensions) {
    double[] values = new double[users.length];
    for (int i = 0; i < users.length; i++) {
      values[i] = (double) sums[i] / members;
    }
    return reduced(clusterId, users.clone(), values, dimensions);
  }

  /** Parses the text form of the centroid of cluster {@code clusterId}. */
  public static Centroid parse(int clusterId, String vector) {
    if (vector.isEmpty()) {
      return new Centroid(clusterId, new int[0], new double[0]);
    }
    String[] entries = vector.split(",");
    int[] users = new int[entries.length];
    double[] values = new double[entries.length];
    for (int i = 0; i < entries.length; i++) {
      int colon = entries[i].indexOf(':');
      users[i] = Integer.parseInt(entries[i].substring(0, colon));
      values[i] = Double.parseDouble(entries[i].substring(colon + 1));
    }
    return reduced(clusterId, users, values, Integer.MAX_VALUE);
  }

  private static Centroid reduced(int clusterId, int[] users, double[] values, int dimensions) {
    Integer[] order = IntStream.range(0, users.length).boxed().toArray(Integer[]::new);
    Arrays.sort(order, Comparator.<Integer>comparingDouble(i -> -values[i])
        .thenComparingInt(i -> users[i]));
    int kept = Math.min(dimensions, users.length);
    Integer[] keep = Arrays.copyOf(order, kept);
    Arrays.sort(keep, Comparator.comparingInt(i -> users[i]));
    int[] keptUsers = new int[kept];
    double[] keptValues = new double[kept];
    for (int i = 0; i < kept; i++) {
      keptUsers[i] = users[keep[i]];
      keptValues[i] = values[keep[i]];
    }
    return new Centroid(clusterId, keptUsers, keptValues);
  }

  /** The cluster this centroid stands for. */
  public int clusterId() {
    return clusterId;
  }

  /** Cosine similarity to {@code movie}, in {@code [0, 1]}; zero if either vector is zero. */
  public double similarity(MovieRatings movie) {
    double dot = 0;
    double movieSquares = 0;
    for (int i = 0; i < movie.size(); i++) {
      int rating = movie.rating(i);
      movieSquares += rating * rating;
      int index = Arrays.binarySearch(users, movie.user(i));
      if (index >= 0) {
        dot += rating * values[index];
      }
    }
    if (dot == 0) {
      return 0;
    }
    return dot / (Math.sqrt(movieSquares) * norm);
  }

  /** Euclidean distance to {@code other}. */
  public double distance(Centroid other) {
    double squares = 0;
    int i = 0;
    int j = 0;
    while (i < users.length || j < other.users.length) {
      double difference;
      if (j == other.users.length || (i < users.length && users[i] < other.users[j])) {
        difference = values[i++];
      } else if (i == users.length || other.users[j] < users[i]) {
        difference = other.values[j++];
      } else {
        difference = values[i++] - other.values[j++];
      }
      squares += difference * difference;
    }
    return Math.sqrt(squares);
  }

  /** The text form described in the class comment. */
  public String format() {
    StringBuilder text = new StringBuilder(users.length * 12);
    for (int i = 0; i < users.length; i++) {
      if (i > 0) {
        text.append(',');
      }
      text.append(users[i]).append(':').append(values[i]);
    }
    return text.toString();
  }
}
