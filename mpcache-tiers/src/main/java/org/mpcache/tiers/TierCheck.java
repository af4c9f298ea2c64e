package org.mpcache.tiers;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.mpcache.common.MpCacheConfiguration;

/**
 * Sets up the storage tiers, measures every node's HDD and SSD cold, prints the mechanism and
 * the figures, and tears the tiers down. The {@link TierConfigKeys} come from
 * mpcache-default.xml, mpcache-site.xml and {@code -D key=value} options.
 *
 * <p>Usage: {@code TierCheck [-D mpcache.tiers.KEY=VALUE ...] [--dir DIR] [--nodes N]
 * [--seconds S] [--readers N] [--out DIR]}: each measured phase lasts about S seconds at
 * the configured limits (default 2). Exit status 0 when measured,
 * 1 on a usage error, 2 when setup, measurement or teardown failed.
 */
public final class TierCheck extends Configured implements Tool {
  static final String USAGE = "Usage: TierCheck [-D mpcache.tiers.KEY=VALUE ...] [--dir DIR] "
      + "[--nodes N] [--seconds S] [--readers N] [--out DIR]";

  private final PrintStream out;
  private Path dir = Paths.get(System.getProperty("java.io.tmpdir"), "mpcache-tiercheck");
  private int nodes = 2;
  private double seconds = 2;
  private int readers = 4;
  private Path resultDir;

  TierCheck(Configuration conf, PrintStream out) {
    super(conf);
    this.out = out;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new TierCheck(MpCacheConfiguration.create(TierConfigKeys.DEFAULT_RESOURCE),
        System.out), args));
  }

  @Override
  public int run(String[] args) {
    try {
      parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.err.println(USAGE);
      return 1;
    }
    StorageTiers tiers = new StorageTiers(dir, nodes);
    try {
      tiers.init(getConf());
    } catch (RuntimeException e) {
      System.err.println(e.getMessage());
      return 1;
    }
    try {
      tiers.start();
      out.print(tiers.describe());
      TierReport report = new TierMeasurement(seconds, readers)
          .measure(tiers, List.of());
      out.println();
      out.print(report);
      if (resultDir != null) {
        Files.createDirectories(resultDir);
        Files.writeString(resultDir.resolve("tiers.csv"), report.toCsv(), StandardCharsets.UTF_8);
        Files.writeString(resultDir.resolve("tiers.json"), report.toJson(),
            StandardCharsets.UTF_8);
        out.println("Wrote " + resultDir.resolve("tiers.csv") + " and "
            + resultDir.resolve("tiers.json"));
      }
    } catch (IOException | RuntimeException e) {
      System.err.println("Tier check failed: " + e);
      e.printStackTrace();
      return 2;
    } finally {
      try {
        tiers.stop();
      } catch (RuntimeException e) {
        System.err.println("Teardown failed: " + e.getMessage());
        return 2;
      }
    }
    out.println(tiers.mechanism() == TierMechanism.KERNEL
        ? "Torn down: limits reset, devices unmounted and detached." : "Done.");
    return 0;
  }

  void parse(String[] args) {
    List<String> a = new ArrayList<>(List.of(args));
    for (int i = 0; i < a.size(); i += 2) {
      if (i + 1 >= a.size()) {
        throw new IllegalArgumentException("Missing value after " + a.get(i));
      }
      String v = a.get(i + 1);
      try {
        switch (a.get(i)) {
          case "--dir": dir = Paths.get(v); break;
          case "--nodes": nodes = Integer.parseInt(v); break;
          case "--seconds": seconds = Double.parseDouble(v); break;
          case "--readers": readers = Integer.parseInt(v); break;
          case "--out": resultDir = Paths.get(v); break;
          default: throw new IllegalArgumentException("Unknown option " + a.get(i));
        }
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("Not a number for " + a.get(i) + ": " + v);
      }
    }
    if (nodes < 1 || readers < 1 || !(seconds > 0)) {
      throw new IllegalArgumentException("Need --nodes >= 1, --readers >= 1 and --seconds > 0");
    }
  }
}
