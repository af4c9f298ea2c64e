package org.mpcache.benchmarks.sim;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.mpcache.master.arbitrator.CachePolicies;
import org.mpcache.master.arbitrator.CachePolicy;
import org.mpcache.master.arbitrator.PolicyParameters;

/**
 * The simulator's command line: replays the paper's job mix or a trace file for every policy and
 * every cache size per node, prints a table, and writes {@code results.csv} and PNG plots of the
 * effective hit ratio, block hit ratio and estimated speedup versus cache size. Flags (defaults in
 * brackets): {@code --nodes [7] --jobs [3000] --warmup [jobs/10] --zipf [1.0] --seed [42]
 * --cache-gb [5,10,20,40,80,160] --policies [every name, then clairvoyant] --trace FILE
 * --out [target/sim] --block-mb [128] --replicas [3] --hdd-mbps [30] --ssd-mbps [90]
 * --cores [16] --full-bonus [0.001] --aux-datasets [1024] --plots [true]}. See docs/simulator.md.
 */
public final class SimulatorMain {
  private static final long GB = 1L << 30;

  private SimulatorMain() {
  }

  public static void main(String[] args) throws IOException {
    System.setProperty("java.awt.headless", "true");
    Map<String, String> flags = parse(args);
    int nodes = Integer.parseInt(flags.getOrDefault("nodes", "7"));
    int jobs = Integer.parseInt(flags.getOrDefault("jobs", "3000"));
    long seed = Long.parseLong(flags.getOrDefault("seed", "42"));
    double zipf = Double.parseDouble(flags.getOrDefault("zipf", "1.0"));
    long blockBytes = Long.parseLong(flags.getOrDefault("block-mb", "128")) << 20;
    int replicas = Integer.parseInt(flags.getOrDefault("replicas", "3"));
    Path out = Path.of(flags.getOrDefault("out", "target/sim"));
    CostModel cost = new CostModel(nodes, Double.parseDouble(flags.getOrDefault("hdd-mbps", "30")),
        Double.parseDouble(flags.getOrDefault("ssd-mbps", "90")), 117,
        Integer.parseInt(flags.getOrDefault("cores", "16")), 20);
    PolicyParameters params = PolicyParameters.builder()
        .fullBonus(Double.parseDouble(flags.getOrDefault("full-bonus",
            String.valueOf(PolicyParameters.DEFAULT_FULL_BONUS))))
        .auxiliaryCacheDatasets(Integer.parseInt(flags.getOrDefault("aux-datasets",
            String.valueOf(PolicyParameters.DEFAULT_AUXILIARY_CACHE_DATASETS))))
        .build();
    List<SimJob> trace = flags.containsKey("trace") ? TraceCsv.read(Path.of(flags.get("trace")))
        : PumaWorkload.generate(jobs, zipf, seed);
    int warmup = Integer.parseInt(flags.getOrDefault("warmup", String.valueOf(trace.size() / 10)));
    List<String> policies = new ArrayList<>(CachePolicies.names());
    policies.add(ClairvoyantPolicy.NAME);
    if (flags.containsKey("policies")) {
      policies = Arrays.asList(flags.get("policies").split(","));
    }
    List<Long> cacheGb = new ArrayList<>();
    for (String s : flags.getOrDefault("cache-gb", "5,10,20,40,80,160").split(",")) {
      cacheGb.add(Long.parseLong(s.strip()));
    }

    List<SimResult> results = new ArrayList<>();
    PrintStream o = System.out;
    o.printf(Locale.ROOT, "%d jobs (%d warm-up) on %d nodes, %s%n", trace.size(), warmup, nodes,
        flags.containsKey("trace") ? "trace " + flags.get("trace") : "PUMA mix, zipf " + zipf
            + ", seed " + seed);
    o.printf(Locale.ROOT, "%-12s %8s %9s %9s %8s %10s %10s%n", "policy", "cacheGB", "blockHit",
        "effHit", "speedup", "hddGB", "ssdGB");
    for (long gb : cacheGb) {
      for (String name : policies) {
        CachePolicy policy = name.equals(ClairvoyantPolicy.NAME) ? new ClairvoyantPolicy(trace)
            : CachePolicies.create(name, params);
        SimResult r = new Simulator(nodes, replicas, blockBytes, gb * GB, policy, cost, seed)
            .run(trace, warmup);
        results.add(r);
        o.printf(Locale.ROOT, "%-12s %8d %9.4f %9.4f %8.3f %10.1f %10.1f%n", name, gb,
            r.blockHitRatio(), r.effectiveHitRatio(), r.speedup(), r.hddBytes() / (double) GB,
            r.ssdBytes() / (double) GB);
      }
    }
    Files.createDirectories(out);
    writeCsv(results, out.resolve("results.csv"));
    if (Boolean.parseBoolean(flags.getOrDefault("plots", "true"))) {
      plot(results, policies, out.resolve("effective-hit-ratio.png"), "Effective hit ratio",
          SimResult::effectiveHitRatio);
      plot(results, policies, out.resolve("block-hit-ratio.png"), "Block hit ratio",
          SimResult::blockHitRatio);
      plot(results, policies, out.resolve("speedup.png"), "Estimated mean job speedup",
          SimResult::speedup);
    }
    o.println("Wrote " + out.toAbsolutePath());
  }

  static Map<String, String> parse(String[] args) {
    Map<String, String> flags = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) {
        throw new IllegalArgumentException("expected --flag value pairs, got '" + args[i] + "'");
      }
      flags.put(args[i].substring(2), args[++i]);
    }
    return flags;
  }

  static void writeCsv(List<SimResult> results, Path file) throws IOException {
    List<String> lines = new ArrayList<>();
    lines.add("policy,cache_gb_per_node,block_accesses,block_hits,block_hit_ratio,jobs,"
        + "fully_cached_jobs,effective_hit_ratio,hdd_bytes,ssd_bytes,job_seconds,"
        + "uncached_job_seconds,mean_job_speedup,total_time_speedup");
    for (SimResult r : results) {
      lines.add(String.format(Locale.ROOT, "%s,%d,%d,%d,%.6f,%d,%d,%.6f,%d,%d,%.1f,%.1f,%.6f,%.6f",
          r.policy(), r.cacheBytesPerNode() / GB, r.blockAccesses(), r.blockHits(),
          r.blockHitRatio(), r.jobs(), r.fullyCachedJobs(), r.effectiveHitRatio(), r.hddBytes(),
          r.ssdBytes(), r.jobSeconds(), r.uncachedJobSeconds(), r.speedup(),
          r.totalTimeSpeedup()));
    }
    Files.write(file, lines, StandardCharsets.UTF_8);
  }

  private static void plot(List<SimResult> results, List<String> policies, Path file, String title,
      java.util.function.ToDoubleFunction<SimResult> metric) throws IOException {
    XYChart chart = new XYChartBuilder().width(900).height(600).title(title)
        .xAxisTitle("Cache size per node (GB)").yAxisTitle(title).build();
    chart.getStyler().setXAxisLogarithmic(true);
    for (String name : policies) {
      List<Double> x = new ArrayList<>();
      List<Double> y = new ArrayList<>();
      for (SimResult r : results) {
        if (r.policy().equals(name)) {
          x.add((double) (r.cacheBytesPerNode() / GB));
          y.add(metric.applyAsDouble(r));
        }
      }
      chart.addSeries(name, x, y).setMarker(SeriesMarkers.CIRCLE);
    }
    BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
  }
}
