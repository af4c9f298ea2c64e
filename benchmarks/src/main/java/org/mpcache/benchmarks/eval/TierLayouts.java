package org.mpcache.benchmarks.eval;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.mpcache.tiers.StorageTiers;
import org.mpcache.tiers.TierConfigKeys;
import org.mpcache.tiers.TierMechanism;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.common.MpCacheConfiguration;

/**
 * Chooses the storage tiers the evaluation runs on: {@link StorageTiers} (throttled loop devices
 * as root, a DataNode read throttle otherwise; see docs/evaluation.md) measured at start, or plain
 * directories with a notice when even that cannot be set up. Stateless.
 */
public final class TierLayouts {
  private TierLayouts() {
  }

  /** The device limits {@link #shareOfNode} divides. */
  private static final Map<String, Long> DEVICE_LIMITS = Map.of(
      TierConfigKeys.HDD_READ_BPS_KEY, TierConfigKeys.HDD_READ_BPS_DEFAULT,
      TierConfigKeys.HDD_WRITE_BPS_KEY, TierConfigKeys.HDD_WRITE_BPS_DEFAULT,
      TierConfigKeys.HDD_IOPS_KEY, (long) TierConfigKeys.HDD_IOPS_DEFAULT,
      TierConfigKeys.SSD_READ_BPS_KEY, TierConfigKeys.SSD_READ_BPS_DEFAULT,
      TierConfigKeys.SSD_WRITE_BPS_KEY, TierConfigKeys.SSD_WRITE_BPS_DEFAULT,
      TierConfigKeys.SSD_IOPS_KEY, (long) TierConfigKeys.SSD_IOPS_DEFAULT);

  /**
   * Sets every device limit {@code conf} does not set (or sets only from the tiers' defaults
   * file, {@link TierConfigKeys#DEFAULT_RESOURCE}) to its default divided by
   * {@code nodeCores}: one core's share of a node whose {@code nodeCores} cores share one HDD and
   * one SSD. Each emulated node runs about one core's tasks on the evaluation's machine, and the
   * bandwidth and requests per core are what make MapReduce storage-bound on many-core nodes.
   *
   * @throws IllegalArgumentException if {@code nodeCores} is below 1
   */
  static void shareOfNode(Configuration conf, int nodeCores) {
    if (nodeCores < 1) {
      throw new IllegalArgumentException("The cores sharing a node's disks must be at least 1: "
          + nodeCores);
    }
    for (Map.Entry<String, Long> e : DEVICE_LIMITS.entrySet()) {
      if (!setByUser(conf, e.getKey())) {
        conf.setLong(e.getKey(), Math.max(1, e.getValue() / nodeCores));
      }
    }
  }

  private static boolean setByUser(Configuration conf, String key) {
    String[] sources = conf.getPropertySources(key);
    if (sources == null) {
      return false;
    }
    for (String source : sources) {
      if (!source.equals(TierConfigKeys.DEFAULT_RESOURCE)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Opens and measures the tiers for {@code nodes} nodes under {@code base}, with
   * {@code settings} over mpcache-site.xml's {@code mpcache.tiers.*} keys and each device limit
   * neither sets at one core's share of the default device ({@link #shareOfNode}), printing what
   * it got, and a notice when the tiers are not emulated, to {@code console}.
   */
  public static TierLayout open(File base, int nodes, Map<String, String> settings,
      int nodeCores, PrintStream console) {
    Configuration conf = MpCacheConfiguration.create(TierConfigKeys.DEFAULT_RESOURCE);
    settings.forEach(conf::set);
    shareOfNode(conf, nodeCores);
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
