package org.mpcache.benchmarks.puma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benchmarks reading movie ratings (histogram-ratings, histogram-movies, classification,
 * k-means), each checked against a plain-Java reference computed from the generated input.
 */
class MovieBenchmarksTest {
  private static final int CLUSTERS = 4;
  private static final int DIMENSIONS = 60;

  @TempDir
  static java.nio.file.Path dir;
  private static Configuration conf;
  private static Path input;
  private static List<Movie> movies;

  /** A parsed input line: ratings by user in line order. */
  private record Movie(int id, List<int[]> ratings) {
    double average() {
      return ratings.stream().mapToInt(r -> r[1]).sum() / (double) ratings.size();
    }
  }

  @BeforeAll
  static void generateInput() throws IOException {
    conf = LocalJobs.conf(2);
    conf.setInt(PumaConfigKeys.CLUSTERS_KEY, CLUSTERS);
    conf.setInt(PumaConfigKeys.CENTROID_DIMENSIONS_KEY, DIMENSIONS);
    input = LocalJobs.generate(conf, "movie-ratings", dir.resolve("input"), 400_000, 5);
    movies = new ArrayList<>();
    for (String line : LocalJobs.lines(conf, input)) {
      String[] idAndRatings = line.split(":");
      List<int[]> ratings = new ArrayList<>();
      for (String rating : idAndRatings[1].split(",")) {
        String[] userAndValue = rating.split("_");
        ratings.add(new int[] {Integer.parseInt(userAndValue[0]), Integer.parseInt(userAndValue[1])});
      }
      movies.add(new Movie(Integer.parseInt(idAndRatings[0]), ratings));
    }
  }

  @Test
  void histogramRatings_generatedRatings_countsEachRatingValue() throws Exception {
    Map<String, Long> expected = new TreeMap<>();
    for (Movie movie : movies) {
      for (int[] rating : movie.ratings()) {
        expected.merge(String.valueOf(rating[1]), 1L, Long::sum);
      }
    }
    assertEquals(5, expected.size(), "all five rating values should occur");

    assertEquals(expected, LocalJobs.counts(conf, run(new HistogramRatings(), "histogram-ratings")));
  }

  @Test
  void histogramMovies_generatedRatings_binsMoviesByAverageInHalfStars() throws Exception {
    Map<String, Long> expected = new TreeMap<>();
    for (Movie movie : movies) {
      expected.merge(String.format("%.1f", Math.floor(movie.average() * 2) / 2), 1L, Long::sum);
    }
    assertTrue(expected.size() >= 4, "movies should spread over several bins: " + expected);

    assertEquals(expected, LocalJobs.counts(conf, run(new HistogramMovies(), "histogram-movies")));
  }

  @Test
  void classification_firstMoviesAsCentroids_assignsEachMovieToMostSimilar() throws Exception {
    List<Map<Integer, Double>> centroids = new ArrayList<>();
    for (int c = 0; c < CLUSTERS; c++) {
      Map<Integer, Double> centroid = new HashMap<>();
      movies.get(c).ratings().forEach(r -> centroid.put(r[0], (double) r[1]));
      centroids.add(truncate(centroid));
    }
    Map<Integer, List<Integer>> members = assign(centroids);
    Map<String, String> expected = new TreeMap<>();
    members.forEach((cluster, ids) -> expected.put(String.valueOf(cluster), join(ids)));
    assertTrue(expected.size() > 1, "movies should fall into several clusters");

    assertEquals(expected, LocalJobs.keyValues(conf, run(new Classification(), "classification")));
  }

  @Test
  void kMeans_threeIterationsAtMost_matchesLloydsAlgorithm() throws Exception {
    Configuration kmeansConf = new Configuration(conf);
    kmeansConf.setInt(PumaConfigKeys.KMEANS_MAX_ITERATIONS_KEY, 3);
    List<Map<Integer, Double>> centroids = new ArrayList<>();
    for (int c = 0; c < CLUSTERS; c++) {
      Map<Integer, Double> centroid = new HashMap<>();
      movies.get(c).ratings().forEach(r -> centroid.put(r[0], (double) r[1]));
      centroids.add(truncate(centroid));
    }
    Map<Integer, List<Integer>> members = null;
    Map<Integer, Map<Integer, Double>> current = indexed(centroids);
    int iterations = 0;
    boolean converged = false;
    while (iterations < 3 && !converged) {
      iterations++;
      members = assign(new ArrayList<>(current.values()), new ArrayList<>(current.keySet()));
      Map<Integer, Map<Integer, Double>> next = new TreeMap<>();
      for (Map.Entry<Integer, List<Integer>> cluster : members.entrySet()) {
        Map<Integer, Long> sums = new HashMap<>();
        for (int id : cluster.getValue()) {
          movieById(id).ratings().forEach(r -> sums.merge(r[0], (long) r[1], Long::sum));
        }
        Map<Integer, Double> mean = new HashMap<>();
        int size = cluster.getValue().size();
        sums.forEach((user, sum) -> mean.put(user, (double) sum / size));
        next.put(cluster.getKey(), truncate(mean));
      }
      converged = next.keySet().equals(current.keySet()) && maxShift(current, next) <= 1e-3;
      current = next;
    }

    Path output = LocalJobs.path(dir, "k-means");
    PumaRun run = new KMeans().run(kmeansConf, input, output);

    assertTrue(run.success());
    assertEquals(iterations, run.jobs().size(), "iterations run");
    Map<String, String> expected = new TreeMap<>();
    for (Map.Entry<Integer, Map<Integer, Double>> centroid : current.entrySet()) {
      expected.put(String.valueOf(centroid.getKey()),
          format(centroid.getValue()) + "\t" + join(members.get(centroid.getKey())));
    }
    assertEquals(expected, LocalJobs.keyValues(conf, KMeans.iterationDir(output, iterations)));
  }

