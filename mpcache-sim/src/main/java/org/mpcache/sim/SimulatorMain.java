package org.mpcache.sim;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ToolRunner;
import org.mpcache.common.tools.CommandLineTool;
import org.mpcache.common.tools.ToolOptions;
import org.mpcache.master.arbitrator.CachePolicies;
import org.mpcache.master.arbitrator.PolicyParameters;

/**
 * Runs the simulator on the paper's mix (or a trace file, or a {@link SyntheticTrace}) for every
 * policy and cache size and prints a table of
 * block hit ratio, effective (all-or-nothing) hit ratio, estimated speedup and bytes written to
 * the SSDs, with a row for each SSD write budget given for the policies that have a write-budget
 * mode; the rows also go
 * to {@code <out>/simulation.csv}, and PNG plots against the cache size to the same folder. The
 * offline {@code belady} heuristic runs beside the online policies, and at every size the
 * {@link HitBound} on the effective hit ratio is printed, written to {@code <out>/bound.csv} and
 * drawn on the effective hit ratio plot.
 *
 * <p>{@link #options()} declares the options with their defaults ({@code --help} prints them);
 * docs/simulator.md describes them. Exit status 0 when simulated, 1 on bad arguments. Not
 * thread-safe.
 */
public final class SimulatorMain extends CommandLineTool {
  private static final long BLOCK_BYTES = 128L << 20;
  /** The value of {@code --trace} that generates a {@link SyntheticTrace}. */
  static final String SYNTHETIC = "synthetic";
  private int jobs;
  private double zipf;
  private double scale;
  private int nodes;
  private List<Long> sizesGb;
  private List<String> policies;
  /** SSD write budgets, GiB per hour per node; 0 for none. */
  private List<Double> writeBudgetsGb;
  private long seed;
  /** mpcache's full bonus, auxiliary cache capacity and size exponent. */
  private PolicyParameters parameters;
  private Path trace;
  private boolean synthetic;
  /** The synthetic trace's catalog; 0 for a quarter of the jobs. */
  private int datasets;
  private double sizeAlpha;
  private int maxDatasetBlocks;
  private double jobsPerHour;
  private int hugePaths;
  private int hugePathBlocks;
  private int hugePathReads;
  private int sliceBlocks;
  private double onceShare;
  private double hddMbps;
  private double ssdMbps;
  private int cores;
  private Path out;

  /** A simulator printing to the standard streams. */
  public SimulatorMain() {
    parse(new String[0]);
  }

  /** A simulator printing its table and help to {@code out}, errors to {@code err}. */
  SimulatorMain(PrintStream out, PrintStream err) {
    super(out, err);
    parse(new String[0]);
  }

  /** The online policies and the offline Belady heuristic. */
  static List<String> names() {
    List<String> n = new ArrayList<>(CachePolicies.names());
    n.add(BeladyDatasetPolicy.NAME);
    return n;
  }

  public static void main(String[] args) throws Exception {
    System.setProperty("java.awt.headless", "true");
    System.exit(ToolRunner.run(new Configuration(), new SimulatorMain(), args));
  }

  @Override
  public ToolOptions options() {
    return new ToolOptions("SimulatorMain", "Replays the paper's mix (or a trace) for every "
        + "policy and cache size; prints and writes hit ratios and estimated speedups.")
        .option("jobs", "N", "jobs of the paper mix or the synthetic trace", 1000)
        .option("zipf", "S", "Zipf exponent over the paper mix's size classes, or over the "
            + "synthetic trace's dataset popularity", 1.0)
        .option("scale", "X", "scale of the paper's dataset sizes", 1.0)
        .optional("trace", "FILE", "replay this trace file instead of the paper mix, or '"
            + SYNTHETIC + "' for a synthetic trace of --jobs jobs", "the paper mix")
        .optional("datasets", "N", "synthetic trace: datasets in the catalog",
            "jobs / " + SyntheticTrace.JOBS_PER_DATASET)
        .option("size-alpha", "A", "synthetic trace: Pareto tail index of dataset sizes",
            SyntheticTrace.DEFAULT_SIZE_ALPHA)
        .option("max-dataset-blocks", "N", "synthetic trace: the largest dataset, in blocks",
            SyntheticTrace.DEFAULT_MAX_DATASET_BLOCKS)
        .option("jobs-per-hour", "X", "synthetic trace: job arrival rate",
            SyntheticTrace.DEFAULT_JOBS_PER_HOUR)
        .option("huge-paths", "N", "synthetic trace: huge paths re-read in slices",
            SyntheticTrace.DEFAULT_HUGE_PATHS)
        .option("huge-path-blocks", "N", "synthetic trace: a huge path's blocks",
            SyntheticTrace.DEFAULT_HUGE_PATH_BLOCKS)
        .option("huge-path-reads", "N", "synthetic trace: jobs reading each huge path",
            SyntheticTrace.DEFAULT_HUGE_PATH_READS)
        .option("slice-blocks", "N", "synthetic trace: most first blocks a job reads of a huge "
            + "path", SyntheticTrace.DEFAULT_SLICE_BLOCKS)
        .option("once-share", "X", "synthetic trace: share of jobs reading a path no other job "
            + "reads, in [0, 1)", SyntheticTrace.DEFAULT_ONCE_SHARE)
        .option("nodes", "N", "nodes of the simulated cluster", 7)
        .option("sizes-gb", "5,10,...", "cache sizes per node, GB", "5,10,20,40,80,160")
        .option("policies", "a,b,...", "policies to simulate", String.join(",", names()))
        .option("write-budgets-gb", "0,8,...", "SSD write budgets, GiB per hour per node, each "
            + "run for every policy with a write-budget mode (0: none)", "0")
        .option("seed", "N", "seed of the paper mix or the synthetic trace", 1)
        .option("full-bonus", "X", "mpcache's bonus for completing a dataset",
            PolicyParameters.DEFAULT_FULL_BONUS)
        .option("auxiliary", "N", "mpcache's auxiliary cache capacity",
            PolicyParameters.DEFAULT_AUXILIARY_CAPACITY)
        .option("size-exponent", "B", "mpcache's exponent b of Fr/Size^b, from 0 to 1",
            PolicyParameters.DEFAULT_SIZE_EXPONENT)
        .option("hdd-mbps", "X", "effective HDD read rate per node, MB/s", 30)
        .option("ssd-mbps", "X", "effective SSD read rate per node, MB/s", 90)
        .option("cores", "N", "cores per node", 16)
        .option("out", "DIR", "directory for simulation.csv and the plots", "results/sim");
  }

