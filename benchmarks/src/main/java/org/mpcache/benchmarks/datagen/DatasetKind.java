package org.mpcache.benchmarks.datagen;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The kinds of synthetic input the PUMA benchmarks read, after the data sources of the mpCache
 * paper's Table 1 (wikipedia, netflix data, puma-I to puma-IV). Each kind names its generator and
 * the benchmarks that consume it; the benchmark registry relies on this list to find a benchmark's
 * input, and a test keeps the two consistent.
 */
public enum DatasetKind {
  /** Wikipedia-like documents grouped by host; see {@link WikipediaTextGenerator}. */
  WIKIPEDIA_TEXT("wikipedia", WikipediaTextGenerator::new,
      "grep", "word-count", "inverted-index", "term-vector", "sequence-count"),
  /** Netflix-style movie ratings; see {@link MovieRatingsGenerator}. */
  MOVIE_RATINGS("movie-ratings", MovieRatingsGenerator::new,
      "histogram-ratings", "histogram-movies", "classification", "k-means"),
  /** Associations for self-join (the paper's puma-I); see {@link SelfJoinGenerator}. */
  SELF_JOIN_RECORDS("self-join-records", SelfJoinGenerator::new, "self-join"),
  /** Power-law graph edges (puma-II); see {@link GraphEdgeGenerator}. */
  GRAPH_EDGES("graph-edges", GraphEdgeGenerator::new, "adjacency-list"),
  /** Sequence-count output (puma-III); see {@link SequenceCountGenerator}. */
  SEQUENCE_COUNTS("sequence-counts", SequenceCountGenerator::new, "ranked-inverted-index"),
  /** 100-byte TeraGen-style records (puma-IV); see {@link TeraRecordGenerator}. */
  TERA_RECORDS("tera-records", TeraRecordGenerator::new, "tera-sort");

  private final String kindName;
  private final Supplier<DatasetGenerator> generator;
  private final List<String> consumers;

  DatasetKind(String kindName, Supplier<DatasetGenerator> generator, String... consumers) {
    this.kindName = kindName;
    this.generator = generator;
    this.consumers = List.of(consumers);
  }

  /** The name used on command lines, such as {@code movie-ratings}. */
  public String kindName() {
    return kindName;
  }

  /** A new generator for this kind. */
  public DatasetGenerator generator() {
    return generator.get();
  }

  /** Names of the benchmarks that read this kind of input. */
  public List<String> consumers() {
    return consumers;
  }

  /**
   * Resolves a dataset kind name or a benchmark name, case-insensitively.
   *
   * @throws IllegalArgumentException naming the valid kinds and benchmarks if nothing matches
   */
  public static DatasetKind resolve(String name) {
    String wanted = name.toLowerCase(Locale.ROOT);
    for (DatasetKind kind : values()) {
      if (kind.kindName.equals(wanted) || kind.consumers.contains(wanted)) {
        return kind;
      }
    }
    String valid = Arrays.stream(values())
        .map(k -> k.kindName + " (" + String.join(", ", k.consumers) + ")")
        .collect(Collectors.joining("; "));
    throw new IllegalArgumentException(
        "Unknown dataset kind or benchmark '" + name + "'. Valid dataset kinds (benchmarks): " + valid);
  }
}
