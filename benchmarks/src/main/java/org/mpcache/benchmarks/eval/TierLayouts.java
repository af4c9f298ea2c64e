package org.mpcache.benchmarks.eval;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.mpcache.benchmarks.tiers.StorageTiers;
import org.mpcache.benchmarks.tiers.TierMechanism;
import org.mpcache.common.MpCacheConfiguration;

/**
 * Chooses the storage tiers the evaluation runs on: {@link StorageTiers} (throttled loop devices
 * as root, a DataNode read throttle otherwise; see docs/evaluation.md) measured at start, or plain
 * directories with a notice when even that cannot be set up. Stateless.
 */
public final class TierLayouts {
  private TierLayouts() {
  }

  /**
   * Opens and measures the tiers for {@code nodes} nodes under {@code base}, with
   * {@code settings} over mpcache-site.xml's {@code mpcache.tiers.*} keys, printing what it
   * got, and a notice when the tiers are not emulated, to {@code console}.
   */
  public static TierLayout open(File base, int nodes, Map<String, String> settings,
      PrintStream console) {
    Configuration conf = MpCacheConfiguration.create();
    settings.forEach(conf::set);
    StorageTiers tiers = new StorageTiers(base.toPath(), nodes);
    try {
      console.println("Setting up and measuring the storage tiers ...");
      tiers.init(conf);
      tiers.start();
      console.print(tiers.describe());
      EmulatedTiers layout = new EmulatedTiers(tiers, base, 1.0);
      if (tiers.mechanism() != TierMechanism.KERNEL) {
        console.println("NOTICE: storage tiers only partly emulated (" + tiers.decision()
            + "); run as root on a machine with loop devices and blkio for the full emulation.");
      }
      return layout;
    } catch (IOException | RuntimeException e) {
      tiers.stop();
      String reason = "storage tiers could not be set up: " + e.getMessage();
      console.println("NOTICE: " + reason + ". HDD and SSD directories are plain directories "
          + "on one disk, so the speedups below do not show what SSDs would give.");
      return new PlainTiers(new File(base, "plain"), reason);
    }
  }
}
