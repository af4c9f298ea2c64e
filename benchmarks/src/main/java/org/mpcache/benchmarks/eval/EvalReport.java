package org.mpcache.benchmarks.eval;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.mpcache.benchmarks.puma.PumaBenchmarks;
import org.mpcache.benchmarks.puma.ShuffleClass;

/**
 * Turns the harness's job results into files and a summary: {@code jobs.csv} and
 * {@code jobs.json} (one row per job, run and repetition), {@code job-stats.csv} and
 * {@code job-stats.json} (one row per job and run: mean, min, max and 95% interval over the
 * repetitions), {@code runs.csv} and {@code runs.json} (one row per run), {@code summary.txt} (the
 * console summary), {@code fig3-map.png} and {@code fig3-reduce.png} (the paper's Figure 3: mean
 * Map and Reduce time per benchmark, per run, normalized to Hadoop's, with error bars over the
 * repetitions; the plotted values are in {@code fig3.csv}), {@code classes.csv} (per shuffle
 * class, each run's speedup over Hadoop of the job and of its Map and Reduce phases, beside the
 * paper's) and, when a caching mode ran at several cache sizes, {@code fig5-speedup.png} (the
 * paper's Figure 5: mean speedup over Hadoop against cache size per node, overall and per shuffle
 * class; the points in {@code fig5.csv}).
 *
 * <p>A job's time ({@link #TIME}) is the client's wait from submission to completion, polled
 * every tenth of a second. The jobs' own clock (start to finish as their status reports it,
 * which leaves out the submission and the application master's launch, the same work in every
 * mode) is in {@code jobs.csv} too, and the summary gives the speedups by it as well. Speedup of a run over another is the mean, over the jobs
 * both ran successfully, of the ratio of their mean job times (means over the repetitions), as
 * the paper averages per-job speedups. Its range is the smallest and largest of the
 * repetitions' own speedups, repetition {@code r} of one run against repetition {@code r} of
 * the other (the harness interleaves them, so they ran at about the same time). Error bars in
 * the plots are symmetric, as the plotting library draws them: each reaches from the mean to the
 * farther of the smallest and largest value, so it covers the whole min-max range.
 *
 * <p>Immutable; thread-safe.
 */
public final class EvalReport {
  /** The paper's average speedup of mpCache over Hadoop (Section 5). */
  public static final double PAPER_SPEEDUP_OVER_HADOOP = 2.09;
  /** The paper's average speedup of mpCache over PACMan (Section 5). */
  public static final double PAPER_SPEEDUP_OVER_PACMAN = 1.79;

  /**
   * The paper's average speedups of mpCache over Hadoop per shuffle class (Section 5, Fig. 3):
   * the job, its Map phase and its Reduce phase; NaN where the paper gives no average.
   */
  static final Map<ShuffleClass, double[]> PAPER_BY_CLASS = Map.of(
      ShuffleClass.LIGHT, new double[] {2.23, 2.42, Double.NaN},
      ShuffleClass.MEDIUM, new double[] {1.25, 1.25, 1.60},
      ShuffleClass.HEAVY, new double[] {2.65, Double.NaN, 3.87});

  /** The phases the per-class figures are given for, in {@link #PAPER_BY_CLASS}'s order. */
  private static final List<String> PHASES = List.of("job", "map", "reduce");

  /** A job's time in every figure of the report but the own-clock lines: the client's wait. */
  static final ToDoubleFunction<JobResult> TIME = JobResult::seconds;

  /** The clock of each of {@link #PHASES}. */
  private static final List<ToDoubleFunction<JobResult>> PHASE_TIMES = List.of(TIME,
      JobResult::mapSeconds, JobResult::reduceSeconds);

  private final List<JobResult> results;
  private final Map<String, List<JobResult>> byRun = new LinkedHashMap<>();
  private final List<String> tierFigures;
  private final List<String> notices;

  /**
   * @param results every job of every run and repetition
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

  /** The runs in the order they first ran. */
  public Set<String> runs() {
    return byRun.keySet();
  }

  /** Repetition to job index to result, for one run. */
  private Map<Integer, Map<Integer, JobResult>> byRepetition(String run) {
    Map<Integer, Map<Integer, JobResult>> m = new TreeMap<>();
    for (JobResult r : byRun.getOrDefault(run, List.of())) {
      m.computeIfAbsent(r.repetition(), k -> new TreeMap<>()).put(r.index(), r);
    }
    return m;
  }

