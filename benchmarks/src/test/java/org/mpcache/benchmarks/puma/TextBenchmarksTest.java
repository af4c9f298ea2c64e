package org.mpcache.benchmarks.puma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benchmarks reading Wikipedia-like text (grep, word-count, inverted-index, term-vector,
 * sequence-count), each checked against a plain-Java reference computed from the generated input.
 */
class TextBenchmarksTest {
  private static final Pattern WORD = Pattern.compile("[A-Za-z0-9]+");

  @TempDir
  static java.nio.file.Path dir;
  private static Configuration conf;
  private static Path input;
  private static List<Document> documents;

  private record Document(String host, List<String> words) {
  }

  @BeforeAll
  static void generateInput() throws IOException {
    conf = LocalJobs.conf(2);
    input = LocalJobs.generate(conf, "wikipedia", dir.resolve("input"), 400_000, 7);
    documents = new ArrayList<>();
    for (String line : LocalJobs.lines(conf, input)) {
      String[] fields = line.split("\t", 3);
      List<String> words = new ArrayList<>();
      Matcher matcher = WORD.matcher(fields[2]);
      while (matcher.find()) {
        words.add(matcher.group().toLowerCase());
      }
      documents.add(new Document(fields[0], words));
    }
  }

  @Test
  void grep_customPattern_countsEveryMatchOfWholeLines() throws Exception {
    Configuration grepConf = new Configuration(conf);
    grepConf.set(PumaConfigKeys.GREP_PATTERN_KEY, "\\bba[a-z]*");
    Map<String, Long> expected = new TreeMap<>();
    Pattern pattern = Pattern.compile("\\bba[a-z]*");
    for (String line : LocalJobs.lines(conf, input)) {
      Matcher matcher = pattern.matcher(line);
      while (matcher.find()) {
        expected.merge(matcher.group(), 1L, Long::sum);
      }
    }
    assertTrue(expected.size() > 10, "pattern should match several words");

    assertEquals(expected, counts(run(new Grep(), grepConf, "grep")));
  }

  @Test
  void wordCount_generatedText_countsEveryWordOfTheTextFields() throws Exception {
    Map<String, Long> expected = new TreeMap<>();
    for (Document document : documents) {
      for (String word : document.words()) {
        expected.merge(word, 1L, Long::sum);
      }
    }

    assertEquals(expected, counts(run(new WordCount(), conf, "word-count")));
  }

  @Test
  void invertedIndex_generatedText_listsSortedDistinctHostsPerWord() throws Exception {
    Map<String, TreeSet<String>> hosts = new TreeMap<>();
    for (Document document : documents) {
      for (String word : document.words()) {
        hosts.computeIfAbsent(word, w -> new TreeSet<>()).add(document.host());
      }
    }
    Map<String, String> expected = new TreeMap<>();
    hosts.forEach((word, set) -> expected.put(word, String.join(",", set)));
    assertTrue(expected.values().stream().anyMatch(list -> list.contains(",")),
        "some words should appear on several hosts");

    assertEquals(expected, keyValues(run(new InvertedIndex(), conf, "inverted-index")));
  }

  @Test
  void termVector_generatedText_keepsWordsAtLeastMinCountByDecreasingCount() throws Exception {
    Map<String, Map<String, Long>> perHost = new TreeMap<>();
    for (Document document : documents) {
      Map<String, Long> counts = perHost.computeIfAbsent(document.host(), h -> new HashMap<>());
      for (String word : document.words()) {
        counts.merge(word, 1L, Long::sum);
      }
    }
    Map<String, String> expected = new TreeMap<>();
    perHost.forEach((host, counts) -> {
      List<Map.Entry<String, Long>> frequent = new ArrayList<>();
      counts.entrySet().stream().filter(e -> e.getValue() >= 10).forEach(frequent::add);
      frequent.sort((a, b) -> a.getValue().equals(b.getValue())
          ? a.getKey().compareTo(b.getKey()) : Long.compare(b.getValue(), a.getValue()));
      if (!frequent.isEmpty()) {
        StringBuilder vector = new StringBuilder();
        for (Map.Entry<String, Long> e : frequent) {
          vector.append(vector.length() == 0 ? "" : ",").append(e.getKey()).append(':')
              .append(e.getValue());
        }
        expected.put(host, vector.toString());
      }
    });
    assertTrue(expected.size() > 5, "several hosts should have frequent words");

    assertEquals(expected, keyValues(run(new TermVector(), conf, "term-vector")));
  }

  @Test
  void sequenceCount_generatedText_countsThreeWordWindowsPerHost() throws Exception {
    assertEquals(referenceSequenceCounts(documents),
        counts(run(new SequenceCount(), conf, "sequence-count")));
  }

  /** Sequence-count's expected output, keyed by {@code "w1 w2 w3 TAB host"}. */
  static Map<String, Long> referenceSequenceCounts(List<Document> documents) {
    Map<String, Long> expected = new TreeMap<>();
    for (Document document : documents) {
      List<String> words = document.words();
      for (int i = 0; i + 2 < words.size(); i++) {
        expected.merge(words.get(i) + " " + words.get(i + 1) + " " + words.get(i + 2) + "\t"
            + document.host(), 1L, Long::sum);
      }
    }
    return expected;
  }

  @Test
  void rankedInvertedIndex_sequenceCountOutput_ranksHostsOfEachSequence() throws Exception {
    Path counted = run(new SequenceCount(), conf, "chained-sequence-count");
    Path output = LocalJobs.path(dir, "chained-ranked");
    assertTrue(new RankedInvertedIndex().run(conf, counted, output).success());

    assertEquals(RankedInvertedIndexTest.reference(
            referenceSequenceCounts(documents).entrySet().stream()
                .map(e -> e.getKey() + "\t" + e.getValue()).toList()),
        keyValues(output));
  }

  private static Path run(PumaBenchmark benchmark, Configuration jobConf, String name)
      throws Exception {
    Path output = LocalJobs.path(dir, name);
    PumaRun run = benchmark.run(jobConf, input, output);
    assertTrue(run.success(), benchmark.name() + " failed");
    assertFalse(LocalJobs.lines(conf, output).isEmpty(), benchmark.name() + " wrote nothing");
    return output;
  }

  private static Map<String, Long> counts(Path output) throws IOException {
    return LocalJobs.counts(conf, output);
  }

  private static Map<String, String> keyValues(Path output) throws IOException {
    return LocalJobs.keyValues(conf, output);
  }
}
