package org.mpcache.tiers;

import java.util.List;
import java.util.Locale;

/**
 * What {@link TierMeasurement} measured on one tier of one node, next to the limits configured
 * for it. Bandwidths are in MiB/s (2^20 bytes per second, the unit of the configured limits).
 * Immutable and thread-safe.
 */
public final class TierFigures {
  /** Column names, in the order of {@link #values()}: the CSV header and the JSON field names. */
  public static final List<String> COLUMNS = List.of("node", "tier", "dir", "throttled", "cold",
      "file_mib", "limit_read_mibps", "limit_write_mibps", "limit_iops", "seq_write_mibps",
      "seq_read_mibps", "rand4k_iops", "rand4k_mean_ms", "readers", "parallel_read_mibps");

  final int node;
  final String tier;
  final String dir;
  final boolean throttled;
  final boolean cold;
  final long fileMib;
  final double limitReadMibps;
  final double limitWriteMibps;
  final int limitIops;
  final double seqWriteMibps;
  final double seqReadMibps;
  final double randIops;
  final double randMeanMs;
  final int readers;
  final double parallelReadMibps;

  TierFigures(int node, String tier, String dir, boolean throttled, boolean cold, long fileMib,
      TierSpec.Device limits, double seqWriteMibps, double seqReadMibps, double randIops,
      double randMeanMs, int readers, double parallelReadMibps) {
    this.node = node;
    this.tier = tier;
    this.dir = dir;
    this.throttled = throttled;
    this.cold = cold;
    this.fileMib = fileMib;
    this.limitReadMibps = limits.readBytesPerSec() / 1048576.0;
    this.limitWriteMibps = limits.writeBytesPerSec() / 1048576.0;
    this.limitIops = limits.iops();
    this.seqWriteMibps = seqWriteMibps;
    this.seqReadMibps = seqReadMibps;
    this.randIops = randIops;
    this.randMeanMs = randMeanMs;
    this.readers = readers;
    this.parallelReadMibps = parallelReadMibps;
  }

  public int node() {
    return node;
  }

  /** "hdd" or "ssd". */
  public String tier() {
    return tier;
  }

  /** Whether file I/O in this directory was under a device throttle (kernel mechanism). */
  public boolean throttled() {
    return throttled;
  }

  /** Whether the page cache was dropped before every read phase. */
  public boolean cold() {
    return cold;
  }

  public double seqWriteMibps() {
    return seqWriteMibps;
  }

  public double seqReadMibps() {
    return seqReadMibps;
  }

  public double randIops() {
    return randIops;
  }

  public double randMeanMs() {
    return randMeanMs;
  }

  public double parallelReadMibps() {
    return parallelReadMibps;
  }

  public double limitReadMibps() {
    return limitReadMibps;
  }

  /** The values of {@link #COLUMNS}, formatted. */
  public List<String> values() {
    return List.of(Integer.toString(node), tier, dir, Boolean.toString(throttled),
        Boolean.toString(cold), Long.toString(fileMib), f1(limitReadMibps), f1(limitWriteMibps),
        Integer.toString(limitIops), f1(seqWriteMibps), f1(seqReadMibps), f1(randIops),
        f2(randMeanMs), Integer.toString(readers), f1(parallelReadMibps));
  }

  static String f1(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }

  static String f2(double v) {
    return String.format(Locale.ROOT, "%.2f", v);
  }
}