  /** The jobs of the mix, once each, in mix order. */
  private List<JobResult> mixJobs() {
    Map<Integer, JobResult> jobs = new TreeMap<>();
    results.forEach(r -> jobs.putIfAbsent(r.index(), r));
    return new ArrayList<>(jobs.values());
  }

  /**
   * The spread of {@code f} over the repetitions in which job {@code index} of {@code run}
   * succeeded.
   */
  public Spread jobSpread(String run, int index, ToDoubleFunction<JobResult> f) {
    return Spread.of(byRun.getOrDefault(run, List.of()).stream()
        .filter(r -> r.index() == index && r.success()).map(r -> f.applyAsDouble(r)).toList());
  }

  /**
   * The mean per-job speedup of run {@code run} over run {@code base} by {@link #TIME}: the mean
   * of {@code mean(base time) / mean(run time)} over the jobs that succeeded in at least one
   * repetition of both; empty if none did.
   */
  public OptionalDouble speedup(String run, String base) {
    return speedup(run, base, TIME);
  }

  /** {@link #speedup(String, String)} by the clock {@code time}. */
  OptionalDouble speedup(String run, String base, ToDoubleFunction<JobResult> time) {
    return speedup(run, base, time, j -> true);
  }

  /**
   * {@link #speedup(String, String)} by the clock {@code time} over the jobs of the mix
   * {@code which} selects; a job whose mean time is 0 in either run (a phase it does not have)
   * is left out.
   */
  OptionalDouble speedup(String run, String base, ToDoubleFunction<JobResult> time,
      Predicate<JobResult> which) {
    if (run == null || base == null || !byRun.containsKey(run) || !byRun.containsKey(base)) {
      return OptionalDouble.empty();
    }
    List<Double> ratios = new ArrayList<>();
    for (JobResult j : mixJobs()) {
      Spread a = jobSpread(run, j.index(), time);
      Spread b = jobSpread(base, j.index(), time);
      if (which.test(j) && a.present() && b.present() && a.mean() > 0 && b.mean() > 0) {
        ratios.add(b.mean() / a.mean());
      }
    }
    return ratios.stream().mapToDouble(Double::doubleValue).average();
  }

  /**
   * The spread of the repetitions' own speedups of {@code run} over {@code base}
   * ({@link #repetitionSpeedups}).
   */
  public Spread speedupSpread(String run, String base) {
    return Spread.of(repetitionSpeedups(run, base, TIME));
  }

  /**
   * The repetitions' own speedups of {@code run} over {@code base}, by repetition: for each
   * repetition both ran, the mean of the per-job time ratios over the jobs that succeeded in
   * that repetition of both, by {@link #TIME}.
   */
  public List<Double> repetitionSpeedups(String run, String base) {
    return repetitionSpeedups(run, base, TIME);
  }

  /** {@link #repetitionSpeedups(String, String)} by the clock {@code time}. */
  List<Double> repetitionSpeedups(String run, String base, ToDoubleFunction<JobResult> time) {
    return repetitionSpeedups(run, base, time, j -> true);
  }

  /**
   * {@link #repetitionSpeedups(String, String)} by the clock {@code time} over the jobs
   * {@code which} selects, leaving out a job whose time is 0 in either run.
   */
  List<Double> repetitionSpeedups(String run, String base, ToDoubleFunction<JobResult> time,
      Predicate<JobResult> which) {
    List<Double> perRepetition = new ArrayList<>();
    if (run != null && base != null) {
      Map<Integer, Map<Integer, JobResult>> b = byRepetition(base);
      byRepetition(run).forEach((rep, jobs) -> {
        Map<Integer, JobResult> baseJobs = b.get(rep);
        if (baseJobs != null) {
          jobs.values().stream().filter(JobResult::success).filter(which)
              .filter(r -> baseJobs.containsKey(r.index()) && baseJobs.get(r.index()).success())
              .filter(r -> time.applyAsDouble(r) > 0
                  && time.applyAsDouble(baseJobs.get(r.index())) > 0)
              .mapToDouble(r -> time.applyAsDouble(baseJobs.get(r.index()))
                  / time.applyAsDouble(r)).average()
              .ifPresent(perRepetition::add);
        }
      });
    }
    return perRepetition;
  }

  /** A shuffle class as the report names it: {@code light}, {@code medium}, {@code heavy}. */
  private static String className(ShuffleClass c) {
    return c.name().toLowerCase(Locale.ROOT);
  }

  /** The shuffle class of a job's benchmark (Table 1). */
  static ShuffleClass shuffleClass(JobResult r) {
    return PumaBenchmarks.byName(r.benchmark()).shuffleClass();
  }

