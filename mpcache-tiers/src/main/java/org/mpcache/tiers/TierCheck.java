package org.mpcache.tiers;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ToolRunner;
import org.mpcache.common.MpCacheConfiguration;
import org.mpcache.common.tools.CommandLineTool;
import org.mpcache.common.tools.ToolOptions;

/**
 * Sets up the storage tiers, measures every node's HDD and SSD cold, prints the mechanism and
 * the figures, and tears the tiers down. The {@link TierConfigKeys} come from
 * mpcache-tiers-default.xml, mpcache-site.xml and {@code -D key=value} options.
 *
 * <p>{@link #options()} declares the options with their defaults ({@code --help} prints them):
 * each measured phase lasts about {@code --seconds} at the configured limits. Exit status 0 when
 * measured, 1 on a usage error, 2 when setup, measurement or teardown failed.
 */
public final class TierCheck extends CommandLineTool {
  private Path dir;
  private int nodes;
  private double seconds;
  private int readers;
  private Path resultDir;

  /** A tier check printing to the standard streams. */
  public TierCheck() {
  }

  /** A tier check printing its figures and help to {@code out}, errors to {@code err}. */
  TierCheck(PrintStream out, PrintStream err) {
    super(out, err);
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(MpCacheConfiguration.create(TierConfigKeys.DEFAULT_RESOURCE),
        new TierCheck(), args));
  }

  @Override
  public ToolOptions options() {
    return new ToolOptions("TierCheck", "Sets up the storage tiers, measures every node's HDD "
        + "and SSD cold, prints the mechanism and the figures, and tears the tiers down.")
        .option("dir", "DIR", "work directory of the tiers",
            Paths.get(System.getProperty("java.io.tmpdir"), "mpcache-tiercheck"))
        .option("nodes", "N", "emulated nodes", 2)
        .option("seconds", "S", "length of each measured phase, seconds", 2)
        .option("readers", "N", "concurrent readers of the last phase", 4)
        .optional("out", "DIR", "write tiers.csv and tiers.json here", "not written")
        .settings("mpcache.tiers.KEY=VALUE", "a tier setting (docs/configuration.md)");
  }

  @Override
  protected int execute(ToolOptions.Values o) {
    dir = o.path("dir");
    nodes = o.positiveInt("nodes");
    seconds = o.positiveDouble("seconds");
    readers = o.positiveInt("readers");
    resultDir = o.path("out");
    StorageTiers tiers = new StorageTiers(dir, nodes);
    try {
      tiers.init(getConf());
    } catch (RuntimeException e) {
      errors.println(e.getMessage());
      return 1;
    }
    try {
      tiers.start();
      console.print(tiers.describe());
      TierReport report = new TierMeasurement(seconds, readers)
          .measure(tiers, List.of());
      console.println();
      console.print(report);
      if (resultDir != null) {
        Files.createDirectories(resultDir);
        Files.writeString(resultDir.resolve("tiers.csv"), report.toCsv(), StandardCharsets.UTF_8);
        Files.writeString(resultDir.resolve("tiers.json"), report.toJson(),
            StandardCharsets.UTF_8);
        console.println("Wrote " + resultDir.resolve("tiers.csv") + " and "
            + resultDir.resolve("tiers.json"));
      }
    } catch (IOException | RuntimeException e) {
      errors.println("Tier check failed: " + e);
      e.printStackTrace(errors);
      return 2;
    } finally {
      try {
        tiers.stop();
      } catch (RuntimeException e) {
        errors.println("Teardown failed: " + e.getMessage());
        return 2;
      }
    }
    console.println(tiers.mechanism() == TierMechanism.KERNEL
        ? "Torn down: limits reset, devices unmounted and detached." : "Done.");
    return 0;
  }
}
