package org.mpcache.benchmarks.puma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** self-join on generated associations, against a plain-Java reference. */
class SelfJoinTest {
  @TempDir
  java.nio.file.Path dir;

  @Test
  void run_generatedRecords_emitsEveryPairOfDistinctLastFieldsPerPrefix() throws Exception {
    Configuration conf = LocalJobs.conf(2);
    Path input = LocalJobs.generate(conf, "self-join", dir.resolve("input"), 200_000, 3);
    Path output = LocalJobs.path(dir, "output");

    assertTrue(new SelfJoin().run(conf, input, output).success());

    Map<String, TreeSet<String>> groups = new TreeMap<>();
    for (String line : LocalJobs.lines(conf, input)) {
      int comma = line.lastIndexOf(',');
      groups.computeIfAbsent(line.substring(0, comma), p -> new TreeSet<>())
          .add(line.substring(comma + 1));
    }
    List<String> expected = new ArrayList<>();
    groups.forEach((prefix, lasts) -> {
      List<String> sorted = new ArrayList<>(lasts);
      for (int i = 0; i < sorted.size(); i++) {
        for (int j = i + 1; j < sorted.size(); j++) {
          expected.add(prefix + "," + sorted.get(i) + "," + sorted.get(j));
        }
      }
    });
    expected.sort(null);
    assertTrue(expected.size() > 1000, "generated prefixes should recur");
    List<String> actual = new ArrayList<>(LocalJobs.lines(conf, output));
    actual.sort(null);
    assertEquals(expected, actual);
  }
}