  /** The shuffle classes of the mix's jobs, in Table 1's order. */
  private List<ShuffleClass> classesRun() {
    Set<ShuffleClass> present = mixJobs().stream().map(EvalReport::shuffleClass)
        .collect(Collectors.toSet());
    return Arrays.stream(ShuffleClass.values()).filter(present::contains).toList();
  }

  /** The spread over repetitions of job {@code index}'s time ratio {@code base / run}. */
  private Spread jobSpeedupSpread(String run, String base, int index) {
    List<Double> ratios = new ArrayList<>();
    Map<Integer, Map<Integer, JobResult>> b = byRepetition(base);
    byRepetition(run).forEach((rep, jobs) -> {
      JobResult r = jobs.get(index);
      JobResult h = b.getOrDefault(rep, Map.of()).get(index);
      if (r != null && h != null && r.success() && h.success()) {
        ratios.add(TIME.applyAsDouble(h) / TIME.applyAsDouble(r));
      }
    });
    return Spread.of(ratios);
  }

  /** The spread over repetitions of {@code f} summed over each repetition's jobs. */
  private Spread totalSpread(String run, ToDoubleFunction<JobResult> f) {
    return Spread.of(byRepetition(run).values().stream()
        .map(jobs -> jobs.values().stream().mapToDouble(f).sum()).toList());
  }

  /** The most repetitions any run has. */
  int repetitions() {
    return byRun.keySet().stream().mapToInt(r -> byRepetition(r).size()).max().orElse(0);
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
    List<List<String>> jobRows = results.stream().map(JobResult::csvRow).toList();
    writeCsv(dir.resolve("jobs.csv"), JobResult.COLUMNS, jobRows);
    writeJson(dir.resolve("jobs.json"), JobResult.COLUMNS, jobRows);
    List<List<String>> statRows = new ArrayList<>();
    for (String run : byRun.keySet()) {
      for (JobResult j : mixJobs()) {
        statRows.add(jobStatRow(run, j));
      }
    }
    writeCsv(dir.resolve("job-stats.csv"), JOB_STAT_COLUMNS, statRows);
    writeJson(dir.resolve("job-stats.json"), JOB_STAT_COLUMNS, statRows);
    List<List<String>> runRows = new ArrayList<>();
    for (String run : byRun.keySet()) {
      runRows.add(runRow(run));
    }
    writeCsv(dir.resolve("runs.csv"), RUN_COLUMNS, runRows);
    writeJson(dir.resolve("runs.json"), RUN_COLUMNS, runRows);
    Files.writeString(dir.resolve("summary.txt"), summary(), StandardCharsets.UTF_8);
    List<Path> plots = new ArrayList<>();
    if (byRun.containsKey(EvalMode.HADOOP.cliName())) {
      List<List<String>> bars = new ArrayList<>();
      plots.add(figure3(dir.resolve("fig3-map.png"), "Map", JobResult::mapSeconds, bars));
      plots.add(figure3(dir.resolve("fig3-reduce.png"), "Reduce", JobResult::reduceSeconds,
          bars));
      writeCsv(dir.resolve("fig3.csv"), FIG3_COLUMNS, bars);
      writeCsv(dir.resolve("classes.csv"), CLASS_COLUMNS, classCsvRows());
      List<List<String>> points = new ArrayList<>();
      Path fig5 = figure5(dir.resolve("fig5-speedup.png"), points);
      if (fig5 != null) {
        plots.add(fig5);
        writeCsv(dir.resolve("fig5.csv"), FIG5_COLUMNS, points);
      }
    }
    return plots;
  }

  /** Columns of {@code runs.csv}: per-repetition means, their spread, and the speedup's. */
  static final List<String> RUN_COLUMNS = List.of("run", "mode", "cache_mb_per_node",
      "repetitions", "jobs", "succeeded", "seconds", "seconds_min", "seconds_max", "seconds_ci95",
      "map_seconds", "reduce_seconds", "speedup_over_hadoop", "speedup_min", "speedup_max",
      "speedup_ci95", "hdfs_bytes_read", "cache_bytes", "miss_bytes", "input_tier_bytes",
      "local_bytes", "local_ssd_granted_bytes", "local_ssd_denied_bytes", "byte_hit_ratio");

  /** Columns of {@code job-stats.csv}: one job of one run over its repetitions. */
  static final List<String> JOB_STAT_COLUMNS = List.of("run", "mode", "cache_mb_per_node", "job",
      "benchmark", "k", "dataset", "repetitions", "succeeded", "seconds_mean", "seconds_min",
      "seconds_max", "seconds_ci95", "map_seconds_mean", "map_seconds_min", "map_seconds_max",
      "reduce_seconds_mean", "reduce_seconds_min", "reduce_seconds_max", "speedup_over_hadoop",
      "speedup_min", "speedup_max", "byte_hit_ratio_mean");

