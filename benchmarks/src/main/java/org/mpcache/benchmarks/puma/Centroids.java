package org.mpcache.benchmarks.puma;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;

/**
 * The set of centroids that classification and k-means assign movies to, ordered by cluster id.
 * Drivers pass it to map tasks inside the job configuration (a few tens of kilobytes with the
 * default {@link PumaConfigKeys#CENTROID_DIMENSIONS_KEY}), so tasks need no side files; on disk, as
 * k-means writes it, each line is {@code clusterId TAB vector}, optionally followed by
 * {@code TAB members}.
 *
 * <p>Immutable and thread-safe.
 */
public final class Centroids {
  private static final String ENTRY_SEPARATOR = ";";
  private static final String ID_SEPARATOR = "|";

  private final List<Centroid> centroids;

  private Centroids(List<Centroid> centroids) {
    List<Centroid> sorted = new ArrayList<>(centroids);
    sorted.sort(Comparator.comparingInt(Centroid::clusterId));
    this.centroids = List.copyOf(sorted);
  }

  /** The given centroids, which must have distinct cluster ids. */
  public static Centroids of(List<Centroid> centroids) {
    return new Centroids(centroids);
  }

  /** The centroids in increasing cluster id. */
  public List<Centroid> asList() {
    return centroids;
  }

  /** The id of the cluster most similar to {@code movie}; ties go to the lowest id. */
  public int nearest(MovieRatings movie) {
    int best = centroids.get(0).clusterId();
    double bestSimilarity = -1;
    for (Centroid centroid : centroids) {
      double similarity = centroid.similarity(movie);
      if (similarity > bestSimilarity) {
        bestSimilarity = similarity;
        best = centroid.clusterId();
      }
    }
    return best;
  }

  /**
   * The largest distance any centroid moved between {@code this} and {@code next}; infinite if a
   * cluster exists in only one of them.
   */
  public double maxShift(Centroids next) {
    if (centroids.size() != next.centroids.size()) {
      return Double.POSITIVE_INFINITY;
    }
    double shift = 0;
    for (int i = 0; i < centroids.size(); i++) {
      Centroid before = centroids.get(i);
      Centroid after = next.centroids.get(i);
      if (before.clusterId() != after.clusterId()) {
        return Double.POSITIVE_INFINITY;
      }
      shift = Math.max(shift, before.distance(after));
    }
    return shift;
  }

  /** Stores the centroids in {@code conf} for map tasks to {@link #fromConf(Configuration)}. */
  public void toConf(Configuration conf) {
    StringBuilder value = new StringBuilder();
    for (Centroid centroid : centroids) {
      if (value.length() > 0) {
        value.append(ENTRY_SEPARATOR);
      }
      value.append(centroid.clusterId()).append(ID_SEPARATOR).append(centroid.format());
    }
    conf.set(PumaConfigKeys.CENTROIDS_KEY, value.toString());
  }

  /** The centroids a driver stored with {@link #toConf(Configuration)}. */
  public static Centroids fromConf(Configuration conf) {
    String value = conf.get(PumaConfigKeys.CENTROIDS_KEY);
    if (value == null || value.isEmpty()) {
      throw new IllegalStateException(PumaConfigKeys.CENTROIDS_KEY
          + " is not set; jobs that assign movies to clusters must be built by their driver");
    }
    List<Centroid> centroids = new ArrayList<>();
    for (String entry : value.split(ENTRY_SEPARATOR, -1)) {
      int bar = entry.indexOf(ID_SEPARATOR);
      centroids.add(Centroid.parse(Integer.parseInt(entry.substring(0, bar)),
          entry.substring(bar + 1)));
    }
    return new Centroids(centroids);
  }

  /**
   * Reads the centroid lines of every visible file in {@code dir} (or of {@code dir} itself if it is
   * a file); at least one line is required.
   */
  public static Centroids read(Configuration conf, Path dir) throws IOException {
    FileSystem fs = dir.getFileSystem(conf);
    List<Centroid> centroids = new ArrayList<>();
    for (Path file : visibleFiles(fs, dir)) {
      try (BufferedReader reader = open(fs, file)) {
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
          String[] fields = line.split("\t", -1);
          if (fields.length < 2) {
            throw new IOException("Not a centroid line in " + file + ": " + line);
          }
          centroids.add(Centroid.parse(Integer.parseInt(fields[0]), fields[1]));
        }
      }
    }
    if (centroids.isEmpty()) {
      throw new IOException("No centroids in " + dir);
    }
    return new Centroids(centroids);
  }

  /**
   * The first {@code k} movies of {@code input} as centroids of clusters {@code 0..k-1}: the
   * deterministic seeding both classification and k-means use when given no centroids. Files of a
   * directory are read in name order.
   *
   * @throws IOException if the input holds fewer than {@code k} movies
   */
  public static Centroids firstMovies(Configuration conf, Path input, int k, int dimensions)
      throws IOException {
    FileSystem fs = input.getFileSystem(conf);
    Map<Integer, Centroid> chosen = new TreeMap<>();
    for (Path file : visibleFiles(fs, input)) {
      try (BufferedReader reader = open(fs, file)) {
        for (String line = reader.readLine(); line != null && chosen.size() < k;
            line = reader.readLine()) {
          int id = chosen.size();
          chosen.put(id, Centroid.ofMovie(id, MovieRatings.parse(new Text(line)), dimensions));
        }
      }
      if (chosen.size() == k) {
        return new Centroids(new ArrayList<>(chosen.values()));
      }
    }
    throw new IOException("Input " + input + " holds " + chosen.size() + " movies, fewer than the "
        + k + " clusters asked for in " + PumaConfigKeys.CLUSTERS_KEY);
  }

  private static List<Path> visibleFiles(FileSystem fs, Path path) throws IOException {
    FileStatus status = fs.getFileStatus(path);
    if (status.isFile()) {
      return List.of(path);
    }
    FileStatus[] children = fs.listStatus(path,
        p -> !p.getName().startsWith("_") && !p.getName().startsWith("."));
    Arrays.sort(children, Comparator.comparing(s -> s.getPath().getName()));
    List<Path> files = new ArrayList<>();
    for (FileStatus child : children) {
      if (child.isFile()) {
        files.add(child.getPath());
      }
    }
    return files;
  }

  private static BufferedReader open(FileSystem fs, Path file) throws IOException {
    return new BufferedReader(new InputStreamReader(fs.open(file), StandardCharsets.UTF_8));
  }
}