  @Override
  protected int execute(ToolOptions.Values o) throws IOException {
    configure(o);
    run(console);
    return 0;
  }

  /** Parses {@code args} into the fields; throws a UsageException naming the bad argument. */
  void parse(String[] args) {
    configure(options().parse(args));
  }

  private void configure(ToolOptions.Values o) {
    jobs = o.positiveInt("jobs");
    zipf = o.doubleAtLeast("zipf", 0);
    scale = o.positiveDouble("scale");
    synthetic = SYNTHETIC.equals(o.string("trace"));
    trace = synthetic ? null : o.path("trace");
    datasets = o.has("datasets") ? o.positiveInt("datasets") : 0;
    sizeAlpha = o.positiveDouble("size-alpha");
    maxDatasetBlocks = o.positiveInt("max-dataset-blocks");
    jobsPerHour = o.positiveDouble("jobs-per-hour");
    hugePaths = o.intAtLeast("huge-paths", 0);
    hugePathBlocks = o.positiveInt("huge-path-blocks");
    hugePathReads = o.intAtLeast("huge-path-reads", 0);
    sliceBlocks = o.positiveInt("slice-blocks");
    onceShare = o.doubleAtLeast("once-share", 0);
    if (onceShare >= 1 || sliceBlocks > hugePathBlocks) {
      throw new ToolOptions.UsageException("--once-share must be below 1 and --slice-blocks at "
          + "most --huge-path-blocks, got " + onceShare + " and " + sliceBlocks);
    }
    nodes = o.positiveInt("nodes");
    sizesGb = o.positiveLongs("sizes-gb");
    policies = o.allOf("policies", names());
    writeBudgetsGb = o.list("write-budgets-gb", v -> {
      double gb = Double.parseDouble(v);
      if (!(gb >= 0) || Double.isInfinite(gb)) {
        throw new IllegalArgumentException("a write budget must be a number >= 0, got '" + v
            + "'");
      }
      return gb;
    });
    seed = o.longValue("seed");
    double sizeExponent = o.doubleAtLeast("size-exponent", 0);
    if (sizeExponent > 1) {
      throw new ToolOptions.UsageException("--size-exponent must be at most 1, got "
          + sizeExponent);
    }
    parameters = new PolicyParameters(o.doubleAtLeast("full-bonus", 0),
        o.positiveInt("auxiliary"), sizeExponent);
    hddMbps = o.positiveDouble("hdd-mbps");
    ssdMbps = o.positiveDouble("ssd-mbps");
    cores = o.positiveInt("cores");
    out = o.path("out");
  }

  /** The synthetic trace generator the options describe. */
  SyntheticTrace synthetic() {
    return new SyntheticTrace(datasets(), zipf, sizeAlpha, maxDatasetBlocks, jobsPerHour,
        BLOCK_BYTES).withPaths(hugePaths, hugePathBlocks, hugePathReads, sliceBlocks, onceShare);
  }

  private int datasets() {
    return datasets > 0 ? datasets : SyntheticTrace.catalogFor(jobs);
  }