  /** Columns of {@code fig3.csv}: the plotted bars and their error bars. */
  static final List<String> FIG3_COLUMNS = List.of("phase", "run", "benchmark", "repetitions",
      "normalized_mean", "normalized_min", "normalized_max", "error_bar");

  /** Columns of {@code classes.csv}: the summary's table by shuffle class, one phase a row. */
  static final List<String> CLASS_COLUMNS = List.of("run", "mode", "cache_mb_per_node",
      "shuffle_class", "jobs", "phase", "repetitions", "speedup_over_hadoop", "speedup_min",
      "speedup_max", "paper_mpcache");

  /** Columns of {@code fig5.csv}: the plotted points ({@code all} or a shuffle class). */
  static final List<String> FIG5_COLUMNS = List.of("run", "mode", "cache_mb_per_node",
      "shuffle_class", "repetitions", "speedup_over_hadoop", "speedup_min", "speedup_max",
      "error_bar");

  /** The rows of {@code classes.csv}. */
  private List<List<String>> classCsvRows() {
    List<List<String>> rows = new ArrayList<>();
    for (ClassFigures f : classFigures(byRun.keySet())) {
      JobResult first = byRun.get(f.run()).get(0);
      for (int p = 0; p < PHASES.size(); p++) {
        OptionalDouble s = f.speedups().get(p);
        Spread range = f.ranges().get(p);
        double paper = PAPER_BY_CLASS.get(f.shuffleClass())[p];
        rows.add(List.of(f.run(), first.mode(), Long.toString(first.cacheMbPerNode()),
            f.className(), Long.toString(f.jobs()), PHASES.get(p), Integer.toString(range.n()),
            s.isPresent() ? Spread.cell(s.getAsDouble()) : "", Spread.cell(range.min()),
            Spread.cell(range.max()), Double.isNaN(paper) ? "" : Spread.cell(paper)));
      }
    }
    return rows;
  }

  private static int col(String name) {
    return RUN_COLUMNS.indexOf(name);
  }

  private List<String> runRow(String run) {
    List<JobResult> rs = byRun.get(run);
    JobResult first = rs.get(0);
    int reps = byRepetition(run).size();
    long hdfs = rs.stream().mapToLong(JobResult::hdfsBytesRead).sum();
    long cache = rs.stream().mapToLong(JobResult::cacheBytes).sum();
    long miss = rs.stream().mapToLong(JobResult::missBytes).sum();
    Spread seconds = totalSpread(run, TIME);
    OptionalDouble s = speedup(run, EvalMode.HADOOP.cliName());
    Spread sp = speedupSpread(run, EvalMode.HADOOP.cliName());
    return List.of(run, first.mode(), Long.toString(first.cacheMbPerNode()),
        Integer.toString(reps),
        Long.toString(rs.stream().mapToInt(JobResult::index).distinct().count()),
        Long.toString(rs.stream().filter(JobResult::success).count()),
        JobResult.fmt(seconds.mean()), JobResult.fmt(seconds.min()), JobResult.fmt(seconds.max()),
        Spread.cell(seconds.ci95()),
        JobResult.fmt(totalSpread(run, JobResult::mapSeconds).mean()),
        JobResult.fmt(totalSpread(run, JobResult::reduceSeconds).mean()),
        s.isPresent() ? Spread.cell(s.getAsDouble()) : "", Spread.cell(sp.min()),
        Spread.cell(sp.max()), Spread.cell(sp.ci95()),
        perRepetition(hdfs, reps), perRepetition(cache, reps), perRepetition(miss, reps),
        perRepetition(rs.stream().mapToLong(JobResult::inputTierBytes).sum(), reps),
        perRepetition(rs.stream().mapToLong(JobResult::localBytes).sum(), reps),
        perRepetition(rs.stream().mapToLong(JobResult::localSsdGranted).sum(), reps),
        perRepetition(rs.stream().mapToLong(JobResult::localSsdDenied).sum(), reps),
        String.format(Locale.ROOT, "%.4f", cache + miss == 0 ? 0 : (double) cache / (cache + miss)));
  }

  private static String perRepetition(long total, int reps) {
    return Long.toString(Math.round((double) total / reps));
  }

