package org.mpcache.benchmarks.puma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.mpcache.benchmarks.datagen.DatasetKind;

/** The registry lists Table 1's benchmarks, classes and inputs. */
class PumaBenchmarksTest {

  @Test
  void names_always_followTable1Order() {
    assertEquals(List.of("grep", "histogram-ratings", "histogram-movies", "classification",
        "word-count", "inverted-index", "term-vector", "sequence-count", "k-means", "self-join",
        "adjacency-list", "ranked-inverted-index", "tera-sort"), PumaBenchmarks.names());
  }

  @Test
  void shuffleClass_everyBenchmark_matchesTable1() {
    Map<ShuffleClass, List<String>> byClass = PumaBenchmarks.all().stream().collect(
        Collectors.groupingBy(PumaBenchmark::shuffleClass,
            Collectors.mapping(PumaBenchmark::name, Collectors.toList())));

    assertEquals(List.of("grep", "histogram-ratings", "histogram-movies", "classification"),
        byClass.get(ShuffleClass.LIGHT));
    assertEquals(List.of("word-count", "inverted-index", "term-vector", "sequence-count"),
        byClass.get(ShuffleClass.MEDIUM));
    assertEquals(List.of("k-means", "self-join", "adjacency-list", "ranked-inverted-index",
        "tera-sort"), byClass.get(ShuffleClass.HEAVY));
  }

  @Test
  void byName_knownName_returnsThatBenchmark() {
    for (PumaBenchmark benchmark : PumaBenchmarks.all()) {
      assertSame(benchmark, PumaBenchmarks.byName(benchmark.name()));
    }
  }

  @Test
  void byName_unknownName_throwsListingValidNames() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> PumaBenchmarks.byName("ranked-inverted-count"));

    assertTrue(e.getMessage().contains("ranked-inverted-count"), e.getMessage());
    for (String name : PumaBenchmarks.names()) {
      assertTrue(e.getMessage().contains(name), "message should list " + name);
    }
  }

  @Test
  void inputKind_everyBenchmark_isTheKindListingItAsConsumer() {
    int consumers = 0;
    for (DatasetKind kind : DatasetKind.values()) {
      for (String name : kind.consumers()) {
        assertEquals(kind, PumaBenchmarks.byName(name).inputKind());
        consumers++;
      }
    }
    assertEquals(PumaBenchmarks.all().size(), consumers);
  }
}
