package org.mpcache.benchmarks.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import java.awt.image.BufferedImage;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.apache.hadoop.fs.FileUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.mpcache.benchmarks.puma.PumaBenchmarks;

/**
 * End to end: the harness runs a tiny mix (grep, then word-count over the same dataset) twice in
 * the hadoop, mpcache and ssd-lru modes on the embedded cluster, interleaving the modes per
 * repetition, and the CSV, JSON, summary and plots it writes agree with each other: a row per
 * job, mode and repetition, statistics that are the means of those rows, error-bar fields. No
 * timing is asserted.
 */
@Timeout(1200)
class EvalHarnessTest {
  private static final long MB = 1L << 20;
  private static final File ROOT = new File("target/eval-it").getAbsoluteFile();

  @Test
  void runAll_tinyMixTwoRepetitionsThreeModes_writesConsistentResults() throws Exception {
    FileUtil.fullyDelete(ROOT);
    List<MixJob> mix = List.of(
        new MixJob(0, PumaBenchmarks.byName("grep"), 1, 3 * MB),
        new MixJob(1, PumaBenchmarks.byName("word-count"), 1, 3 * MB));
    EvalHarness.Settings settings = new EvalHarness.Settings(2, MB, 32 * MB, 2048, "lfu-f", 1,
        1, 7, false);
    List<String> events = new ArrayList<>();
    EvalHarness.Listener listener = new EvalHarness.Listener() {
      @Override
      public void runStarted(String run, int repetition, int jobs) {
        events.add("run " + run + " " + repetition);
      }

      @Override
      public void jobStarted(String run, MixJob job) {
      }

      @Override
      public void jobFinished(JobResult result) {
      }

      @Override
      public void notice(String message) {
        events.add("notice " + message);
      }
    };
    try (TierLayout tiers = new PlainTiers(new File(ROOT, "tiers"), "test")) {
      EvalHarness harness = new EvalHarness(settings, tiers, new File(ROOT, "work"), listener);
      List<JobResult> results = harness.runAll(List.of(
          new EvalHarness.Run(EvalMode.HADOOP, 64 * MB),
          new EvalHarness.Run(EvalMode.MPCACHE, 64 * MB),
          new EvalHarness.Run(EvalMode.SSD_LRU, 64 * MB)), mix, 2);
      assertThat(new File(ROOT, "work/hadoop")).doesNotExist();
      EvalReport report = new EvalReport(results, tiers.figures(), List.of());
      Path out = ROOT.toPath().resolve("results");
      List<Path> plots = report.write(out);

      assertThat(events).containsSubsequence("run hadoop 1", "run mpcache-64mb 1",
          "run ssd-lru-64mb 1", "run hadoop 2", "run mpcache-64mb 2", "run ssd-lru-64mb 2");
      assertThat(results).hasSize(12).allMatch(JobResult::success);
      for (JobResult r : results) {
        boolean cached = !r.mode().equals("hadoop");
        assertThat(r.cacheTier()).isEqualTo(cached ? "ssd" : "none");
        assertThat(r.localTier()).isEqualTo(r.mode().equals("mpcache") ? "ssd+hdd" : "hdd");
        assertThat(r.hdfsBytesRead()).isGreaterThanOrEqualTo(r.inputBytes());
        assertThat(r.byteHitRatio()).isBetween(0.0, 1.0);
        if (r.index() == 1) {
          assertThat(r.cacheBytes() > 0)
              .as("word-count hits the blocks grep cached in %s, repetition %d", r.mode(),
                  r.repetition()).isEqualTo(cached);
        }
      }
      assertThat(results.stream().filter(r -> r.mode().equals("mpcache"))
          .mapToLong(JobResult::localSsdGranted).sum())
          .as("mpcache's localized data is granted on the SSD").isPositive();

      // jobs.csv and jobs.json: a row per job, mode and repetition, equal to the results.
      List<String> csv = Files.readAllLines(out.resolve("jobs.csv"));
      assertThat(csv.get(0)).isEqualTo(String.join(",", JobResult.COLUMNS));
      assertThat(csv.subList(1, csv.size())).containsExactlyElementsOf(
          results.stream().map(r -> String.join(",", r.csvRow())).toList());
      Map<String, List<Double>> seconds = new LinkedHashMap<>();
      int repCol = JobResult.COLUMNS.indexOf("repetition");
      int secCol = JobResult.COLUMNS.indexOf("seconds");
      for (String line : csv.subList(1, csv.size())) {
        String[] f = line.split(",", -1);
        seconds.computeIfAbsent(f[0] + "/" + f[JobResult.COLUMNS.indexOf("job")],
            k -> new ArrayList<>()).add(Double.parseDouble(f[secCol]));
        assertThat(f[repCol]).isIn("1", "2");
      }
      assertThat(seconds).hasSize(6).allSatisfy((k, v) -> assertThat(v).hasSize(2));
      String json = Files.readString(out.resolve("jobs.json"));
      assertThat(json.split("\"repetition\": 2", -1)).hasSize(7);
      assertThat(json.split("\"repetition\": 1", -1)).hasSize(7);

      // job-stats.csv: per job and mode, the mean and range of the rows above.
      List<Map<String, String>> stats = rows(out.resolve("job-stats.csv"));
      assertThat(stats).hasSize(6);
      for (Map<String, String> s : stats) {
        List<Double> v = seconds.get(s.get("mode") + "/" + s.get("job"));
        assertThat(s.get("repetitions")).isEqualTo("2");
        assertThat(Double.parseDouble(s.get("seconds_mean")))
            .isCloseTo((v.get(0) + v.get(1)) / 2, offset(0.001));
        assertThat(Double.parseDouble(s.get("seconds_min")))
            .isCloseTo(Math.min(v.get(0), v.get(1)), offset(0.001));
        assertThat(Double.parseDouble(s.get("seconds_max")))
            .isCloseTo(Math.max(v.get(0), v.get(1)), offset(0.001));
        assertThat(s.get("seconds_ci95")).as("no interval from two repetitions").isEmpty();
        assertThat(s.get("speedup_min")).isNotEmpty();
        assertThat(s.get("speedup_max")).isNotEmpty();
      }
      assertThat(Files.readString(out.resolve("job-stats.json")))
          .contains("\"seconds_min\": ").contains("\"seconds_max\": ");

      // runs.csv: the speedup is the mean over jobs of the ratio of mean times, with a range.
      List<Map<String, String>> runs = rows(out.resolve("runs.csv"));
      assertThat(runs).extracting(r -> r.get("run"))
          .containsExactly("hadoop", "mpcache-64mb", "ssd-lru-64mb");
      for (Map<String, String> r : runs) {
        double expected = 0;
        for (int job = 0; job < 2; job++) {
          List<Double> h = seconds.get("hadoop/" + job);
          List<Double> m = seconds.get(r.get("mode") + "/" + job);
          expected += (h.get(0) + h.get(1)) / (m.get(0) + m.get(1)) / 2;
        }
        assertThat(r.get("repetitions")).isEqualTo("2");
        assertThat(Double.parseDouble(r.get("speedup_over_hadoop")))
            .isCloseTo(expected, offset(0.001));
        assertThat(Double.parseDouble(r.get("speedup_min")))
            .isLessThanOrEqualTo(Double.parseDouble(r.get("speedup_max")));
        assertThat(Double.parseDouble(r.get("seconds_min")))
            .isLessThanOrEqualTo(Double.parseDouble(r.get("seconds")))
            .isLessThanOrEqualTo(Double.parseDouble(r.get("seconds_max")));
      }

      // The summary: the file, the repetitions, mpcache against hadoop and ssd-lru.
      String summary = Files.readString(out.resolve("summary.txt"));
      assertThat(summary).isEqualTo(report.summary()).contains("Repetitions: 2 per run")
          .containsPattern("over ssd-lru\\s+\\d+\\.\\d\\dx \\[").contains("2.09x")
          .contains("NOT emulated");

      // Figure 3 for Map and Reduce with error bars; fig3.csv holds the plotted values.
      assertThat(plots).extracting(p -> p.getFileName().toString())
          .containsExactly("fig3-map.png", "fig3-reduce.png");
      for (Path p : plots) {
        BufferedImage img = ImageIO.read(p.toFile());
        assertThat(img.getWidth()).isEqualTo(1000);
      }
      List<Map<String, String>> bars = rows(out.resolve("fig3.csv"));
      assertThat(bars).hasSize(2 * 3 * 2).allSatisfy(b -> {
        assertThat(b.get("repetitions")).isEqualTo("2");
        double mean = Double.parseDouble(b.get("normalized_mean"));
        double bar = Double.parseDouble(b.get("error_bar"));
        // Each of the three values is rounded to 4 decimals: they may disagree by 1.5e-4.
        assertThat(mean - bar).isLessThanOrEqualTo(Double.parseDouble(b.get("normalized_min"))
            + 2e-4);
        assertThat(mean + bar).isGreaterThanOrEqualTo(Double.parseDouble(b.get("normalized_max"))
            - 2e-4);
      });
    }
  }

  /** A CSV file's rows as maps from its header's names. */
  private static List<Map<String, String>> rows(Path file) throws Exception {
    List<String> lines = Files.readAllLines(file);
    String[] header = lines.get(0).split(",", -1);
    List<Map<String, String>> out = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split(",", -1);
      Map<String, String> m = new LinkedHashMap<>();
      for (int i = 0; i < header.length; i++) {
        m.put(header[i], f[i]);
      }
      out.add(m);
    }
    return out;
  }
}