  private List<String> jobStatRow(String run, JobResult j) {
    JobResult first = byRun.get(run).get(0);
    int index = j.index();
    String hadoop = EvalMode.HADOOP.cliName();
    Spread t = jobSpread(run, index, TIME);
    Spread map = jobSpread(run, index, JobResult::mapSeconds);
    Spread reduce = jobSpread(run, index, JobResult::reduceSeconds);
    Spread hits = jobSpread(run, index, JobResult::byteHitRatio);
    Spread h = jobSpread(hadoop, index, TIME);
    Spread sp = byRun.containsKey(hadoop) ? jobSpeedupSpread(run, hadoop, index)
        : Spread.of(List.of());
    long reps = byRun.get(run).stream().filter(r -> r.index() == index).count();
    return List.of(run, first.mode(), Long.toString(first.cacheMbPerNode()),
        Integer.toString(index), j.benchmark(), Integer.toString(j.k()), j.dataset(),
        Long.toString(reps), Integer.toString(t.n()), Spread.cell(t.mean()), Spread.cell(t.min()),
        Spread.cell(t.max()), Spread.cell(t.ci95()), Spread.cell(map.mean()),
        Spread.cell(map.min()), Spread.cell(map.max()), Spread.cell(reduce.mean()),
        Spread.cell(reduce.min()), Spread.cell(reduce.max()),
        t.present() && h.present() ? Spread.cell(h.mean() / t.mean()) : "", Spread.cell(sp.min()),
        Spread.cell(sp.max()), Spread.cell(hits.mean()));
  }

  /** The console summary: per-job times and speedups, averages next to the paper's, tiers. */
  public String summary() {
    StringBuilder out = new StringBuilder();
    String hadoop = EvalMode.HADOOP.cliName();
    List<String> runs = new ArrayList<>(byRun.keySet());
    int reps = repetitions();
    out.append(String.format(Locale.ROOT, "Repetitions: %d per run, modes interleaved.", reps));
    if (reps > 1) {
      out.append(" Figures are means over the repetitions with [min-max];\nspeedups are ratios "
          + "of mean times, with [min-max] of the repetitions' own speedups");
      out.append(reps >= 3 ? ";\n+- is the 95% confidence interval of the mean (Student's t)."
          : " (no 95% interval below 3 repetitions).");
    }
    out.append("\n\nPer-job time (s)\n");
    perJobTable(out, runs, (r, j) -> {
      Spread t = jobSpread(r, j.index(), TIME);
      long ran = byRun.get(r).stream().filter(x -> x.index() == j.index()).count();
      String cell = t.present() ? t.describe("%.1f") : "failed";
      return t.present() && t.n() < ran ? cell + " (" + t.n() + "/" + ran + " ok)" : cell;
    });
    if (byRun.containsKey(hadoop)) {
      out.append("\nPer-job speedup over hadoop\n");
      perJobTable(out, runs, (r, j) -> {
        Spread t = jobSpread(r, j.index(), TIME);
        Spread h = jobSpread(hadoop, j.index(), TIME);
        if (!t.present() || !h.present()) {
          return "-";
        }
        Spread range = jobSpeedupSpread(r, hadoop, j.index());
        String mean = String.format(Locale.ROOT, "%.2fx", h.mean() / t.mean());
        return range.n() > 1 ? mean + String.format(Locale.ROOT, " [%.2f-%.2f]", range.min(),
            range.max()) : mean;
      });
    }
    out.append("\nRuns (totals per repetition)\n");
    out.append(String.format(Locale.ROOT, "%-20s %26s %8s %8s %26s %10s %10s %9s %13s%n", "run",
        "total s", "map s", "reduce s", "vs hadoop", "cache MiB", "tier MiB", "hit ratio",
        "local SSD MiB"));
    for (String run : runs) {
      List<String> row = runRow(run);
      Spread total = totalSpread(run, TIME);
      out.append(String.format(Locale.ROOT,
          "%-20s %26s %8.1f %8.1f %26s %10.1f %10.1f %9s %13.1f%n",
          run, withInterval(total.describe("%.1f"), total),
          Double.parseDouble(row.get(col("map_seconds"))),
          Double.parseDouble(row.get(col("reduce_seconds"))),
          speedupCell(run, hadoop),
          Long.parseLong(row.get(col("cache_bytes"))) / 1048576.0,
          Long.parseLong(row.get(col("input_tier_bytes"))) / 1048576.0,
          row.get(col("byte_hit_ratio")),
          Long.parseLong(row.get(col("local_ssd_granted_bytes"))) / 1048576.0));
    }
    String mp = mainRun(EvalMode.MPCACHE.cliName());
    out.append("\nAverage per-job speedup of mpcache                  measured        paper\n");
    averageLine(out, "over hadoop", mp, hadoop, PAPER_SPEEDUP_OVER_HADOOP);
    averageLine(out, "over pacman", mp, mainRun(EvalMode.PACMAN.cliName()),
        PAPER_SPEEDUP_OVER_PACMAN);
    averageLine(out, "over ssd-lru", mp, mainRun(EvalMode.SSD_LRU.cliName()), Double.NaN);
    byClassTable(out, runs);
    out.append("\nThe same by the jobs' own clocks (submission and the application master's "
        + "launch left out)\n");
    ownClockLine(out, "over hadoop", mp, hadoop);
    ownClockLine(out, "over ssd-lru", mp, mainRun(EvalMode.SSD_LRU.cliName()));
    String allSsd = mainRun(EvalMode.ALL_SSD.cliName());
    if (allSsd != null) {
      out.append("\nAverage per-job speedup of all-ssd (the ceiling of any SSD cache)\n");
      averageLine(out, "over hadoop", allSsd, hadoop, Double.NaN);
    }
    out.append("\nStorage tiers\n");
    tierFigures.forEach(f -> out.append("  ").append(f).append('\n'));
    if (!notices.isEmpty()) {
      out.append("\nNotices\n");
      new LinkedHashSet<>(notices).forEach(n -> out.append("  ").append(n).append('\n'));
    }
    return out.toString();
  }

