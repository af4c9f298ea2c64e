package org.mpcache.benchmarks.puma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** adjacency-list on a generated power-law graph, against a plain-Java reference. */
class AdjacencyListTest {
  @TempDir
  java.nio.file.Path dir;

  @Test
  void run_generatedEdges_listsSortedDistinctInAndOutNeighbours() throws Exception {
    Configuration conf = LocalJobs.conf(3);
    Path input = LocalJobs.generate(conf, "graph-edges", dir.resolve("input"), 200_000, 9);
    Path output = LocalJobs.path(dir, "output");

    assertTrue(new AdjacencyList().run(conf, input, output).success());

    Map<Long, TreeSet<Long>> in = new TreeMap<>();
    Map<Long, TreeSet<Long>> out = new TreeMap<>();
    for (String line : LocalJobs.lines(conf, input)) {
      String[] edge = line.split("\t");
      long source = Long.parseLong(edge[0]);
      long target = Long.parseLong(edge[1]);
      out.computeIfAbsent(source, n -> new TreeSet<>()).add(target);
      in.computeIfAbsent(target, n -> new TreeSet<>()).add(source);
      in.computeIfAbsent(source, n -> new TreeSet<>());
      out.computeIfAbsent(target, n -> new TreeSet<>());
    }
    Map<String, String> expected = new TreeMap<>();
    for (Long node : in.keySet()) {
      expected.put(String.valueOf(node), join(in.get(node)) + "|" + join(out.get(node)));
    }
    assertTrue(in.values().stream().mapToInt(TreeSet::size).max().getAsInt() > 50,
        "the graph should have a hub");
    assertEquals(expected, LocalJobs.keyValues(conf, output));
  }

  private static String join(TreeSet<Long> ids) {
    return ids.stream().map(String::valueOf).collect(Collectors.joining(","));
  }
}
