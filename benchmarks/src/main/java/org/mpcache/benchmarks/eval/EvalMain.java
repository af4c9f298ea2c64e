package org.mpcache.benchmarks.eval;

import java.io.File;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The evaluation's command line: runs the paper's job mix under each mode on an embedded cluster,
 * then prints the speedup table and writes CSV, JSON and plots (see {@link EvalReport}).
 *
 * <p>Usage: {@code EvalMain [--full] [--jobs N] [--modes m1,m2,...] [--seed S] [--out DIR]
 * [--work DIR] [--classes N] [--zipf S] [--mb-per-class X] [--block-mb N] [--cache-mb N]
 * [--localized-mb N] [--memory-cache-mb N] [--sweep-cache-mb a,b,...] [--nodes N] [--nm-memory-mb N]
 * [--pacman-policy lfu-f|life] [--reduces N] [--kmeans-iterations N] [-D key=value ...]}. Without {@code --full}
 * it runs the short mix (about 15 minutes on 2 cores); {@code --full} selects the paper's 20 size
 * classes and a longer mix.
 */
public final class EvalMain {
  private static final long MB = 1L << 20;

  int jobs = 5;
  List<EvalMode> modes = List.of(EvalMode.values());
  long seed = 2014;
  String out;
  String work = "target/eval-work";
  int classes = 4;
  double zipf = 1.0;
  double mbPerClass = 6;
  long blockMb = 4;
  long cacheMb = 256;
  long localizedMb = 128;
  long memoryCacheMb = 128;
  List<Long> sweepCacheMb = List.of();
  int nodes = 2;
  int nmMemoryMb = 2048;
  String pacmanPolicy = "lfu-f";
  int reduces = 1;
  int kmeansIterations = 2;
  int nodeCores = 8;
  /** {@code -D key=value} settings, for the tiers ({@code mpcache.tiers.*}). */
  final Map<String, String> settings = new LinkedHashMap<>();