  private void perJobTable(StringBuilder out, List<String> runs,
      BiFunction<String, JobResult, String> cell) {
    out.append(String.format(Locale.ROOT, "%-4s %-22s %3s", "job", "benchmark", "k"));
    for (String run : runs) {
      out.append(String.format(Locale.ROOT, " %22s", run));
    }
    out.append('\n');
    for (JobResult j : mixJobs()) {
      out.append(String.format(Locale.ROOT, "%-4d %-22s %3d", j.index(), j.benchmark(), j.k()));
      for (String run : runs) {
        out.append(String.format(Locale.ROOT, " %22s", cell.apply(run, j)));
      }
      out.append('\n');
    }
  }

  /** {@code 1.43x [1.30-1.50] +-0.05}: the speedup, its range and interval; {@code -} if none. */
  private String speedupCell(String run, String base) {
    OptionalDouble s = speedup(run, base);
    if (s.isEmpty()) {
      return "-";
    }
    Spread range = speedupSpread(run, base);
    String mean = String.format(Locale.ROOT, "%.2fx", s.getAsDouble());
    if (range.n() < 2) {
      return mean;
    }
    return withInterval(mean + String.format(Locale.ROOT, " [%.2f-%.2f]", range.min(),
        range.max()), range);
  }

  private static String withInterval(String cell, Spread s) {
    return Double.isNaN(s.ci95()) ? cell : cell + String.format(Locale.ROOT, " +-%.2f", s.ci95());
  }

  /**
   * The line of one average speedup next to the paper's, then, from two repetitions on, each
   * repetition's own speedup in the order they ran.
   */
  private void averageLine(StringBuilder out, String what, String run, String base,
      double paper) {
    out.append(line(what, speedupCell(run, base), paper));
    List<Double> own = repetitionSpeedups(run, base);
    if (own.size() > 1) {
      out.append(String.format(Locale.ROOT, "    each repetition: %s%n", own.stream()
          .map(v -> String.format(Locale.ROOT, "%.2fx", v)).collect(Collectors.joining(", "))));
    }
  }

  /** An average speedup by the jobs' own clocks ({@link JobResult#jobSeconds}), with its range. */
  private void ownClockLine(StringBuilder out, String what, String run, String base) {
    OptionalDouble s = speedup(run, base, JobResult::jobSeconds);
    if (s.isEmpty()) {
      return;
    }
    Spread range = Spread.of(repetitionSpeedups(run, base, JobResult::jobSeconds));
    out.append(line(what, ratioWithRange(s.getAsDouble(), range), Double.NaN));
  }

  /** {@code 2.10x [1.95-2.24]}: a speedup and the range of the repetitions' own, from two on. */
  private static String ratioWithRange(double speedup, Spread range) {
    return range.n() < 2 ? String.format(Locale.ROOT, "%.2fx", speedup)
        : String.format(Locale.ROOT, "%.2fx [%.2f-%.2f]", speedup, range.min(), range.max());
  }

