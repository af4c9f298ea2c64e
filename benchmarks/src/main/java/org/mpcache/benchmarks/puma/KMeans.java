package org.mpcache.benchmarks.puma;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * k-means: clusters movies by their ratings with Lloyd's algorithm, one MapReduce job per
 * iteration. The first {@link PumaConfigKeys#CLUSTERS_KEY} movies of the input seed the centroids.
 * Each iteration's map assigns every movie to its most similar centroid (see {@link Centroid}) and
 * emits {@code (clusterId, whole ratings line)}, which is why k-means is shuffle-heavy; reduce
 * averages the cluster's movies into its new centroid. The driver stops when no centroid moved by
 * more than {@link PumaConfigKeys#KMEANS_CONVERGENCE_DELTA_KEY} or after
 * {@link PumaConfigKeys#KMEANS_MAX_ITERATIONS_KEY} iterations. A cluster no movie chose is dropped,
 * as in plain Lloyd's algorithm.
 *
 * <p>Output: iteration {@code i} writes {@link #iterationDir(Path, int)}, lines
 * {@code clusterId TAB centroid TAB movieId,movieId,...}; the last of them is the result.
 */
public final class KMeans implements PumaBenchmark {

  @Override
  public String name() {
    return "k-means";
  }

  @Override
  public ShuffleClass shuffleClass() {
    return ShuffleClass.HEAVY;
  }

  /** Where iteration {@code iteration} (from 1) writes its centroids and members. */
  public static Path iterationDir(Path output, int iteration) {
    return new Path(output, String.format("iteration-%02d", iteration));
  }

  @Override
  public PumaRun run(Configuration conf, Path input, Path output)
      throws IOException, InterruptedException {
    int maxIterations = conf.getInt(PumaConfigKeys.KMEANS_MAX_ITERATIONS_KEY,
        PumaConfigKeys.KMEANS_MAX_ITERATIONS_DEFAULT);
    double delta = conf.getDouble(PumaConfigKeys.KMEANS_CONVERGENCE_DELTA_KEY,
        PumaConfigKeys.KMEANS_CONVERGENCE_DELTA_DEFAULT);
    if (maxIterations < 1) {
      throw new IllegalArgumentException(PumaConfigKeys.KMEANS_MAX_ITERATIONS_KEY + " is "
          + maxIterations + "; set it to 1 or more");
    }
    Centroids centroids = Centroids.firstMovies(conf, input,
        conf.getInt(PumaConfigKeys.CLUSTERS_KEY, PumaConfigKeys.CLUSTERS_DEFAULT),
        conf.getInt(PumaConfigKeys.CENTROID_DIMENSIONS_KEY,
            PumaConfigKeys.CENTROID_DIMENSIONS_DEFAULT));
    List<Job> jobs = new ArrayList<>();
    for (int iteration = 1; iteration <= maxIterations; iteration++) {
      Path iterationOutput = iterationDir(output, iteration);
      Job job = createIterationJob(conf, input, iterationOutput, centroids);
      jobs.add(job);
      if (!PumaJobs.await(job)) {
        break;
      }
      Centroids next = Centroids.read(conf, iterationOutput);
      boolean converged = centroids.maxShift(next) <= delta;
      centroids = next;
      if (converged) {
        break;
      }
    }
    return PumaRun.of(jobs);
  }

  /** The job of one iteration, assigning movies to {@code centroids}. */
  public Job createIterationJob(Configuration conf, Path input, Path output, Centroids centroids)
      throws IOException {
    Job job = PumaJobs.textJob(conf, "puma-" + name() + "-" + output.getName(), input, output,
        AssignMapper.class, RecentreReducer.class);
    centroids.toConf(job.getConfiguration());
    job.setMapOutputKeyClass(IntWritable.class);
    job.setMapOutputValueClass(Text.class);
    job.setOutputKeyClass(IntWritable.class);
    job.setOutputValueClass(Text.class);
    return job;
  }

  /** Emits {@code (nearest cluster, ratings line)} per movie. */
  public static final class AssignMapper extends CentroidMapper<Text> {
    private final IntWritable cluster = new IntWritable();

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      cluster.set(centroids().nearest(MovieRatings.parse(line)));
      context.write(cluster, line);
    }
  }

  /** Averages a cluster's movies into its new centroid and lists the members. */
  public static final class RecentreReducer extends Reducer<IntWritable, Text, IntWritable, Text> {
    private final Text result = new Text();
    private int dimensions;

    @Override
    protected void setup(Context context) {
      dimensions = context.getConfiguration().getInt(PumaConfigKeys.CENTROID_DIMENSIONS_KEY,
          PumaConfigKeys.CENTROID_DIMENSIONS_DEFAULT);
    }

    @Override
    protected void reduce(IntWritable cluster, Iterable<Text> lines, Context context)
        throws IOException, InterruptedException {
      Map<Integer, Long> sums = new HashMap<>();
      List<Integer> members = new ArrayList<>();
      for (Text line : lines) {
        MovieRatings movie = MovieRatings.parse(line);
        members.add(movie.movieId());
        for (int i = 0; i < movie.size(); i++) {
          sums.merge(movie.user(i), (long) movie.rating(i), Long::sum);
        }
      }
      int[] users = new int[sums.size()];
      long[] totals = new long[sums.size()];
      int i = 0;
      for (Map.Entry<Integer, Long> entry : sums.entrySet()) {
        users[i] = entry.getKey();
        totals[i++] = entry.getValue();
      }
      Centroid centroid = Centroid.mean(cluster.get(), users, totals, members.size(), dimensions);
      result.set(centroid.format() + '\t' + MovieIdList.format(members));
      context.write(cluster, result);
    }
  }
}
