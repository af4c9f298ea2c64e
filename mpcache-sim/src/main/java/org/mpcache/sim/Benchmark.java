package org.mpcache.sim;

import java.util.List;

/**
 * One of the 13 PUMA benchmarks as the paper's Table 1 describes it: input size per size class
 * {@code k} (GB per unit of k), data source, shuffle size and Map/Reduce times on Hadoop at
 * {@code k = 10}. Immutable.
 */
public final class Benchmark {
  /** Table 1, in its order. */
  public static final List<Benchmark> TABLE_1 = List.of(
      new Benchmark("grep", 4.3, "wikipedia", 6.9e-6, 222, 2),
      new Benchmark("histogram-ratings", 3, "netflix", 6.3e-5, 241, 5),
      new Benchmark("histogram-movies", 3, "netflix", 6.8e-5, 261, 5),
      new Benchmark("classification", 3, "netflix", 7.9e-3, 286, 5),
      new Benchmark("word-count", 4.3, "wikipedia", 0.318, 743, 22),
      new Benchmark("inverted-index", 4.3, "wikipedia", 0.363, 901, 6),
      new Benchmark("term-vector", 4.3, "wikipedia", 0.384, 1114, 81),
      new Benchmark("sequence-count", 4.3, "wikipedia", 0.737, 1135, 27),
      new Benchmark("k-means", 3, "netflix", 26.28, 450, 2660),
      new Benchmark("self-join", 3, "puma-I", 26.89, 286, 220),
      new Benchmark("adjacency-list", 3, "puma-II", 29.38, 1168, 1321),
      new Benchmark("ranked-inverted-index", 4.2, "puma-III", 42.45, 391, 857),
      new Benchmark("tera-sort", 3, "puma-IV", 31.96, 307, 481));

  final String name;
  final double inputGbPerK;
  final String source;
  final double shuffleGbAtK10;
  final double mapSecondsAtK10;
  final double reduceSecondsAtK10;

  Benchmark(String name, double inputGbPerK, String source, double shuffleGbAtK10,
      double mapSecondsAtK10, double reduceSecondsAtK10) {
    this.name = name;
    this.inputGbPerK = inputGbPerK;
    this.source = source;
    this.shuffleGbAtK10 = shuffleGbAtK10;
    this.mapSecondsAtK10 = mapSecondsAtK10;
    this.reduceSecondsAtK10 = reduceSecondsAtK10;
  }

  public String name() {
    return name;
  }
}
