package org.mpcache.benchmarks.eval;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.imageio.ImageIO;
import org.apache.hadoop.fs.FileUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.mpcache.benchmarks.puma.PumaBenchmarks;

/**
 * End to end: the harness runs a tiny mix (three jobs, two of them over one dataset) in the
 * hadoop and mpcache modes on the embedded cluster, and the CSV, JSON, summary and plots it
 * writes agree with each other. No timing is asserted.
 */
@Timeout(900)
class EvalHarnessTest {
  private static final long MB = 1L << 20;
  private static final File ROOT = new File("target/eval-it").getAbsoluteFile();

  @Test
  void tinyMix_twoModes_writesConsistentResults() throws Exception {
    FileUtil.fullyDelete(ROOT);
    List<MixJob> mix = List.of(
        new MixJob(0, PumaBenchmarks.byName("grep"), 1, 3 * MB),
        new MixJob(1, PumaBenchmarks.byName("word-count"), 1, 3 * MB),
        new MixJob(2, PumaBenchmarks.byName("tera-sort"), 1, 2 * MB));
    EvalHarness.Settings settings = new EvalHarness.Settings(2, MB, 64 * MB, 32 * MB, 32 * MB, 2048,
        "lfu-f", 1, 1, 7);
    List<String> events = new ArrayList<>();
    EvalHarness.Listener listener = new EvalHarness.Listener() {
      @Override
      public void runStarted(String run, int repetition, int jobs) {
        events.add("run " + run);
      }

      @Override
      public void jobStarted(String run, MixJob job) {
        events.add("start " + job.index());
      }

      @Override
      public void jobFinished(JobResult result) {
        events.add("done " + result.index());
      }

      @Override
      public void notice(String message) {
        events.add("notice " + message);
      }
    };
    List<JobResult> results = new ArrayList<>();
    try (TierLayout tiers = new PlainTiers(new File(ROOT, "tiers"), "test")) {
      EvalHarness harness = new EvalHarness(settings, tiers, new File(ROOT, "work"), listener);
      results.addAll(harness.run(EvalMode.HADOOP, 64 * MB, mix, 1));
      results.addAll(harness.run(EvalMode.MPCACHE, 64 * MB, mix, 1));
      assertThat(new File(ROOT, "work/hadoop")).doesNotExist();
      EvalReport report = new EvalReport(results, tiers.figures(), List.of());
      Path out = ROOT.toPath().resolve("results");
      List<Path> plots = report.write(out);

      assertThat(events).containsSubsequence("run hadoop", "start 0", "done 0", "start 2",
          "done 2", "run mpcache-64mb", "start 0", "done 2");
      assertThat(results).hasSize(6).allMatch(JobResult::success);
      JobResult wordCountCached = results.get(4);
      assertThat(wordCountCached.benchmark()).isEqualTo("word-count");
      assertThat(wordCountCached.cacheBytes())
          .as("word-count reads the dataset grep cached").isPositive();
      assertThat(results.subList(0, 3)).allMatch(r -> r.cacheBytes() == 0
          && r.cacheTier().equals("none") && r.localTier().equals("hdd"));
      assertThat(results.subList(3, 6)).allMatch(r -> r.cacheTier().equals("ssd")
          && r.localTier().equals("ssd+hdd"));
      assertThat(results.get(5).localSsdGranted())
          .as("tera-sort's map outputs are granted on the SSD").isPositive();
      assertThat(results.subList(0, 3)).allMatch(r -> r.localSsdGranted() == 0);
      assertThat(results).allMatch(r -> r.hdfsBytesRead() >= r.inputBytes()
          && r.mapSeconds() > 0 && r.mapSeconds() + r.reduceSeconds() <= r.seconds() + 1
          && r.byteHitRatio() >= 0 && r.byteHitRatio() <= 1);
      assertThat(results.get(2).reduceSeconds()).as("tera-sort has a reduce phase").isPositive();

      // jobs.csv: one row per job and run, equal to the results.
      List<String> csv = Files.readAllLines(out.resolve("jobs.csv"));
      assertThat(csv.get(0)).isEqualTo(String.join(",", JobResult.COLUMNS));
      assertThat(csv.subList(1, csv.size())).containsExactlyElementsOf(
          results.stream().map(r -> String.join(",", r.csvRow())).toList());
      String json = Files.readString(out.resolve("jobs.json"));
      assertThat(json.split("\"benchmark\": ", -1)).hasSize(7);

      // runs.csv: the speedup is the mean of the per-job ratios in jobs.csv.
      Map<String, List<Double>> seconds = new HashMap<>();
      for (String line : csv.subList(1, csv.size())) {
        String[] f = line.split(",");
        seconds.computeIfAbsent(f[0], k -> new ArrayList<>()).add(Double.parseDouble(f[8]));
      }
      double expected = 0;
      for (int i = 0; i < 3; i++) {
        expected += seconds.get("hadoop").get(i) / seconds.get("mpcache").get(i) / 3;
      }
      List<String> runs = Files.readAllLines(out.resolve("runs.csv"));
      assertThat(runs).hasSize(3);
      String[] mpRun = runs.get(2).split(",", -1);
      assertThat(mpRun[0]).isEqualTo("mpcache-64mb");
      assertThat(Double.parseDouble(mpRun[8])).isCloseTo(expected,
          org.assertj.core.data.Offset.offset(0.01));
      assertThat(runs.get(1).split(",", -1)[8]).isEqualTo("1.0000");

      // summary.txt: the same speedup next to the paper's, and the tier notice.
      String summary = Files.readString(out.resolve("summary.txt"));
      assertThat(summary).isEqualTo(report.summary())
          .contains(String.format(Locale.ROOT, "%.2fx", report.speedup("mpcache-64mb",
              "hadoop").getAsDouble()))
          .contains("2.09x").contains("1.79x").contains("NOT emulated");
      assertThat(report.speedup("mpcache-64mb", "hadoop").getAsDouble())
          .isCloseTo(expected, org.assertj.core.data.Offset.offset(0.01));

      // Figure 3 for Map and Reduce (no sweep, so no Figure 5), readable PNGs.
      assertThat(plots).extracting(p -> p.getFileName().toString())
          .containsExactly("fig3-map.png", "fig3-reduce.png");
      for (Path p : plots) {
        BufferedImage img = ImageIO.read(p.toFile());
        assertThat(img.getWidth()).isEqualTo(1000);
      }
    }
  }
}
