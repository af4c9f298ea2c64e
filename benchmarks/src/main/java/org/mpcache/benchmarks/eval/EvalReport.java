package org.mpcache.benchmarks.eval;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Turns the harness's job results into files and a summary: {@code jobs.csv} and
 * {@code jobs.json} (one row per job and run), {@code runs.csv} and {@code runs.json} (one row per
 * run), {@code summary.txt} (the console summary), {@code fig3-map.png} and
 * {@code fig3-reduce.png} (the paper's Figure 3: mean Map and Reduce time per benchmark, per run,
 * normalized to Hadoop's) and, when a caching mode ran at several cache sizes,
 * {@code fig5-speedup.png} (the paper's Figure 5: mean speedup over Hadoop against cache size per
 * node).
 *
 * <p>Speedup of a run over another is the mean, over the jobs both ran successfully, of the
 * ratio of their job times, as the paper averages per-job speedups.
 *
 * <p>Immutable; thread-safe.
 */
public final class EvalReport {
  /** The paper's average speedup of mpCache over Hadoop (Section 5). */
  public static final double PAPER_SPEEDUP_OVER_HADOOP = 2.09;
  /** The paper's average speedup of mpCache over PACMan (Section 5). */
  public static final double PAPER_SPEEDUP_OVER_PACMAN = 1.79;

  private final List<JobResult> results;
  private final Map<String, List<JobResult>> byRun = new LinkedHashMap<>();
  private final List<String> tierFigures;
  private final List<String> notices;

  /**
   * @param results every job of every run
   * @param tierFigures the measured tier figures (or the notice that there are none)
   * @param notices what else the reader should know (fallbacks, failures)
   */
  public EvalReport(List<JobResult> results, List<String> tierFigures, List<String> notices) {
    this.results = List.copyOf(results);
    this.tierFigures = List.copyOf(tierFigures);
    this.notices = List.copyOf(notices);
    for (JobResult r : results) {
      byRun.computeIfAbsent(r.run(), k -> new ArrayList<>()).add(r);
    }
  }

  /** The runs in the order they ran. */
  public Set<String> runs() {
    return byRun.keySet();
  }

  /**
   * The mean per-job speedup of run {@code run} over run {@code base}: the mean of
   * {@code base.seconds / run.seconds} over the jobs that succeeded in both; empty if none did.
   */
  public OptionalDouble speedup(String run, String base) {
    List<JobResult> a = byRun.get(run);
    List<JobResult> b = byRun.get(base);
    if (a == null || b == null) {
      return OptionalDouble.empty();
    }
    Map<Integer, JobResult> baseByIndex = new TreeMap<>();
    b.forEach(r -> baseByIndex.put(r.index(), r));
    return a.stream().filter(JobResult::success)
        .filter(r -> baseByIndex.containsKey(r.index()) && baseByIndex.get(r.index()).success())
        .mapToDouble(r -> baseByIndex.get(r.index()).seconds() / r.seconds()).average();
  }

  /** The run of {@code mode} with the largest cache, or null if the mode did not run. */
  String mainRun(String mode) {
    String best = null;
    long bestMb = -1;
    for (List<JobResult> rs : byRun.values()) {
      JobResult r = rs.get(0);
      if (r.mode().equals(mode) && r.cacheMbPerNode() > bestMb) {
        best = r.run();
        bestMb = r.cacheMbPerNode();
      }
    }
    return best;
  }

  /** Writes every file into {@code dir}; returns the plots written. */
  public List<Path> write(Path dir) throws IOException {
    Files.createDirectories(dir);
    writeCsv(dir.resolve("jobs.csv"), JobResult.COLUMNS,
        results.stream().map(JobResult::csvRow).collect(Collectors.toList()));
    writeJson(dir.resolve("jobs.json"), JobResult.COLUMNS,
        results.stream().map(JobResult::csvRow).collect(Collectors.toList()));
    List<List<String>> runRows = new ArrayList<>();
    for (String run : byRun.keySet()) {
      runRows.add(runRow(run));
    }
    writeCsv(dir.resolve("runs.csv"), RUN_COLUMNS, runRows);
    writeJson(dir.resolve("runs.json"), RUN_COLUMNS, runRows);
    Files.writeString(dir.resolve("summary.txt"), summary(), StandardCharsets.UTF_8);
    List<Path> plots = new ArrayList<>();
    if (byRun.containsKey(EvalMode.HADOOP.cliName())) {
      plots.add(figure3(dir.resolve("fig3-map.png"), "Map", JobResult::mapSeconds));
      plots.add(figure3(dir.resolve("fig3-reduce.png"), "Reduce", JobResult::reduceSeconds));
      Path fig5 = figure5(dir.resolve("fig5-speedup.png"));
      if (fig5 != null) {
        plots.add(fig5);
      }
    }
    return plots;
  }

  static final List<String> RUN_COLUMNS = List.of("run", "mode", "cache_mb_per_node", "jobs",
      "succeeded", "seconds", "map_seconds", "reduce_seconds", "speedup_over_hadoop",
      "hdfs_bytes_read", "cache_bytes", "miss_bytes", "input_tier_bytes", "local_bytes",
      "local_ssd_granted_bytes", "local_ssd_denied_bytes", "byte_hit_ratio");

  private static int col(String name) {
    return RUN_COLUMNS.indexOf(name);
  }

  private List<String> runRow(String run) {
    List<JobResult> rs = byRun.get(run);
    JobResult first = rs.get(0);
    long hdfs = rs.stream().mapToLong(JobResult::hdfsBytesRead).sum();
    long cache = rs.stream().mapToLong(JobResult::cacheBytes).sum();
    long miss = rs.stream().mapToLong(JobResult::missBytes).sum();
    OptionalDouble s = speedup(run, EvalMode.HADOOP.cliName());
    return List.of(run, first.mode(), Long.toString(first.cacheMbPerNode()),
        Integer.toString(rs.size()), Long.toString(rs.stream().filter(JobResult::success).count()),
        JobResult.fmt(sum(rs, JobResult::seconds)), JobResult.fmt(sum(rs, JobResult::mapSeconds)),
        JobResult.fmt(sum(rs, JobResult::reduceSeconds)),
        s.isPresent() ? String.format(Locale.ROOT, "%.4f", s.getAsDouble()) : "",
        Long.toString(hdfs), Long.toString(cache), Long.toString(miss),
        Long.toString(rs.stream().mapToLong(JobResult::inputTierBytes).sum()),
        Long.toString(rs.stream().mapToLong(JobResult::localBytes).sum()),
        Long.toString(rs.stream().mapToLong(JobResult::localSsdGranted).sum()),
        Long.toString(rs.stream().mapToLong(JobResult::localSsdDenied).sum()),
        String.format(Locale.ROOT, "%.4f", cache + miss == 0 ? 0 : (double) cache / (cache + miss)));
  }

  private static double sum(List<JobResult> rs, ToDoubleFunction<JobResult> f) {
    return rs.stream().mapToDouble(f).sum();
  }

  /** The console summary: per-job times and speedups, averages next to the paper's, tiers. */
  public String summary() {
    StringBuilder out = new StringBuilder();
    String hadoop = EvalMode.HADOOP.cliName();
    List<String> runs = new ArrayList<>(byRun.keySet());
    out.append("Per-job time (s) and speedup over hadoop\n");
    out.append(String.format(Locale.ROOT, "%-4s %-22s %3s", "job", "benchmark", "k"));
    for (String run : runs) {
      out.append(String.format(Locale.ROOT, " %18s", run));
    }
    out.append('\n');
    Map<Integer, JobResult> hadoopJobs = new TreeMap<>();
    byRun.getOrDefault(hadoop, List.of()).forEach(r -> hadoopJobs.put(r.index(), r));
    List<JobResult> firstRun = byRun.get(runs.get(0));
    for (JobResult j : firstRun) {
      out.append(String.format(Locale.ROOT, "%-4d %-22s %3d", j.index(), j.benchmark(), j.k()));
      for (String run : runs) {
        JobResult r = byRun.get(run).stream().filter(x -> x.index() == j.index()).findFirst()
            .orElse(null);
        JobResult h = hadoopJobs.get(j.index());
        String cell;
        if (r == null || !r.success()) {
          cell = "failed";
        } else if (h == null || !h.success() || run.equals(hadoop)) {
          cell = String.format(Locale.ROOT, "%.1f", r.seconds());
        } else {
          cell = String.format(Locale.ROOT, "%.1f (%.2fx)", r.seconds(), h.seconds() / r.seconds());
        }
        out.append(String.format(Locale.ROOT, " %18s", cell));
      }
      out.append('\n');
    }
    out.append("\nRuns\n");
    out.append(String.format(Locale.ROOT, "%-18s %8s %8s %8s %10s %10s %10s %9s %13s%n", "run",
        "total s", "map s", "reduce s", "vs hadoop", "cache MiB", "tier MiB", "hit ratio",
        "local SSD MiB"));
    for (String run : runs) {
      List<String> row = runRow(run);
      out.append(String.format(Locale.ROOT,
          "%-18s %8.1f %8.1f %8.1f %10s %10.1f %10.1f %9s %13.1f%n",
          run, Double.parseDouble(row.get(col("seconds"))),
          Double.parseDouble(row.get(col("map_seconds"))),
          Double.parseDouble(row.get(col("reduce_seconds"))),
          row.get(col("speedup_over_hadoop")).isEmpty() ? "-" : String.format(Locale.ROOT,
              "%.2fx", Double.parseDouble(row.get(col("speedup_over_hadoop")))),
          Long.parseLong(row.get(col("cache_bytes"))) / 1048576.0,
          Long.parseLong(row.get(col("input_tier_bytes"))) / 1048576.0,
          row.get(col("byte_hit_ratio")),
          Long.parseLong(row.get(col("local_ssd_granted_bytes"))) / 1048576.0));
    }
    String mp = mainRun(EvalMode.MPCACHE.cliName());
    String pac = mainRun(EvalMode.PACMAN.cliName());
    out.append("\nAverage per-job speedup of mpcache   measured   paper\n");
    out.append(line("over hadoop", speedup(mp, hadoop), PAPER_SPEEDUP_OVER_HADOOP));
    out.append(line("over pacman", speedup(mp, pac), PAPER_SPEEDUP_OVER_PACMAN));
    out.append("\nStorage tiers\n");
    tierFigures.forEach(f -> out.append("  ").append(f).append('\n'));
    if (!notices.isEmpty()) {
      out.append("\nNotices\n");
      new LinkedHashSet<>(notices).forEach(n -> out.append("  ").append(n).append('\n'));
    }
    return out.toString();
  }

  private static String line(String what, OptionalDouble measured, double paper) {
    return String.format(Locale.ROOT, "  %-30s %8s %7.2fx%n", what,
        measured.isPresent() ? String.format(Locale.ROOT, "%.2fx", measured.getAsDouble())
            : "n/a", paper);
  }

  /** Mean phase time per benchmark and run, normalized to Hadoop's. */
  private Path figure3(Path file, String phase, ToDoubleFunction<JobResult> time)
      throws IOException {
    List<String> benchmarks = results.stream().map(JobResult::benchmark).distinct()
        .collect(Collectors.toList());
    Map<String, Double> hadoopMean = meanBy(byRun.get(EvalMode.HADOOP.cliName()), time);
    CategoryChart c = new CategoryChartBuilder().width(1000).height(500)
        .title(phase + " time normalized to Hadoop (cf. the paper's Fig. 3)")
        .xAxisTitle("benchmark").yAxisTitle("normalized " + phase.toLowerCase(Locale.ROOT)
            + " time").build();
    c.getStyler().setXAxisLabelRotation(30);
    for (Map.Entry<String, List<JobResult>> e : byRun.entrySet()) {
      Map<String, Double> mean = meanBy(e.getValue(), time);
      List<Double> ys = new ArrayList<>();
      for (String b : benchmarks) {
        Double h = hadoopMean.get(b);
        Double m = mean.get(b);
        ys.add(h == null || m == null || h == 0 ? 0.0 : m / h);
      }
      c.addSeries(e.getKey(), benchmarks, ys);
    }
    BitmapEncoder.saveBitmap(c, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    return file;
  }

  private static Map<String, Double> meanBy(List<JobResult> rs, ToDoubleFunction<JobResult> f) {
    return rs.stream().filter(JobResult::success).collect(Collectors.groupingBy(
        JobResult::benchmark, LinkedHashMap::new, Collectors.averagingDouble(f)));
  }

  /** Speedup over Hadoop against cache size per node, one line per caching mode. */
  private Path figure5(Path file) throws IOException {
    Map<String, TreeMap<Long, Double>> lines = new LinkedHashMap<>();
    for (String run : byRun.keySet()) {
      JobResult r = byRun.get(run).get(0);
      OptionalDouble s = speedup(run, EvalMode.HADOOP.cliName());
      if (r.cacheMbPerNode() > 0 && s.isPresent()) {
        lines.computeIfAbsent(r.mode(), m -> new TreeMap<>()).put(r.cacheMbPerNode(),
            s.getAsDouble());
      }
    }
    if (lines.values().stream().noneMatch(l -> l.size() > 1)) {
      return null;
    }
    XYChart c = new XYChartBuilder().width(800).height(500)
        .title("Speedup over Hadoop vs cache size per node (cf. the paper's Fig. 5)")
        .xAxisTitle("cache size per node (MiB)").yAxisTitle("mean per-job speedup").build();
    for (Map.Entry<String, TreeMap<Long, Double>> e : lines.entrySet()) {
      double[] xs = e.getValue().keySet().stream().mapToDouble(Long::doubleValue).toArray();
      double[] ys = e.getValue().values().stream().mapToDouble(Double::doubleValue).toArray();
      c.addSeries(e.getKey(), xs, ys).setMarker(SeriesMarkers.CIRCLE);
    }
    BitmapEncoder.saveBitmap(c, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    return file;
  }

  private static void writeCsv(Path file, List<String> header, List<List<String>> rows)
      throws IOException {
    StringBuilder b = new StringBuilder(String.join(",", header)).append('\n');
    rows.forEach(r -> b.append(String.join(",", r)).append('\n'));
    Files.writeString(file, b, StandardCharsets.UTF_8);
  }

  /** An array of objects; numbers and booleans unquoted, everything else a string. */
  private static void writeJson(Path file, List<String> header, List<List<String>> rows)
      throws IOException {
    StringBuilder b = new StringBuilder("[\n");
    for (int i = 0; i < rows.size(); i++) {
      b.append("  {");
      List<String> row = rows.get(i);
      for (int j = 0; j < header.size(); j++) {
        String v = row.get(j);
        boolean bare = v.equals("true") || v.equals("false")
            || v.matches("-?\\d+(\\.\\d+)?");
        b.append(j == 0 ? "" : ", ").append('"').append(header.get(j)).append("\": ")
            .append(bare ? v : v.isEmpty() ? "null" : '"' + v.replace("\\", "\\\\")
                .replace("\"", "\\\"") + '"');
      }
      b.append(i + 1 < rows.size() ? "},\n" : "}\n");
    }
    Files.writeString(file, b.append("]\n"), StandardCharsets.UTF_8);
  }
}
