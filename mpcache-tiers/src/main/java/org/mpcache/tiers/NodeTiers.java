package org.mpcache.tiers;

import java.nio.file.Path;
import java.util.Optional;

/**
 * One emulated node's two directories: {@link #hddDir()} for its HDFS DataNode storage and its
 * NodeManager HDD local dirs (one device, so they share its bandwidth and requests as on a real
 * node), and {@link #ssdDir()} for the mpCache slave's SSD dirs and the NodeManager SSD local
 * dir. Both exist and are empty when {@link StorageTiers} starts; make subdirectories in them.
 * Immutable and thread-safe.
 */
public final class NodeTiers {
  private final int index;
  private final Path hddDir;
  private final Path ssdDir;
  private final String hddDevice;
  private final String ssdDevice;

  NodeTiers(int index, Path hddDir, Path ssdDir, String hddDevice, String ssdDevice) {
    this.index = index;
    this.hddDir = hddDir;
    this.ssdDir = ssdDir;
    this.hddDevice = hddDevice;
    this.ssdDevice = ssdDevice;
  }

  /** The node's position, 0-based, in the order the cluster's DataNodes and NodeManagers use. */
  public int index() {
    return index;
  }

  public Path hddDir() {
    return hddDir;
  }

  public Path ssdDir() {
    return ssdDir;
  }

  /** The HDD's loop device and number (e.g. "/dev/loop2 7:2"), under the kernel mechanism. */
  public Optional<String> hddDevice() {
    return Optional.ofNullable(hddDevice);
  }

  /** The SSD's loop device and number, under the kernel mechanism. */
  public Optional<String> ssdDevice() {
    return Optional.ofNullable(ssdDevice);
  }

  @Override
  public String toString() {
    return "node " + index + ": hdd " + hddDir + hddDevice().map(d -> " on " + d).orElse("")
        + ", ssd " + ssdDir + ssdDevice().map(d -> " on " + d).orElse("");
  }
}
