package org.mpcache.benchmarks.eval;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The set-ups the evaluation compares, each run on a fresh embedded cluster with the same job mix.
 * Where each one keeps HDFS blocks, the input cache and the NodeManagers' local data (spills, map
 * outputs, merges):
 *
 * <table>
 * <caption>Placement per mode</caption>
 * <tr><th>mode</th><th>HDFS blocks</th><th>input cache</th><th>local data</th></tr>
 * <tr><td>hadoop</td><td>HDD</td><td>none</td><td>HDD</td></tr>
 * <tr><td>mpcache</td><td>HDD</td><td>SSD</td><td>SSD while the Localized Cache grants room,
 * HDD otherwise</td></tr>
 * <tr><td>pacman</td><td>HDD</td><td>memory, taken from the containers</td><td>HDD</td></tr>
 * <tr><td>all-ssd</td><td>SSD</td><td>none</td><td>SSD</td></tr>
 * </table>
 */
public enum EvalMode {
  /** Hadoop alone: mpCache's client disabled. */
  HADOOP("hadoop"),
  /** mpCache: Input Cache and localized data on the SSD. */
  MPCACHE("mpcache"),
  /** PACMan-like: an in-memory input cache with LIFE or LFU-F eviction. */
  PACMAN("pacman"),
  /** Everything on the SSD: the upper bound. */
  ALL_SSD("all-ssd");

  private final String cliName;

  EvalMode(String cliName) {
    this.cliName = cliName;
  }

  /** The name used on the command line and in the results. */
  public String cliName() {
    return cliName;
  }

  /** True if jobs read through an input cache in this mode. */
  boolean caches() {
    return this == MPCACHE || this == PACMAN;
  }

  /** True if HDFS blocks live on the SSD. */
  boolean dataOnSsd() {
    return this == ALL_SSD;
  }

  /** True if NodeManager local data lives on the SSD whatever its size. */
  boolean localOnSsd() {
    return this == ALL_SSD;
  }

  /**
   * True if the NodeManagers have an HDD and an SSD local dir and mpCache's Localized Cache
   * decides, file by file, which one gets the job's local data.
   */
  boolean localizedCache() {
    return this == MPCACHE;
  }

  /** Where local data lives, as the results name it: {@code ssd+hdd}, {@code ssd} or {@code hdd}. */
  String localTier() {
    return localizedCache() ? "ssd+hdd" : localOnSsd() ? "ssd" : "hdd";
  }

  /**
   * The mode named {@code name}.
   *
   * @throws IllegalArgumentException listing the valid names
   */
  public static EvalMode of(String name) {
    for (EvalMode m : values()) {
      if (m.cliName.equals(name.trim().toLowerCase(Locale.ROOT))) {
        return m;
      }
    }
    throw new IllegalArgumentException("Unknown mode '" + name + "'; valid modes: "
        + Arrays.stream(values()).map(EvalMode::cliName).collect(Collectors.joining(", ")));
  }
}
