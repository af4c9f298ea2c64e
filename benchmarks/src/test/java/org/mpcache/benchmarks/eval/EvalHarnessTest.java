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
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.mapreduce.Job;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.mpcache.benchmarks.puma.PumaBenchmarks;

/**
 * The harness's results and the files written from them. One tiny end-to-end run (grep, then
 * word-count over the same dataset, in the mpcache mode on the embedded cluster) shows that the
 * harness measures real jobs: the second job hits the blocks the first cached, the times resolve
 * below a second and the jobs' own clock lies inside the harness's. The consistency of CSV, JSON,
 * summary and plots is checked on synthetic results of three modes and two repetitions, where
 * every expected value is known. No timing is asserted.
 */
class EvalHarnessTest {
  private static final long MB = 1L << 20;
  private static final File ROOT = new File("target/eval-it").getAbsoluteFile();

  @Test
  @Timeout(300)
  void run_tinyMixInMpcacheMode_secondJobHitsAndTimesResolveTenths() throws Exception {
    FileUtil.fullyDelete(ROOT);
    List<MixJob> mix = List.of(
        new MixJob(0, PumaBenchmarks.byName("grep"), 1, 2 * MB),
        new MixJob(1, PumaBenchmarks.byName("word-count"), 1, 2 * MB));
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
        events.add("job " + job.index());
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
    try (TierLayout tiers = new PlainTiers(new File(ROOT, "tiers"), "test")) {
      EvalHarness harness = new EvalHarness(settings, tiers, new File(ROOT, "work"), listener);
      List<JobResult> results = harness.run(EvalMode.MPCACHE, 64 * MB, mix, 1);

      assertThat(new File(ROOT, "work/mpcache-64mb")).doesNotExist();
      assertThat(events).containsSubsequence("run mpcache-64mb 1", "job 0", "done 0", "job 1",
          "done 1");
      assertThat(results).hasSize(2).allMatch(JobResult::success);
      for (JobResult r : results) {
        assertThat(r.cacheTier()).isEqualTo("ssd");
        assertThat(r.localTier()).isEqualTo("ssd+hdd");
        assertThat(r.hdfsBytesRead()).isGreaterThanOrEqualTo(r.inputBytes());
        assertThat(r.jobSeconds()).as("the job's own clock, inside the harness's")
            .isPositive().isLessThanOrEqualTo(r.seconds());
        assertThat(r.mapSeconds()).isPositive().isLessThanOrEqualTo(r.jobSeconds());
        assertThat(r.mapCpuSeconds()).as("the maps' CPU counters").isPositive();
        assertThat(r.daemonCpuSeconds()).as("the daemons' CPU over the job").isPositive();
        assertThat(r.maps()).as("the launched maps").isPositive();
        assertThat(r.dataLocalMaps()).isBetween(0L, r.maps());
      }
      assertThat(results.get(1).cacheBytes()).as("word-count hits the blocks grep cached")
          .isPositive();
      assertThat(results.stream().mapToLong(JobResult::localSsdGranted).sum())
          .as("mpcache's localized data is granted on the SSD").isPositive();
    }
  }

  @Test
  void jobConf_pollsForCompletionEveryTenthOfASecond() {
    Configuration base = new Configuration();
    base.setInt(Job.COMPLETION_POLL_INTERVAL_KEY, 5000);

    Configuration conf = EvalHarness.jobConf(base);

    assertThat(Job.getCompletionPollInterval(conf)).isEqualTo(100);
    assertThat(base.getInt(Job.COMPLETION_POLL_INTERVAL_KEY, 0)).as("the base is untouched")
        .isEqualTo(5000);
  }

  @Test
  void statusSeconds_startToFinishOfTheJobsOwnClock() {
    assertThat(EvalHarness.statusSeconds(1_000, 13_350)).isEqualTo(12.35);
    assertThat(EvalHarness.statusSeconds(0, 13_350)).as("never started").isZero();
    assertThat(EvalHarness.statusSeconds(2_000, 0)).as("not finished").isZero();
  }