  /** Parses {@code args}; throws IllegalArgumentException naming the bad argument. */
  void parse(String[] args) {
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--full")) {
        jobs = 30;
        classes = 20;
        mbPerClass = 12;
        cacheMb = 1024;
        localizedMb = 256;
        memoryCacheMb = 256;
        kmeansIterations = 3;
        continue;
      }
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("Missing value after " + a);
      }
      String v = args[++i];
      try {
        switch (a) {
          case "-D" -> {
            int eq = v.indexOf('=');
            if (eq <= 0) {
              throw new IllegalArgumentException("-D needs key=value, got '" + v + "'");
            }
            settings.put(v.substring(0, eq), v.substring(eq + 1));
          }
          case "--jobs" -> jobs = Integer.parseInt(v);
          case "--modes" -> {
            List<EvalMode> m = new ArrayList<>();
            for (String s : v.split(",")) {
              m.add(EvalMode.of(s));
            }
            modes = m;
          }
          case "--seed" -> seed = Long.parseLong(v);
          case "--out" -> out = v;
          case "--work" -> work = v;
          case "--classes" -> classes = Integer.parseInt(v);
          case "--zipf" -> zipf = Double.parseDouble(v);
          case "--mb-per-class" -> mbPerClass = Double.parseDouble(v);
          case "--block-mb" -> blockMb = Long.parseLong(v);
          case "--cache-mb" -> cacheMb = Long.parseLong(v);
          case "--localized-mb" -> localizedMb = Long.parseLong(v);
          case "--memory-cache-mb" -> memoryCacheMb = Long.parseLong(v);
          case "--sweep-cache-mb" -> {
            List<Long> s = new ArrayList<>();
            for (String x : v.split(",")) {
              s.add(Long.parseLong(x.trim()));
            }
            sweepCacheMb = s;
          }
          case "--nodes" -> nodes = Integer.parseInt(v);
          case "--nm-memory-mb" -> nmMemoryMb = Integer.parseInt(v);
          case "--pacman-policy" -> pacmanPolicy = v;
          case "--reduces" -> reduces = Integer.parseInt(v);
          case "--kmeans-iterations" -> kmeansIterations = Integer.parseInt(v);
          case "--node-cores" -> {
            nodeCores = Integer.parseInt(v);
            if (nodeCores < 1) {
              throw new IllegalArgumentException("--node-cores must be at least 1, got " + v);
            }
          }
          default -> throw new IllegalArgumentException("Unknown option " + a);
        }
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("Bad number for " + a + ": '" + v + "'");
      }
    }
  }

  static final String USAGE = "Usage: EvalMain [--full] [--jobs N] [--modes hadoop,mpcache,pacman,"
      + "all-ssd] [--seed S] [--out DIR] [--work DIR] [--classes N] [--zipf S] [--mb-per-class X]"
      + " [--block-mb N] [--cache-mb N] [--localized-mb N] [--memory-cache-mb N] [--sweep-cache-mb a,b,...] "
      + "[--nodes N] [--nm-memory-mb N] [--pacman-policy lfu-f|life] [--reduces N] "
      + "[--kmeans-iterations N] [--node-cores N] [-D mpcache.tiers.KEY=VALUE ...]";

  /**
   * Runs the evaluation as parsed; writes results into the output directory.
   *
   * @return the report written
   */
  EvalReport run(PrintStream console, boolean terminal, TierLayout tiers) throws Exception {
    Path outDir = Path.of(out != null ? out : "results/" + ZonedDateTime.now(ZoneOffset.UTC)
        .format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT)));
    List<MixJob> mix = EvalMix.paper(jobs, classes, zipf, (long) (mbPerClass * MB), seed);
    EvalHarness.Settings settings = new EvalHarness.Settings(nodes, blockMb * MB, cacheMb * MB,
        localizedMb * MB, memoryCacheMb * MB, nmMemoryMb, pacmanPolicy, reduces, kmeansIterations, seed);
    List<long[]> runs = new ArrayList<>();
    for (EvalMode m : modes) {
      long size = m == EvalMode.PACMAN ? memoryCacheMb : cacheMb;
      if (m == EvalMode.MPCACHE && !sweepCacheMb.isEmpty()) {
        for (long s : sweepCacheMb) {
          runs.add(new long[] {m.ordinal(), s * MB});
        }
      } else {
        runs.add(new long[] {m.ordinal(), size * MB});
      }
    }
    console.printf(Locale.ROOT, "mpCache evaluation: %d jobs (Zipf s=%.2f over %d size classes of "
        + "%.1f MiB, seed %d), %d nodes, runs: %s%n", jobs, zipf, classes, mbPerClass, seed, nodes,
        runNames(runs));
    for (MixJob j : mix) {
      console.printf(Locale.ROOT, "  job %d: %s on %s (%.1f MiB)%n", j.index(),
          j.benchmark().name(), j.dataset(), j.bytes() / (double) MB);
    }
    tiers.figures().forEach(f -> console.println("tiers: " + f));
    List<JobResult> results = new ArrayList<>();
    List<String> notices;
    try (ProgressLine progress = new ProgressLine(console, terminal, jobs * runs.size())) {
      EvalHarness harness = new EvalHarness(settings, tiers, new File(work), progress);
      for (long[] r : runs) {
        results.addAll(harness.run(EvalMode.values()[(int) r[0]], r[1], mix));
      }
      notices = progress.notices();
    }
    EvalReport report = new EvalReport(results, tiers.figures(), notices);
    List<Path> plots = report.write(outDir);
    tiers.writeFigures(outDir);
    console.println();
    console.print(report.summary());
    console.println("\nResults in " + outDir.toAbsolutePath());
    plots.forEach(p -> console.println("  plot: " + p.toAbsolutePath()));
    return report;
  }

  private static String runNames(List<long[]> runs) {
    List<String> names = new ArrayList<>();
    for (long[] r : runs) {
      EvalMode m = EvalMode.values()[(int) r[0]];
      names.add(m.caches() ? m.cliName() + " (" + (r[1] >> 20) + " MiB cache/node)" : m.cliName());
    }
    return String.join(", ", names);
  }

  /** Command-line entry: exit 0 on success, 1 on bad arguments, 2 if the evaluation failed. */
  public static void main(String[] args) {
    EvalMain main = new EvalMain();
    if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
      System.out.println(USAGE);
      System.exit(0);
    }
    try {
      main.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.err.println(USAGE);
      System.exit(1);
    }
    int code = 0;
    try (TierLayout tiers = TierLayouts.open(new File(main.work, "tiers"), main.nodes,
        main.settings, main.nodeCores, System.out)) {
      main.run(System.out, System.console() != null, tiers);
    } catch (Exception e) {
      System.err.println("The evaluation failed: " + e);
      e.printStackTrace();
      code = 2;
    }
    System.exit(code);
  }
}
