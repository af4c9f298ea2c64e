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

  /** The paper's nodes (Section 3.1): two eight-core Xeons, 16 cores sharing one HDD. */
  static final int PAPER_NODE_CORES = 16;
  /**
   * What the paper's HDD gave its node's concurrent map tasks, in bytes per second. Table 1's
   * grep reads k x 4.3 GB, 43 GB at k = 10, in a 222 s Map phase on 7 nodes: 27.7 MB/s per node.
   * A 7,200 rpm HDD that streams 150 MB/s to one reader is seek-bound under 16 interleaved
   * streams: 125 seeks per second of about 220 KB each is the same 28 MB/s. The emulated HDD
   * pays no seek between streams, so this loaded rate, not the sequential one, is what its
   * cores share.
   */
  static final long LOADED_HDD_BYTES_PER_SEC = 28_000_000L;
  /** The paper's SSD cache: two SATA SSDs in RAID0, each as the tiers' default SSD. */
  static final int SSD_RAID_WIDTH = 2;

  /** A node's device limits before {@link #shareOfNode} divides them by its cores. */
  private static final Map<String, Long> NODE_LIMITS = Map.of(
      TierConfigKeys.HDD_READ_BPS_KEY, LOADED_HDD_BYTES_PER_SEC,
      TierConfigKeys.HDD_WRITE_BPS_KEY, LOADED_HDD_BYTES_PER_SEC,
      TierConfigKeys.HDD_IOPS_KEY, (long) TierConfigKeys.HDD_IOPS_DEFAULT,
      TierConfigKeys.SSD_READ_BPS_KEY, SSD_RAID_WIDTH * TierConfigKeys.SSD_READ_BPS_DEFAULT,
      TierConfigKeys.SSD_WRITE_BPS_KEY, SSD_RAID_WIDTH * TierConfigKeys.SSD_WRITE_BPS_DEFAULT,
      TierConfigKeys.SSD_IOPS_KEY, SSD_RAID_WIDTH * (long) TierConfigKeys.SSD_IOPS_DEFAULT);

  /**
   * Sets every device limit {@code conf} does not set (or sets only from the tiers' defaults
   * file, {@link TierConfigKeys#DEFAULT_RESOURCE}) to one core's share of the paper's node:
   * the node's limit ({@link #NODE_LIMITS}: the HDD at its loaded rate and 125 requests per
   * second, the SSD RAID0 of two default SSDs) divided by {@code nodeCores}, rounded. Each
   * emulated node runs about one core's tasks on the evaluation's machine, and the bandwidth
   * and requests per core are what make MapReduce storage-bound on many-core nodes.
   *
   * @throws IllegalArgumentException if {@code nodeCores} is below 1
   */
  static void shareOfNode(Configuration conf, int nodeCores) {
    if (nodeCores < 1) {
      throw new IllegalArgumentException("The cores sharing a node's disks must be at least 1: "
          + nodeCores);
    }
    for (Map.Entry<String, Long> e : NODE_LIMITS.entrySet()) {
      if (!MpCacheConfiguration.setByUser(conf, e.getKey())) {
        conf.setLong(e.getKey(), Math.max(1, Math.round(e.getValue() / (double) nodeCores)));
      }
    }
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