  @Test
  void write_threeModesTwoRepetitions_filesAgreeWithTheResults() throws Exception {
    Path out = ROOT.toPath().resolve("synthetic");
    FileUtil.fullyDelete(out.toFile());
    List<String> modes = List.of("hadoop", "mpcache", "ssd-lru");
    List<JobResult> results = new ArrayList<>();
    for (int rep = 1; rep <= 2; rep++) {
      for (int m = 0; m < modes.size(); m++) {
        for (int job = 0; job < 2; job++) {
          results.add(result(modes.get(m), rep, job, 20.0 + 3 * job - 4 * m + rep * 1.7));
        }
      }
    }
    EvalReport report = new EvalReport(results, List.of("tiers: synthetic"), List.of());
    List<Path> plots = report.write(out);

    // jobs.csv and jobs.json: a row per job, mode and repetition, equal to the results.
    List<String> csv = Files.readAllLines(out.resolve("jobs.csv"));
    assertThat(csv.get(0)).isEqualTo(String.join(",", JobResult.COLUMNS));
    assertThat(csv.subList(1, csv.size())).containsExactlyElementsOf(
        results.stream().map(r -> String.join(",", r.csvRow())).toList());
    assertThat(csv.get(1).split(",")[JobResult.COLUMNS.indexOf("seconds")]).isEqualTo("21.700");
    Map<String, List<Double>> seconds = new LinkedHashMap<>();
    for (String line : csv.subList(1, csv.size())) {
      String[] f = line.split(",", -1);
      seconds.computeIfAbsent(f[0] + "/" + f[JobResult.COLUMNS.indexOf("job")],
          k -> new ArrayList<>()).add(
              Double.parseDouble(f[JobResult.COLUMNS.indexOf("seconds")]));
    }
    assertThat(seconds).hasSize(6).allSatisfy((k, v) -> assertThat(v).hasSize(2));
    String json = Files.readString(out.resolve("jobs.json"));
    assertThat(json.split("\"repetition\": 2", -1)).hasSize(7);
    assertThat(json.split("\"job_seconds\": ", -1)).hasSize(13);

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
    }

    // runs.csv: the speedup is the mean over jobs of the ratio of mean times, with a range.
    List<Map<String, String>> runs = rows(out.resolve("runs.csv"));
    assertThat(runs).extracting(r -> r.get("run")).containsExactly("hadoop", "mpcache",
        "ssd-lru");
    for (Map<String, String> r : runs) {
      double expected = 0;
      for (int job = 0; job < 2; job++) {
        List<Double> h = seconds.get("hadoop/" + job);
        List<Double> m = seconds.get(r.get("mode") + "/" + job);
        expected += (h.get(0) + h.get(1)) / (m.get(0) + m.get(1)) / 2;
      }
      assertThat(Double.parseDouble(r.get("speedup_over_hadoop")))
          .isCloseTo(expected, offset(0.001));
      assertThat(Double.parseDouble(r.get("speedup_min")))
          .isLessThanOrEqualTo(Double.parseDouble(r.get("speedup_max")));
    }

    // The summary: the file, the repetitions, mpcache against hadoop and ssd-lru.
    String summary = Files.readString(out.resolve("summary.txt"));
    assertThat(summary).isEqualTo(report.summary()).contains("Repetitions: 2 per run")
        .containsPattern("over ssd-lru\\s+\\d+\\.\\d\\dx \\[").contains("2.09x")
        // Each repetition's own speedup, in the order they ran: rep 1 (21.7/17.7 + 24.7/20.7)/2.
        .contains("each repetition: 1.21x, 1.19x")
        // By the jobs' own clocks (2.5 s less each): (20.05/16.05 + 23.05/19.05)/2, with rep 1
        // (19.2/15.2 + 22.2/18.2)/2 and rep 2 (20.9/16.9 + 23.9/19.9)/2.
        .containsPattern("own clocks[^\\n]*\\n\\s+over hadoop\\s+1\\.23x \\[1\\.22-1\\.24\\]");

    // Figure 3 for Map and Reduce with error bars that cover each repetition's value.
    assertThat(plots).extracting(p -> p.getFileName().toString())
        .containsExactly("fig3-map.png", "fig3-reduce.png");
    for (Path p : plots) {
      BufferedImage img = ImageIO.read(p.toFile());
      assertThat(img.getWidth()).isEqualTo(1000);
    }
    List<Map<String, String>> bars = rows(out.resolve("fig3.csv"));
    assertThat(bars).hasSize(2 * 3 * 2).allSatisfy(b -> {
      double mean = Double.parseDouble(b.get("normalized_mean"));
      double bar = Double.parseDouble(b.get("error_bar"));
      // Each of the three values is rounded to 4 decimals: they may disagree by 1.5e-4.
      assertThat(mean - bar).isLessThanOrEqualTo(Double.parseDouble(b.get("normalized_min"))
          + 2e-4);
      assertThat(mean + bar).isGreaterThanOrEqualTo(Double.parseDouble(b.get("normalized_max"))
          - 2e-4);
    });
  }

  private static JobResult result(String mode, int repetition, int job, double seconds) {
    boolean cached = !mode.equals("hadoop");
    return new JobResult(mode, 0, repetition, job, job == 0 ? "grep" : "word-count", 1,
        "wikipedia-k1", 2 * MB, true, seconds, seconds - 2.5, seconds * 0.6, seconds * 0.2,
        seconds * 0.5, seconds * 0.3, 3, 2,
        2 * MB, cached ? MB : 0, cached ? MB : 0, "hdd", cached ? "ssd" : "none", 4 * MB,
        mode.equals("mpcache") ? "ssd+hdd" : "hdd", 0, 0, cached ? 1 : 0, cached ? 1 : 0);
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
