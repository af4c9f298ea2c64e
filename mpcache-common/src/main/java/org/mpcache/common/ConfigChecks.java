package org.mpcache.common;

import java.net.InetSocketAddress;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.net.NetUtils;

/**
 * Typed, validated reads of configuration values. Each failure names the key, the bad value and
 * what would be accepted, so an operator can fix the site file without reading code. Called once at
 * service init; stateless and thread-safe.
 */
public final class ConfigChecks {

  private ConfigChecks() {
  }

  /** Reads a long that must be at least {@code min}. */
  public static long longAtLeast(Configuration conf, String key, long defaultValue, long min) {
    long v = parseLong(conf, key, defaultValue);
    if (v < min) {
      throw new IllegalArgumentException("Invalid value " + v + " for " + key
          + ": it must be at least " + min + ". Reconfigure " + key + " in mpcache-site.xml.");
    }
    return v;
  }

  /** Reads an int that must be at least {@code min}. */
  public static int intAtLeast(Configuration conf, String key, int defaultValue, int min) {
    long v = longAtLeast(conf, key, defaultValue, min);
    if (v > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("Invalid value " + v + " for " + key
          + ": it must be at most " + Integer.MAX_VALUE + ".");
    }
    return (int) v;
  }

  /** Reads a size in bytes; accepts Hadoop's binary prefixes (64m, 10g). */
  public static long bytesAtLeast(Configuration conf, String key, long defaultValue, long min) {
    long v;
    try {
      v = conf.getLongBytes(key, defaultValue);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("Invalid size '" + conf.get(key) + "' for " + key
          + ": expected a number of bytes, optionally with a k, m, g or t suffix.", e);
    }
    if (v < min) {
      throw new IllegalArgumentException("Invalid size " + v + " for " + key
          + ": it must be at least " + min + " bytes. Reconfigure " + key + ".");
    }
    return v;
  }

  /** Reads a size in bytes from {@code min} to {@code max}; accepts Hadoop's binary prefixes. */
  public static long bytesBetween(Configuration conf, String key, long defaultValue, long min,
      long max) {
    long v = bytesAtLeast(conf, key, defaultValue, min);
    if (v > max) {
      throw new IllegalArgumentException("Invalid size " + v + " for " + key
          + ": it must be at most " + max + " bytes. Reconfigure " + key + ".");
    }
    return v;
  }

  /** Reads a {@code host:port} address. */
  public static InetSocketAddress address(Configuration conf, String key, String defaultValue) {
    String v = conf.getTrimmed(key, defaultValue);
    try {
      return NetUtils.createSocketAddr(v, -1, key);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Invalid address '" + v + "' for " + key
          + ": expected host:port.", e);
    }
  }

  private static long parseLong(Configuration conf, String key, long defaultValue) {
    String raw = conf.getTrimmed(key);
    if (raw == null || raw.isEmpty()) {
      return defaultValue;
    }
    try {
      return Long.parseLong(raw);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("Invalid value '" + raw + "' for " + key
          + ": expected a whole number.", e);
    }
  }
}
