package org.mpcache.benchmarks.puma;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The registry of the 13 PUMA benchmarks, in the order of the mpCache paper's Table 1, so that a
 * workload mix can name them and the harness can iterate over them.
 */
public final class PumaBenchmarks {
  private static final List<PumaBenchmark> ALL = List.of(
      new Grep(),
      new HistogramRatings(),
      new HistogramMovies(),
      new Classification(),
      new WordCount(),
      new InvertedIndex(),
      new TermVector(),
      new SequenceCount(),
      new KMeans(),
      new SelfJoin(),
      new AdjacencyList(),
      new RankedInvertedIndex(),
      new TeraSort());

  private PumaBenchmarks() {
  }

  /** All benchmarks in Table 1 order. */
  public static List<PumaBenchmark> all() {
    return ALL;
  }

  /** The names of all benchmarks in Table 1 order. */
  public static List<String> names() {
    return ALL.stream().map(PumaBenchmark::name).collect(Collectors.toList());
  }

  /**
   * The benchmark called {@code name}.
   *
   * @throws IllegalArgumentException listing the valid names if there is none
   */
  public static PumaBenchmark byName(String name) {
    for (PumaBenchmark benchmark : ALL) {
      if (benchmark.name().equals(name)) {
        return benchmark;
      }
    }
    throw new IllegalArgumentException("Unknown PUMA benchmark '" + name + "'. Valid names: "
        + String.join(", ", names()));
  }
}
