package org.mpcache.benchmarks.puma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ranked-inverted-index on generated sequence-count output, against a plain-Java reference. */
class RankedInvertedIndexTest {
  @TempDir
  java.nio.file.Path dir;

  @Test
  void run_generatedSequenceCounts_ranksHostsByDecreasingCountThenName() throws Exception {
    Configuration conf = LocalJobs.conf(3);
    Path input = LocalJobs.generate(conf, "sequence-counts", dir.resolve("input"), 300_000, 11);
    Path output = LocalJobs.path(dir, "output");

    assertTrue(new RankedInvertedIndex().run(conf, input, output).success());

    Map<String, String> expected = reference(LocalJobs.lines(conf, input));
    assertTrue(expected.values().stream().anyMatch(v -> v.contains(",")),
        "some sequences should be used on several hosts");
    assertEquals(expected, LocalJobs.keyValues(conf, output));
  }

  /**
   * Expected output for input lines {@code sequence TAB host TAB count}: per sequence, the
   * {@code host:count} postings by decreasing count, then host.
   */
  static Map<String, String> reference(List<String> lines) {
    Map<String, List<String[]>> postings = new TreeMap<>();
    for (String line : lines) {
      String[] fields = line.split("\t");
      postings.computeIfAbsent(fields[0], s -> new ArrayList<>())
          .add(new String[] {fields[1], fields[2]});
    }
    Map<String, String> expected = new TreeMap<>();
    postings.forEach((sequence, list) -> {
      list.sort((a, b) -> {
        int byCount = Long.compare(Long.parseLong(b[1]), Long.parseLong(a[1]));
        return byCount != 0 ? byCount : a[0].compareTo(b[0]);
      });
      StringBuilder ranking = new StringBuilder();
      for (String[] posting : list) {
        ranking.append(ranking.length() == 0 ? "" : ",").append(posting[0]).append(':')
            .append(posting[1]);
      }
      expected.put(sequence, ranking.toString());
    });
    return expected;
  }
}
