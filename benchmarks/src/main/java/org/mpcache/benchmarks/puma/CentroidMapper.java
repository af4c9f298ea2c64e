package org.mpcache.benchmarks.puma;

import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;

/**
 * Base of the mappers that assign each movie of the ratings input to its nearest centroid
 * (classification and k-means); it loads the centroids the driver put in the job configuration.
 *
 * @param <V> the value emitted with the cluster id
 */
public abstract class CentroidMapper<V> extends Mapper<LongWritable, Text, IntWritable, V> {
  private Centroids centroids;

  @Override
  protected void setup(Context context) {
    centroids = Centroids.fromConf(context.getConfiguration());
  }

  /** The centroids loaded in {@link #setup(Context)}. */
  protected final Centroids centroids() {
    return centroids;
  }
}
