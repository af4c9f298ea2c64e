package org.mpcache.benchmarks.eval;

import java.io.File;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ToolRunner;
import org.mpcache.common.tools.CommandLineTool;
import org.mpcache.common.tools.ToolOptions;

/**
 * The evaluation's command line: runs the paper's job mix under each mode on an embedded cluster,
 * then prints the speedup table and writes CSV, JSON and plots (see {@link EvalReport}). By
 * default it runs the short hot-dataset mix ({@link EvalMix#hotWithScans}) under hadoop, mpcache
 * and ssd-lru twice, modes interleaved; {@code --compare} runs every mode three times, and
 * {@code --full} every benchmark once ({@link EvalMix#suite}) with mpCache at three cache sizes.
 * {@link #options()} declares every option with its default ({@code --help} prints them);
 * docs/evaluation.md describes them. Exit status 0 on success, 1 on bad arguments, 2 if the
 * evaluation failed.
 */
public final class EvalMain extends CommandLineTool {
  private static final long MB = 1L << 20;
  /**
   * The defaults {@code --full} sets: every benchmark once over the paper's Zipf mix of two size
   * classes, mpCache at three Input Cache sizes from below to above the working set (the
   * paper's Figs. 3 and 5; docs/evaluation.md derives each figure).
   */
  private static final Map<String, Object> FULL = fullDefaults();
  /** The {@code --modes} value that names every mode. */
  static final String ALL_MODES = "all";
  /**
   * The defaults {@code --compare} sets: every mode, three repetitions, over the paper's reuse (the
   * two most-read datasets, each read by several benchmarks) at a size where reading dominates a
   * job's fixed cost, with an Input Cache that holds both (docs/evaluation.md derives each figure).
   */
  private static final Map<String, Object> COMPARE = compareDefaults();
  /** The mix that re-reads few datasets, and the paper's mix over (kind, size class). */
  static final List<String> MIXES = List.of("hot", "reuse", "paper", "suite");
  /** The modes README's command runs: the baseline, mpCache and the admit-all SSD cache. */
  static final String DEFAULT_MODES = "hadoop,mpcache,ssd-lru";

  int jobs;
  String mixName;
  int datasets;
  int hotClass;
  int scanClass;
  int scanEvery;
  double popularity;
  List<EvalMode> modes;
  int repeat;
  long seed;
  String out;
  String work;
  int classes;
  double zipf;
  double mbPerClass;
  long blockMb;
  long cacheMb;
  long localizedMb;
  long memoryCacheMb;
  List<Long> sweepCacheMb;
  int nodes;
  int nmMemoryMb;
  String pacmanPolicy;
  int reduces;
  int kmeansIterations;
  int nodeCores;
  /** {@code -D key=value} settings, for the tiers ({@code mpcache.tiers.*}). */
  final Map<String, String> settings = new LinkedHashMap<>();

  /** An evaluation printing to the standard streams. */
  public EvalMain() {
    this(System.out, System.err);
  }

  /** An evaluation printing its results and help to {@code out}, errors to {@code err}. */
  EvalMain(PrintStream out, PrintStream err) {
    super(out, err);
    setConf(new Configuration());
    configure(options().parse(new String[0]));
  }