  /**
   * Per shuffle class, each run's mean per-job speedup over Hadoop of the job and of its Map and
   * Reduce phases, with the range of the repetitions' own, and the paper's (Fig. 3).
   */
  private void byClassTable(StringBuilder out, List<String> runs) {
    String hadoop = EvalMode.HADOOP.cliName();
    if (!byRun.containsKey(hadoop)) {
      return;
    }
    out.append("\nBy shuffle class: mean per-job speedup over hadoop of the job, its Map phase "
        + "and its Reduce phase (cf. the paper's Fig. 3)\n");
    out.append(String.format(Locale.ROOT, "%-7s %4s %-20s %22s %22s %22s%n", "class", "jobs",
        "run", "job", "map", "reduce"));
    for (List<String> row : classRows(runs)) {
      out.append(String.format(Locale.ROOT, "%-7s %4s %-20s %22s %22s %22s%n", row.get(0),
          row.get(1), row.get(2), row.get(3), row.get(4), row.get(5)));
    }
  }

  /**
   * The rows of {@link #byClassTable}: class, jobs, run, then a cell per phase; after the runs
   * of a class, the paper's mpCache row.
   */
  private List<List<String>> classRows(List<String> runs) {
    List<List<String>> rows = new ArrayList<>();
    ShuffleClass last = null;
    for (ClassFigures f : classFigures(runs)) {
      if (last != null && f.shuffleClass() != last) {
        rows.add(paperRow(last));
      }
      last = f.shuffleClass();
      List<String> row = new ArrayList<>(List.of(f.className(), Long.toString(f.jobs()),
          f.run()));
      for (int p = 0; p < PHASES.size(); p++) {
        Spread range = f.ranges().get(p);
        OptionalDouble s = f.speedups().get(p);
        row.add(s.isEmpty() ? "-" : ratioWithRange(s.getAsDouble(), range));
      }
      rows.add(row);
    }
    if (last != null) {
      rows.add(paperRow(last));
    }
    return rows;
  }

