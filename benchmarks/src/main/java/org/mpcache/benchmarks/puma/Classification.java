package org.mpcache.benchmarks.puma;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * classification: assigns every movie to the most similar of a fixed set of centroids (cosine
 * similarity of ratings vectors, see {@link Centroid}). The centroids come from
 * {@link PumaConfigKeys#CLASSIFICATION_CENTROIDS_KEY} or else are the first
 * {@link PumaConfigKeys#CLUSTERS_KEY} movies of the input. Map emits {@code (clusterId, movieId)};
 * reduce lists each cluster's movies. Output: {@code clusterId TAB movieId,movieId,...} in
 * increasing movie id. Shuffle-light: a movie's whole ratings line shrinks to its id.
 */
public final class Classification extends SingleJobBenchmark {

  /** The benchmark as Table 1 lists it. */
  public Classification() {
    super("classification", ShuffleClass.LIGHT);
  }

  @Override
  public Job createJob(Configuration conf, Path input, Path output) throws IOException {
    Job job = newTextJob(conf, input, output, ClassifyMapper.class, MembersReducer.class);
    centroids(conf, input).toConf(job.getConfiguration());
    job.setMapOutputKeyClass(IntWritable.class);
    job.setMapOutputValueClass(IntWritable.class);
    job.setOutputKeyClass(IntWritable.class);
    job.setOutputValueClass(Text.class);
    return job;
  }

  private static Centroids centroids(Configuration conf, Path input) throws IOException {
    String given = conf.get(PumaConfigKeys.CLASSIFICATION_CENTROIDS_KEY);
    if (given != null) {
      return Centroids.read(conf, new Path(given));
    }
    return Centroids.firstMovies(conf, input,
        conf.getInt(PumaConfigKeys.CLUSTERS_KEY, PumaConfigKeys.CLUSTERS_DEFAULT),
        conf.getInt(PumaConfigKeys.CENTROID_DIMENSIONS_KEY,
            PumaConfigKeys.CENTROID_DIMENSIONS_DEFAULT));
  }

  /** Emits {@code (nearest cluster, movieId)} per movie. */
  public static final class ClassifyMapper extends CentroidMapper<IntWritable> {
    private final IntWritable cluster = new IntWritable();
    private final IntWritable movieId = new IntWritable();

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      MovieRatings movie = MovieRatings.parse(line);
      cluster.set(centroids().nearest(movie));
      movieId.set(movie.movieId());
      context.write(cluster, movieId);
    }
  }

  /** Lists the movies of a cluster in increasing id. */
  public static final class MembersReducer extends Reducer<IntWritable, IntWritable, IntWritable, Text> {
    private final Text members = new Text();

    @Override
    protected void reduce(IntWritable cluster, Iterable<IntWritable> movies, Context context)
        throws IOException, InterruptedException {
      List<Integer> ids = new ArrayList<>();
      for (IntWritable movie : movies) {
        ids.add(movie.get());
      }
      members.set(MovieIdList.format(ids));
      context.write(cluster, members);
    }
  }
}
