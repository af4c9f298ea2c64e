package org.mpcache.benchmarks.puma;

/**
 * Configuration keys of the PUMA benchmarks, as KEY/DEFAULT pairs. The number of reduce tasks is
 * Hadoop's own {@code mapreduce.job.reduces}; everything here is specific to one benchmark. Every key is
 * described in {@value #DEFAULT_RESOURCE}.
 */
public final class PumaConfigKeys {

  /** The defaults file describing these keys, on the classpath in this module's jar. */
  public static final String DEFAULT_RESOURCE = "mpcache-benchmarks-default.xml";
  /** Java regular expression grep counts the matches of. */
  public static final String GREP_PATTERN_KEY = "mpcache.puma.grep.pattern";
  /**
   * Matches words starting with "vuv": in generated text about 0.03% of the words, a few dozen
   * distinct ones (measured on 100 MB with seed 42: 5,322 matches of 77 words).
   */
  public static final String GREP_PATTERN_DEFAULT = "\\bvuv[a-z]*";

  /** Least number of occurrences of a word on a host for term-vector to keep it. */
  public static final String TERM_VECTOR_MIN_COUNT_KEY = "mpcache.puma.term-vector.min.count";
  public static final int TERM_VECTOR_MIN_COUNT_DEFAULT = 10;

  /** Number of clusters of k-means, and of predefined clusters of classification. */
  public static final String CLUSTERS_KEY = "mpcache.puma.clusters";
  public static final int CLUSTERS_DEFAULT = 4;

  /**
   * Most users a centroid keeps (those of highest mean rating), bounding the size of the centroid
   * file every map task loads.
   */
  public static final String CENTROID_DIMENSIONS_KEY = "mpcache.puma.centroid.dimensions";
  public static final int CENTROID_DIMENSIONS_DEFAULT = 1_000;

  /**
   * Centroid file or directory for classification, in the format k-means writes (see
   * {@link Centroids}). When unset, the first {@link #CLUSTERS_KEY} movies of the input are the
   * centroids.
   */
  public static final String CLASSIFICATION_CENTROIDS_KEY = "mpcache.puma.classification.centroids";

  /** Most k-means iterations (jobs) before the driver stops without convergence. */
  public static final String KMEANS_MAX_ITERATIONS_KEY = "mpcache.puma.k-means.max.iterations";
  public static final int KMEANS_MAX_ITERATIONS_DEFAULT = 5;

  /**
   * k-means has converged when no centroid moved by more than this Euclidean distance in one
   * iteration.
   */
  public static final String KMEANS_CONVERGENCE_DELTA_KEY = "mpcache.puma.k-means.convergence.delta";
  public static final double KMEANS_CONVERGENCE_DELTA_DEFAULT = 1e-3;

  /** Keys tera-sort samples from its input to choose the reduce partitions' boundaries. */
  public static final String TERA_SORT_SAMPLES_KEY = "mpcache.puma.tera-sort.samples";
  public static final int TERA_SORT_SAMPLES_DEFAULT = 10_000;

  /** Set by the drivers, not by users: the centroids map tasks assign movies to. */
  static final String CENTROIDS_KEY = "mpcache.puma.centroids";

  private PumaConfigKeys() {
  }
}
