package org.mpcache.tiers;

/**
 * The mechanism that emulates the tiers on this run, as {@link StorageTiers#mechanism()} reports
 * it next to every result. The three differ in what they slow down; {@link #coverage()} says it.
 */
public enum TierMechanism {
  /**
   * A loop device per tier and node, opened with direct I/O, formatted ext4 and mounted, with
   * cgroup v1 blkio throttles (bytes and requests per second, reads and writes) on the device.
   * Every process's I/O on the directory is limited, shared by all of a node's readers and
   * writers. Needs root, loop devices and the blkio controller.
   */
  KERNEL("kernel (loop device + cgroup v1 blkio throttle)",
      "all I/O on the HDD and SSD dirs: HDFS DataNode reads and writes, NodeManager local dirs, "
          + "mpCache SSD dirs"),
  /**
   * Plain directories, plus the DataNode's own read throttle
   * ({@code dfs.datanode.data.read.bandwidthPerSec}) at the HDD read bandwidth, which the cluster
   * picks up through {@link StorageTiers#configure}. Only HDFS block reads served by a DataNode
   * are slowed; they pay no per-request cost.
   */
  USERSPACE("user space (DataNode read throttle)",
      "HDFS DataNode block reads only (bandwidth, no per-request cost); HDFS writes, "
          + "NodeManager local dirs and the SSD dirs run at the machine's disk speed"),
  /** Plain directories on the machine's own disk: no emulation at all. */
  NONE("none (plain directories)", "nothing: every tier runs at the machine's disk speed");

  private final String description;
  private final String coverage;

  TierMechanism(String description, String coverage) {
    this.description = description;
    this.coverage = coverage;
  }

  /** A short human-readable name of the mechanism. */
  public String description() {
    return description;
  }

  /** Which I/O the mechanism slows down, and which it leaves at the machine's speed. */
  public String coverage() {
    return coverage;
  }
}