  /** Runs every policy at every size; prints the table and writes the CSV. */
  List<SimResult> run(PrintStream console) throws IOException {
    List<SimJob> trace;
    if (synthetic) {
      SyntheticTrace generator = synthetic();
      trace = generator.jobs(jobs, seed);
      SyntheticTrace.Profile p = generator.profile(trace);
      console.printf(Locale.ROOT, "Synthetic trace: %d jobs over %d datasets (%d read, the "
          + "largest %d blocks), Zipf s=%.2f, size tail index %.2f, %.0f jobs/hour, %d nodes, "
          + "seed %d%n", jobs, datasets(), p.datasetsRead, p.largestDatasetBlocks, zipf,
          sizeAlpha, jobsPerHour, nodes, seed);
      console.printf(Locale.ROOT, "  jobs on datasets of <= %d blocks %.3f (they hold %.3f of "
          + "the bytes of the datasets read); bytes read by the largest tenth of jobs %.3f; jobs "
          + "re-reading a dataset read in the previous 6 hours %.3f; jobs on singly-read datasets "
          + "%.3f%n", SyntheticTrace.SMALL_DATASET_BLOCKS, p.smallJobs, p.smallDatasetBytes,
          p.largestTenthBytes, p.reReadWithinSixHours, p.singlyRead);
      console.printf(Locale.ROOT, "  paths read once %.3f; jobs reading at most a tenth of "
          + "their path %d, at most %d on one path%n", p.pathsReadOnce, p.sliceJobs,
          p.mostSliceReadsOfOnePath);
    } else if (this.trace == null) {
      trace = new PaperMix(zipf, scale, BLOCK_BYTES).jobs(jobs, seed);
      console.printf(Locale.ROOT, "Paper mix: %d jobs, Zipf s=%.2f, scale %.2f, %d nodes, "
          + "seed %d%n", jobs, zipf, scale, nodes, seed);
    } else {
      trace = TraceFile.read(this.trace, BLOCK_BYTES);
      console.printf(Locale.ROOT, "Trace %s: %d jobs, %d nodes%n", this.trace, trace.size(),
          nodes);
    }
    CostModel cost = CostModel.of(nodes, hddMbps, ssdMbps, cores);
    console.printf("%-14s %8s %10s %14s %9s %10s %10s %12s%n", "policy", "GB/node",
        "hit ratio", "effective hit", "speedup", "HDD GiB", "SSD GiB", "written GiB");
    List<SimResult> results = new ArrayList<>();
    List<String> csv = new ArrayList<>();
    csv.add(SimResult.csvHeader());
    List<String> boundCsv = new ArrayList<>();
    boundCsv.add("cache_gb_per_node,jobs,whole_input_cached_jobs_bound,effective_hit_ratio_bound");
    Map<Long, Double> bounds = new LinkedHashMap<>();
    for (long gb : sizesGb) {
      ClusterSimulator.Config c = new ClusterSimulator.Config(nodes, gb << 30, BLOCK_BYTES, 3,
          cost);
      double bound = HitBound.wholeInputJobs(trace, new ClusterSimulator(c).capacityBlocks());
      double boundRatio = trace.isEmpty() ? 0 : bound / trace.size();
      bounds.put(gb << 30, boundRatio);
      boundCsv.add(String.format(Locale.ROOT, "%d,%d,%.2f,%.4f", gb, trace.size(), bound,
          boundRatio));
      console.printf(Locale.ROOT, "%-14s %8d %10s %14.3f %9s %10s %10s %12s%n", "bound", gb,
          "-", boundRatio, "-", "-", "-", "-");
      for (String p : policies) {
        for (double budgetGb : writeBudgetsGb) {
          if (budgetGb > 0 && !CachePolicies.withWriteBudgetMode().contains(p)) {
            continue;
          }
          SimResult r = new ClusterSimulator(c.withWriteBudget((long) (budgetGb * (1L << 30))))
              .run(p.equals(BeladyDatasetPolicy.NAME) ? new BeladyDatasetPolicy(trace)
                  : CachePolicies.create(p, parameters), trace);
          results.add(r);
          csv.add(r.csv());
          console.printf(Locale.ROOT, "%-14s %8d %10.3f %14.3f %9.3f %10.0f %10.0f %12.0f%n",
              r.policy, gb, r.hitRatio(), r.effectiveHitRatio(), r.speedup(),
              r.hddBytes / (double) (1L << 30), r.ssdBytes / (double) (1L << 30),
              r.ssdWrittenGib());
        }
      }
    }
    Files.createDirectories(out);
    Files.write(out.resolve("simulation.csv"), csv, StandardCharsets.UTF_8);
    Files.write(out.resolve("bound.csv"), boundCsv, StandardCharsets.UTF_8);
    console.println("CSV: " + out.resolve("simulation.csv") + ", " + out.resolve("bound.csv"));
    for (Path png : SimPlots.write(results, bounds, out)) {
      console.println("Plot: " + png);
    }
    return results;
  }
}
