package org.mpcache.sim;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.mpcache.master.arbitrator.CachePolicies;
import org.mpcache.master.arbitrator.PolicyParameters;

/**
 * Runs the simulator on the paper's mix for every policy and cache size and prints a table of
 * block hit ratio, effective (all-or-nothing) hit ratio and estimated speedup; the rows also go
 * to {@code <out>/simulation.csv}, and PNG plots against the cache size to the same folder. The
 * offline {@code clairvoyant} bound runs beside the online policies.
 *
 * <p>Usage: {@code SimulatorMain [--jobs N] [--zipf S] [--scale X] [--trace FILE] [--nodes N]
 * [--sizes-gb 5,10,...] [--policies a,b] [--seed N] [--full-bonus X] [--auxiliary N]
 * [--hdd-mbps X] [--ssd-mbps X] [--cores N] [--out DIR]}; docs/simulator.md describes them.
 * Not thread-safe.
 */
public final class SimulatorMain {
  private static final long BLOCK_BYTES = 128L << 20;
  private int jobs = 1000;
  private double zipf = 1.0;
  private double scale = 1.0;
  private int nodes = 7;
  private List<Long> sizesGb = List.of(5L, 10L, 20L, 40L, 80L, 160L);
  private List<String> policies = names();
  private long seed = 1;
  private double fullBonus = PolicyParameters.DEFAULT_FULL_BONUS;
  private int auxiliary = PolicyParameters.DEFAULT_AUXILIARY_CAPACITY;
  private Path trace;
  private double hddMbps = 30;
  private double ssdMbps = 90;
  private int cores = 16;
  private Path out = Paths.get("results", "sim");

  /** The online policies and the offline clairvoyant bound. */
  static List<String> names() {
    List<String> n = new ArrayList<>(CachePolicies.names());
    n.add(ClairvoyantPolicy.NAME);
    return n;
  }

  public static void main(String[] args) throws IOException {
    System.setProperty("java.awt.headless", "true");
    SimulatorMain m = new SimulatorMain();
    try {
      m.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.err.println("Usage: SimulatorMain [--jobs N] [--zipf S] [--scale X] [--trace FILE] "
          + "[--nodes N] [--sizes-gb 5,10,...] [--policies " + String.join(",", names())
          + "] [--seed N] [--full-bonus X] [--auxiliary N] [--hdd-mbps X] [--ssd-mbps X] "
          + "[--cores N] [--out DIR]");
      System.exit(1);
    }
    m.run(System.out);
  }

  void parse(String[] args) {
    for (int i = 0; i < args.length; i += 2) {
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("Missing value after " + args[i]);
      }
      String v = args[i + 1];
      try {
        switch (args[i]) {
          case "--jobs": jobs = Integer.parseInt(v); break;
          case "--zipf": zipf = Double.parseDouble(v); break;
          case "--scale": scale = Double.parseDouble(v); break;
          case "--nodes": nodes = Integer.parseInt(v); break;
          case "--seed": seed = Long.parseLong(v); break;
          case "--full-bonus": fullBonus = Double.parseDouble(v); break;
          case "--auxiliary": auxiliary = Integer.parseInt(v); break;
          case "--trace": trace = Paths.get(v); break;
          case "--hdd-mbps": hddMbps = Double.parseDouble(v); break;
          case "--ssd-mbps": ssdMbps = Double.parseDouble(v); break;
          case "--cores": cores = Integer.parseInt(v); break;
          case "--out": out = Paths.get(v); break;
          case "--policies": policies = Arrays.asList(v.split(",")); break;
          case "--sizes-gb":
            List<Long> s = new ArrayList<>();
            for (String x : v.split(",")) {
              s.add(Long.parseLong(x.trim()));
            }
            sizesGb = s;
            break;
          default: throw new IllegalArgumentException("Unknown option " + args[i]);
        }
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(args[i] + " needs a number, got '" + v + "'");
      }
    }
    for (String p : policies) {
      if (!names().contains(p)) {
        throw new IllegalArgumentException("Unknown policy '" + p + "'; known: "
            + String.join(", ", names()));
      }
    }
    if (jobs < 1 || nodes < 1 || cores < 1 || auxiliary < 1) {
      throw new IllegalArgumentException(
          "--jobs, --nodes, --cores and --auxiliary must be at least 1");
    }
    if (!(hddMbps > 0) || !(ssdMbps > 0)) {
      throw new IllegalArgumentException("--hdd-mbps and --ssd-mbps must be positive");
    }
    new PolicyParameters(fullBonus, auxiliary);
  }

  /** Runs every policy at every size; prints the table and writes the CSV. */
  List<SimResult> run(PrintStream console) throws IOException {
    List<SimJob> trace;
    if (this.trace == null) {
      trace = new PaperMix(zipf, scale, BLOCK_BYTES).jobs(jobs, seed);
      console.printf(Locale.ROOT, "Paper mix: %d jobs, Zipf s=%.2f, scale %.2f, %d nodes, "
          + "seed %d%n", jobs, zipf, scale, nodes, seed);
    } else {
      trace = TraceFile.read(this.trace, BLOCK_BYTES);
      console.printf(Locale.ROOT, "Trace %s: %d jobs, %d nodes%n", this.trace, trace.size(),
          nodes);
    }
    CostModel cost = CostModel.of(nodes, hddMbps, ssdMbps, cores);
    console.printf("%-11s %8s %10s %14s %9s %10s %10s%n", "policy", "GB/node", "hit ratio",
        "effective hit", "speedup", "HDD GiB", "SSD GiB");
    PolicyParameters parameters = new PolicyParameters(fullBonus, auxiliary);
    List<SimResult> results = new ArrayList<>();
    List<String> csv = new ArrayList<>();
    csv.add(SimResult.csvHeader());
    for (long gb : sizesGb) {
      for (String p : policies) {
        ClusterSimulator.Config c = new ClusterSimulator.Config(nodes, gb << 30, BLOCK_BYTES, 3,
            cost);
        SimResult r = new ClusterSimulator(c).run(p.equals(ClairvoyantPolicy.NAME)
            ? new ClairvoyantPolicy(trace) : CachePolicies.create(p, parameters), trace);
        results.add(r);
        csv.add(r.csv());
        console.printf(Locale.ROOT, "%-11s %8d %10.3f %14.3f %9.3f %10.0f %10.0f%n", p, gb,
            r.hitRatio(), r.effectiveHitRatio(), r.speedup(), r.hddBytes / (double) (1L << 30),
            r.ssdBytes / (double) (1L << 30));
      }
    }
    Files.createDirectories(out);
    Files.write(out.resolve("simulation.csv"), csv, StandardCharsets.UTF_8);
    console.println("CSV: " + out.resolve("simulation.csv"));
    for (Path png : SimPlots.write(results, out)) {
      console.println("Plot: " + png);
    }
    return results;
  }
}
