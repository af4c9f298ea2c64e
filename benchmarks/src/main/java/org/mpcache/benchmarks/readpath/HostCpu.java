package org.mpcache.benchmarks.readpath;

import com.google.common.annotations.VisibleForTesting;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.annotation.concurrent.GuardedBy;

/**
 * How busy the host's cores have been between two calls: the share of all cores' time
 * spent running anything (user, system and interrupt time, and time a hypervisor took), from the
 * kernel's {@code /proc/stat}; time idle or waiting on a disk counts as free. Negative when the
 * file cannot be read (not Linux) or no time has passed.
 *
 * <p>{@link ReadPathFigures} waits by it for the machine to settle before each read. Thread-safe.
 */
final class HostCpu {
  private final Path stat;
  @GuardedBy("this")
  private long lastTotal = -1;
  @GuardedBy("this")
  private long lastBusy;

  /** The host's cores, from {@code /proc/stat}. */
  HostCpu() {
    this(Path.of("/proc/stat"));
  }

  @VisibleForTesting
  HostCpu(Path stat) {
    this.stat = stat;
  }

  /** The busy share of the cores' time since the previous call; negative when unknown. */
  synchronized double busyShare() {
    long[] t = read();
    if (t == null) {
      return -1;
    }
    long total = t[0];
    long busy = t[1];
    double share = lastTotal < 0 || total <= lastTotal ? -1
        : (double) (busy - lastBusy) / (total - lastTotal);
    lastTotal = total;
    lastBusy = busy;
    return share;
  }

  /** {@code {total, busy}} jiffies of all cores, or null when unknown. */
  private long[] read() {
    List<String> lines;
    try {
      lines = Files.readAllLines(stat, StandardCharsets.US_ASCII);
    } catch (IOException | RuntimeException e) {
      return null;
    }
    for (String line : lines) {
      if (!line.startsWith("cpu ")) {
        continue;
      }
      // cpu user nice system idle iowait irq softirq steal guest guest_nice; guest time is
      // counted in user time already.
      String[] f = line.trim().split("\\s+");
      if (f.length < 6) {
        return null;
      }
      try {
        long total = 0;
        for (int i = 1; i < Math.min(f.length, 9); i++) {
          total += Long.parseLong(f[i]);
        }
        long free = Long.parseLong(f[4]) + Long.parseLong(f[5]);
        return new long[] {total, total - free};
      } catch (NumberFormatException e) {
        return null;
      }
    }
    return null;
  }
}