  private static Map<String, Object> compareDefaults() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("modes", ALL_MODES);
    m.put("repeat", 3);
    m.put("mix", "reuse");
    m.put("jobs", 8);
    m.put("datasets", 2);
    m.put("mb-per-class", 32);
    m.put("cache-mb", 72);
    m.put("memory-cache-mb", 8);
    return m;
  }

  private static Map<String, Object> fullDefaults() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("mix", "suite");
    m.put("modes", "hadoop,mpcache");
    m.put("jobs", 13);
    m.put("classes", 2);
    m.put("mb-per-class", 16);
    m.put("cache-mb", 192);
    m.put("sweep-cache-mb", "48,96,192");
    m.put("localized-mb", 256);
    m.put("memory-cache-mb", 16);
    return m;
  }

  @Override
  public ToolOptions options() {
    return new ToolOptions("EvalMain", "Runs the paper's job mix under each mode on an embedded "
        + "cluster, then prints the speedup table and writes CSV, JSON and plots.")
        .preset("full", "every benchmark once, the paper's Zipf mix, hadoop and mpcache at "
            + "three cache sizes (Figs. 3 and 5)", FULL)
        .preset("compare", "every mode, three repetitions, over two datasets re-read by 8 jobs "
            + "(the full comparison)", COMPARE)
        .option("jobs", "N", "jobs in the mix", 4)
        .option("mix", "hot|reuse|paper|suite", "hot: one hot dataset read by most jobs, one-off "
            + "scans between; reuse: few datasets, each read by several benchmarks, Zipf "
            + "popularity; paper: a dataset per input kind and size class; suite: the paper's, "
            + "with the 13 benchmarks in turn", "hot")
        .option("hot-class", "K", "size class of the hot mix's hot dataset", 3)
        .option("scan-class", "K", "size class of the hot mix's one-off scans", 2)
        .option("scan-every", "N", "hot jobs between two scans of the hot mix", 2)
        .option("datasets", "D", "datasets of the reuse mix", 3)
        .option("popularity", "S", "Zipf exponent over the reuse mix's datasets", 1.0)
        .option("modes", "m1,m2,...", "the modes to run, in order (" + Arrays.stream(
            EvalMode.values()).map(EvalMode::cliName).collect(Collectors.joining(", "))
            + "), or all", DEFAULT_MODES)
        .option("repeat", "R", "runs of the mix per mode, modes interleaved per repetition", 2)
        .option("seed", "S", "seed of the mix", 2014)
        .optional("out", "DIR", "directory for the results", "results/<UTC yyyyMMdd-HHmmss>")
        .option("work", "DIR", "directory for the clusters and the tiers", "target/eval-work")
        .option("classes", "N", "size classes (N of Equation 3)", 4)
        .option("zipf", "S", "Zipf exponent over the size classes", 1.0)
        .option("mb-per-class", "X", "MiB of a size-class-1 dataset", 16)
        .option("block-mb", "N", "HDFS block size in MiB", 16)
        .option("cache-mb", "N", "the SSD Input Cache per node (mpcache, mpcache-input, ssd-lru), "
            + "MiB", 36)
        .option("localized-mb", "N", "mpCache's Localized Cache per node, MiB", 128)
        .option("memory-cache-mb", "N", "the PACMan-like memory cache per node, MiB", 4)
        .optional("sweep-cache-mb", "a,b,...", "run mpcache once at each of these cache sizes "
            + "per node, MiB (Figure 5)", "one run at --cache-mb")
        .option("nodes", "N", "DataNodes and NodeManagers", 2)
        .option("nm-memory-mb", "N", "container memory per NodeManager, MiB", 2048)
        .option("pacman-policy", "lfu-f|life", "the PACMan-like mode's eviction policy", "lfu-f")
        .option("reduces", "N", "reduce tasks per job", 1)
        .option("kmeans-iterations", "N", "k-means iterations", 1)
        .option("node-cores", "N", "cores sharing a modelled node's disks; unset device limits "
            + "are divided by it", 16)
        .settings("mpcache.tiers.KEY=VALUE", "a storage tier setting (docs/configuration.md)");
  }

  /** Parses {@code args} into the fields; throws a UsageException naming the bad argument. */
  void parse(String[] args) {
    configure(options().parse(args));
  }

  private void configure(ToolOptions.Values o) {
    jobs = o.positiveInt("jobs");
    mixName = o.oneOf("mix", MIXES);
    datasets = o.positiveInt("datasets");
    hotClass = o.positiveInt("hot-class");
    scanClass = o.positiveInt("scan-class");
    scanEvery = o.positiveInt("scan-every");
    popularity = o.doubleAtLeast("popularity", 0);
    modes = o.string("modes").trim().equals(ALL_MODES) ? List.of(EvalMode.values())
        : o.list("modes", EvalMode::of);
    repeat = o.positiveInt("repeat");
    seed = o.longValue("seed");
    out = o.string("out");
    work = o.string("work");
    classes = o.positiveInt("classes");
    zipf = o.doubleAtLeast("zipf", 0);
    mbPerClass = o.positiveDouble("mb-per-class");
    blockMb = o.positiveLong("block-mb");
    cacheMb = o.positiveLong("cache-mb");
    localizedMb = o.positiveLong("localized-mb");
    memoryCacheMb = o.positiveLong("memory-cache-mb");
    sweepCacheMb = o.positiveLongs("sweep-cache-mb");
    nodes = o.positiveInt("nodes");
    nmMemoryMb = o.positiveInt("nm-memory-mb");
    pacmanPolicy = o.string("pacman-policy");
    reduces = o.positiveInt("reduces");
    kmeansIterations = o.positiveInt("kmeans-iterations");
    nodeCores = o.positiveInt("node-cores");
    settings.putAll(ToolOptions.commandLineSettings(getConf()));
    settings.putAll(o.settings());
  }

  @Override
  protected int execute(ToolOptions.Values o) {
    configure(o);
    try (TierLayout tiers = TierLayouts.open(new File(work, "tiers"), nodes, settings, nodeCores,
        console)) {
      run(console, System.console() != null, tiers);
      return 0;
    } catch (Exception e) {
      errors.println("The evaluation failed: " + e);
      e.printStackTrace(errors);
      return 2;
    }
  }

  /**
   * Runs the evaluation as parsed; writes results into the output directory.
   *
   * @return the report written
   */
  EvalReport run(PrintStream console, boolean terminal, TierLayout tiers) throws Exception {
    Path outDir = Path.of(out != null ? out : "results/" + ZonedDateTime.now(ZoneOffset.UTC)
        .format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT)));
    List<MixJob> mix = mix();
    EvalHarness.Settings settings = new EvalHarness.Settings(nodes, blockMb * MB, localizedMb * MB,
        nmMemoryMb, pacmanPolicy, reduces, kmeansIterations, seed, true);
    List<EvalHarness.Run> runs = new ArrayList<>();
    for (EvalMode m : modes) {
      long size = m == EvalMode.PACMAN ? memoryCacheMb : cacheMb;
      if (m == EvalMode.MPCACHE && !sweepCacheMb.isEmpty()) {
        for (long s : sweepCacheMb) {
          runs.add(new EvalHarness.Run(m, s * MB));
        }
      } else {
        runs.add(new EvalHarness.Run(m, size * MB));
      }
    }
    console.printf(Locale.ROOT, "mpCache evaluation: %d jobs (Zipf s=%.2f over %d size classes of "
        + "%.1f MiB, seed %d), %d nodes, %d repetition(s) of runs: %s%n", jobs, zipf, classes,
        mbPerClass, seed, nodes, repeat, runNames(runs));
    for (MixJob j : mix) {
      console.printf(Locale.ROOT, "  job %d: %s on %s (%.1f MiB)%n", j.index(),
          j.benchmark().name(), j.dataset(), j.bytes() / (double) MB);
    }
    console.print(describeReuse(MixReuse.of(mix)));
    tiers.figures().forEach(f -> console.println("tiers: " + f));
    List<JobResult> results;
    List<String> notices;
    try (ProgressLine progress = new ProgressLine(console, terminal,
        jobs * runs.size() * repeat)) {
      EvalHarness harness = new EvalHarness(settings, tiers, new File(work), progress);
      results = harness.runAll(runs, mix, repeat);
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

  /** The mix the options name. */
  List<MixJob> mix() {
    long bytesPerClass = (long) (mbPerClass * MB);
    return switch (mixName) {
      case "paper" -> EvalMix.paper(jobs, classes, zipf, bytesPerClass, seed);
      case "suite" -> EvalMix.suite(jobs, classes, zipf, bytesPerClass, seed);
      case "reuse" -> EvalMix.reuse(jobs, datasets, popularity, classes, zipf, bytesPerClass,
          seed);
      default -> EvalMix.hotWithScans(jobs, hotClass, scanClass, scanEvery, bytesPerClass,
          seed);
    };
  }

  /** The mix's reuse and the caches' sizes against its working set, for the run's first lines. */
  String describeReuse(MixReuse reuse) {
    double ws = reuse.workingSetBytes() / (double) MB;
    return String.format(Locale.ROOT, "input: %.1f MiB over %d datasets (working set %.1f MiB); "
        + "re-reads: %.0f%% of input bytes (one read per job)%n"
        + "caches against the working set: SSD Input Cache %d MiB x %d nodes = %.0f%%, memory "
        + "cache %d MiB x %d nodes = %.0f%%%n", reuse.inputBytes() / (double) MB,
        reuse.datasets(), ws, 100 * reuse.reReadShare(), cacheMb, nodes,
        100 * cacheMb * nodes / ws, memoryCacheMb, nodes, 100 * memoryCacheMb * nodes / ws);
  }

  private static String runNames(List<EvalHarness.Run> runs) {
    List<String> names = new ArrayList<>();
    for (EvalHarness.Run r : runs) {
      EvalMode m = r.mode();
      names.add(m.caches() ? m.cliName() + " (" + (r.cacheBytesPerNode() >> 20)
          + " MiB cache/node)" : m.cliName());
    }
    return String.join(", ", names);
  }

  /** Command-line entry: exit 0 on success, 1 on bad arguments, 2 if the evaluation failed. */
  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Configuration(), new EvalMain(), args));
  }
}