  private static List<String> paperRow(ShuffleClass c) {
    List<String> paper = new ArrayList<>(List.of(className(c), "", "paper: mpcache"));
    for (double v : PAPER_BY_CLASS.get(c)) {
      paper.add(Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.2fx", v));
    }
    return paper;
  }

  /**
   * One run's speedups over Hadoop on the jobs of one shuffle class: per phase of
   * {@link #PHASES}, the mean per-job speedup and the spread of the repetitions' own.
   */
  private record ClassFigures(ShuffleClass shuffleClass, long jobs, String run,
      List<OptionalDouble> speedups, List<Spread> ranges) {
    String className() {
      return EvalReport.className(shuffleClass);
    }
  }

  /** The {@link ClassFigures} of each class of the mix and each of {@code runs} but Hadoop's. */
  private List<ClassFigures> classFigures(Iterable<String> runs) {
    String hadoop = EvalMode.HADOOP.cliName();
    List<ClassFigures> figures = new ArrayList<>();
    for (ShuffleClass c : classesRun()) {
      Predicate<JobResult> in = j -> shuffleClass(j) == c;
      long jobs = mixJobs().stream().filter(in).count();
      for (String run : runs) {
        if (run.equals(hadoop)) {
          continue;
        }
        List<OptionalDouble> speedups = new ArrayList<>();
        List<Spread> ranges = new ArrayList<>();
        for (ToDoubleFunction<JobResult> f : PHASE_TIMES) {
          speedups.add(speedup(run, hadoop, f, in));
          ranges.add(Spread.of(repetitionSpeedups(run, hadoop, f, in)));
        }
        figures.add(new ClassFigures(c, jobs, run, speedups, ranges));
      }
    }
    return figures;
  }

  private static String line(String what, String measured, double paper) {
    return String.format(Locale.ROOT, "  %-30s %28s %12s%n", what, measured,
        Double.isNaN(paper) ? "-" : String.format(Locale.ROOT, "%.2fx", paper));
  }

  /**
   * Mean phase time per benchmark and run, normalized to Hadoop's mean, with an error bar over
   * the repetitions; appends the plotted values to {@code bars}.
   */
  private Path figure3(Path file, String phase, ToDoubleFunction<JobResult> time,
      List<List<String>> bars) throws IOException {
    List<String> benchmarks = results.stream().map(JobResult::benchmark).distinct()
        .collect(Collectors.toList());
    Map<String, Double> hadoopMean = meanBy(byRun.get(EvalMode.HADOOP.cliName()), time);
    CategoryChart c = new CategoryChartBuilder().width(1000).height(500)
        .title(phase + " time normalized to Hadoop (cf. the paper's Fig. 3; bars: min-max over "
            + "repetitions)")
        .xAxisTitle("benchmark").yAxisTitle("normalized " + phase.toLowerCase(Locale.ROOT)
            + " time").build();
    c.getStyler().setXAxisLabelRotation(30);
    for (String run : byRun.keySet()) {
      Map<String, List<Double>> perRepetition = new LinkedHashMap<>();
      for (Map<Integer, JobResult> jobs : byRepetition(run).values()) {
        meanBy(new ArrayList<>(jobs.values()), time).forEach((b, m) -> {
          Double h = hadoopMean.get(b);
          if (h != null && h > 0) {
            perRepetition.computeIfAbsent(b, k -> new ArrayList<>()).add(m / h);
          }
        });
      }
      List<Double> ys = new ArrayList<>();
      List<Double> errors = new ArrayList<>();
      for (String b : benchmarks) {
        Spread s = Spread.of(perRepetition.getOrDefault(b, List.of()));
        ys.add(s.present() ? s.mean() : 0.0);
        errors.add(s.coveringBar());
        if (s.present()) {
          bars.add(List.of(phase.toLowerCase(Locale.ROOT), run, b, Integer.toString(s.n()),
              Spread.cell(s.mean()), Spread.cell(s.min()), Spread.cell(s.max()),
              Spread.cell(s.coveringBar())));
        }
      }
      c.addSeries(run, benchmarks, ys, errors);
    }
    BitmapEncoder.saveBitmap(c, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    return file;
  }

  private static Map<String, Double> meanBy(List<JobResult> rs, ToDoubleFunction<JobResult> f) {
    return rs.stream().filter(JobResult::success).collect(Collectors.groupingBy(
        JobResult::benchmark, LinkedHashMap::new, Collectors.averagingDouble(f)));
  }

  /**
   * Speedup over Hadoop against cache size per node, one line per caching mode and, when the mix
   * has jobs of more than one shuffle class, one more per mode and class (the paper's Fig. 5 has
   * a panel per class), with error bars over the repetitions' own speedups; appends the plotted
   * points to {@code points}. Null when no line has two points.
   */
  private Path figure5(Path file, List<List<String>> points) throws IOException {
    String hadoop = EvalMode.HADOOP.cliName();
    List<ShuffleClass> classes = classesRun();
    Map<String, TreeMap<Long, double[]>> lines = new LinkedHashMap<>();
    for (String run : byRun.keySet()) {
      JobResult r = byRun.get(run).get(0);
      if (r.cacheMbPerNode() == 0) {
        continue;
      }
      Map<String, Predicate<JobResult>> selections = new LinkedHashMap<>();
      selections.put("all", j -> true);
      if (classes.size() > 1) {
        classes.forEach(c -> selections.put(className(c), j -> shuffleClass(j) == c));
      }
      selections.forEach((name, which) -> {
        OptionalDouble s = speedup(run, hadoop, TIME, which);
        if (s.isEmpty()) {
          return;
        }
        Spread range = Spread.of(repetitionSpeedups(run, hadoop, TIME, which));
        double bar = range.present() ? Math.max(s.getAsDouble() - range.min(),
            range.max() - s.getAsDouble()) : 0;
        String label = name.equals("all") ? r.mode() : r.mode() + " (" + name + ")";
        lines.computeIfAbsent(label, m -> new TreeMap<>()).put(r.cacheMbPerNode(),
            new double[] {s.getAsDouble(), bar});
        points.add(List.of(run, r.mode(), Long.toString(r.cacheMbPerNode()), name,
            Integer.toString(range.n()), Spread.cell(s.getAsDouble()), Spread.cell(range.min()),
            Spread.cell(range.max()), Spread.cell(bar)));
      });
    }
    if (lines.values().stream().noneMatch(l -> l.size() > 1)) {
      return null;
    }
    XYChart c = new XYChartBuilder().width(800).height(500)
        .title("Speedup over Hadoop vs cache size per node (cf. the paper's Fig. 5)")
        .xAxisTitle("cache size per node (MiB)").yAxisTitle("mean per-job speedup").build();
    for (Map.Entry<String, TreeMap<Long, double[]>> e : lines.entrySet()) {
      double[] xs = e.getValue().keySet().stream().mapToDouble(Long::doubleValue).toArray();
      double[] ys = e.getValue().values().stream().mapToDouble(v -> v[0]).toArray();
      double[] errors = e.getValue().values().stream().mapToDouble(v -> v[1]).toArray();
      c.addSeries(e.getKey(), xs, ys, errors).setMarker(SeriesMarkers.CIRCLE);
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
