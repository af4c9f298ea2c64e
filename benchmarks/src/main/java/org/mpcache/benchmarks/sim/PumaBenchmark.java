package org.mpcache.benchmarks.sim;

/**
 * The 13 PUMA benchmarks of the mpCache paper's Table 1: input size per k (GB), data source, and
 * at k = 10 the map and reduce task counts, shuffle size (GB) and Map and Reduce phase times on
 * plain Hadoop (seconds, on the paper's seven-node cluster). Benchmarks reading the same data
 * source at the same k read the same dataset.
 */
public enum PumaBenchmark {
  GREP("grep", 4.3, "wikipedia", 688, 40, 6.9e-6, 222, 2),
  HISTOGRAM_RATINGS("histogram-ratings", 3, "netflix", 480, 40, 6.3e-5, 241, 5),
  HISTOGRAM_MOVIES("histogram-movies", 3, "netflix", 480, 40, 6.8e-5, 261, 5),
  CLASSIFICATION("classification", 3, "netflix", 480, 40, 7.9e-3, 286, 5),
  WORD_COUNT("word-count", 4.3, "wikipedia", 688, 40, 0.318, 743, 22),
  INVERTED_INDEX("inverted-index", 4.3, "wikipedia", 688, 40, 0.363, 901, 6),
  TERM_VECTOR("term-vector", 4.3, "wikipedia", 688, 40, 0.384, 1114, 81),
  SEQUENCE_COUNT("sequence-count", 4.3, "wikipedia", 688, 40, 0.737, 1135, 27),
  K_MEANS("k-means", 3, "netflix", 480, 4, 26.28, 450, 2660),
  SELF_JOIN("self-join", 3, "puma-I", 480, 40, 26.89, 286, 220),
  ADJACENCY_LIST("adjacency-list", 3, "puma-II", 480, 40, 29.38, 1168, 1321),
  RANKED_INVERTED_INDEX("ranked-inverted-index", 4.2, "puma-III", 672, 40, 42.45, 391, 857),
  TERA_SORT("tera-sort", 3, "puma-IV", 480, 40, 31.96, 307, 481);

  /** The k at which Table 1's task counts, shuffle sizes and times were measured. */
  public static final int TABLE_K = 10;
  /** The paper's cluster size, which Table 1's times were measured on. */
  public static final int TABLE_NODES = 7;
  /** Cores per node of the paper's cluster (two eight-core Xeons). */
  public static final int TABLE_CORES = 16;

  private final String label;
  private final double gbPerK;
  private final String source;
  private final int maps;
  private final int reduces;
  private final double shuffleGb;
  private final double mapSeconds;
  private final double reduceSeconds;

  PumaBenchmark(String label, double gbPerK, String source, int maps, int reduces,
      double shuffleGb, double mapSeconds, double reduceSeconds) {
    this.label = label;
    this.gbPerK = gbPerK;
    this.source = source;
    this.maps = maps;
    this.reduces = reduces;
    this.shuffleGb = shuffleGb;
    this.mapSeconds = mapSeconds;
    this.reduceSeconds = reduceSeconds;
  }

  public String label() {
    return label;
  }

  /** Input size in GB at k = 1. */
  public double gbPerK() {
    return gbPerK;
  }

  public String source() {
    return source;
  }

  public int maps() {
    return maps;
  }

  public int reduces() {
    return reduces;
  }

  /** Shuffle size in GB at k = {@value #TABLE_K}. */
  public double shuffleGb() {
    return shuffleGb;
  }

  /** Map phase seconds on Hadoop at k = {@value #TABLE_K}. */
  public double mapSeconds() {
    return mapSeconds;
  }

  /** Reduce phase seconds on Hadoop at k = {@value #TABLE_K}. */
  public double reduceSeconds() {
    return reduceSeconds;
  }
}