  private static Path run(PumaBenchmark benchmark, String name) throws Exception {
    Path output = LocalJobs.path(dir, name);
    assertTrue(benchmark.run(conf, input, output).success(), benchmark.name() + " failed");
    return output;
  }

  private static Map<Integer, List<Integer>> assign(List<Map<Integer, Double>> centroids) {
    List<Integer> ids = new ArrayList<>();
    for (int c = 0; c < centroids.size(); c++) {
      ids.add(c);
    }
    return assign(centroids, ids);
  }

  /** Nearest centroid by cosine similarity, ties to the lowest cluster id. */
  private static Map<Integer, List<Integer>> assign(List<Map<Integer, Double>> centroids,
      List<Integer> clusterIds) {
    Map<Integer, List<Integer>> members = new TreeMap<>();
    for (Movie movie : movies) {
      int best = -1;
      double bestSimilarity = -1;
      for (int c = 0; c < centroids.size(); c++) {
        double similarity = cosine(movie, centroids.get(c));
        if (similarity > bestSimilarity) {
          bestSimilarity = similarity;
          best = clusterIds.get(c);
        }
      }
      members.computeIfAbsent(best, b -> new ArrayList<>()).add(movie.id());
    }
    return members;
  }

  private static double cosine(Movie movie, Map<Integer, Double> centroid) {
    double dot = 0;
    double movieSquares = 0;
    for (int[] rating : movie.ratings()) {
      movieSquares += rating[1] * rating[1];
      Double value = centroid.get(rating[0]);
      if (value != null) {
        dot += rating[1] * value;
      }
    }
    if (dot == 0) {
      return 0;
    }
    double centroidSquares = 0;
    for (Map.Entry<Integer, Double> e : new TreeMap<>(centroid).entrySet()) {
      centroidSquares += e.getValue() * e.getValue();
    }
    return dot / (Math.sqrt(movieSquares) * Math.sqrt(centroidSquares));
  }

  /** Keeps the {@link #DIMENSIONS} users of highest value, ties to the lower user id. */
  private static Map<Integer, Double> truncate(Map<Integer, Double> vector) {
    return vector.entrySet().stream()
        .sorted(Comparator.<Map.Entry<Integer, Double>>comparingDouble(e -> -e.getValue())
            .thenComparingInt(Map.Entry::getKey))
        .limit(DIMENSIONS)
        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a,
            TreeMap::new));
  }

  private static Map<Integer, Map<Integer, Double>> indexed(List<Map<Integer, Double>> list) {
    Map<Integer, Map<Integer, Double>> byId = new TreeMap<>();
    for (int i = 0; i < list.size(); i++) {
      byId.put(i, list.get(i));
    }
    return byId;
  }

  private static double maxShift(Map<Integer, Map<Integer, Double>> before,
      Map<Integer, Map<Integer, Double>> after) {
    double shift = 0;
    for (Integer cluster : before.keySet()) {
      Map<Integer, Double> a = before.get(cluster);
      Map<Integer, Double> b = after.get(cluster);
      double squares = 0;
      for (Integer user : new java.util.TreeSet<>(union(a, b))) {
        double d = a.getOrDefault(user, 0.0) - b.getOrDefault(user, 0.0);
        squares += d * d;
      }
      shift = Math.max(shift, Math.sqrt(squares));
    }
    return shift;
  }

  private static List<Integer> union(Map<Integer, Double> a, Map<Integer, Double> b) {
    List<Integer> users = new ArrayList<>(a.keySet());
    users.addAll(b.keySet());
    return users;
  }

  private static Movie movieById(int id) {
    return movies.get(id - 1);
  }

  private static String format(Map<Integer, Double> centroid) {
    return new TreeMap<>(centroid).entrySet().stream()
        .map(e -> e.getKey() + ":" + e.getValue()).collect(Collectors.joining(","));
  }

  private static String join(List<Integer> ids) {
    return ids.stream().sorted().map(String::valueOf).collect(Collectors.joining(","));
  }
}
