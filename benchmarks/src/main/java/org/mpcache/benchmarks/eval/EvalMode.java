package org.mpcache.benchmarks.eval;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.mpcache.master.arbitrator.CachePolicies;

/**
 * The set-ups the evaluation compares, each run on a fresh embedded cluster with the same job mix.
 * Where each one keeps HDFS blocks, the input cache and the NodeManagers' local data (spills, map
 * outputs, merges), and which master policy ({@code mpcache.master.policy}) decides what the input
 * cache holds:
 *
 * <table>
 * <caption>Placement per mode</caption>
 * <tr><th>mode</th><th>HDFS blocks</th><th>input cache</th><th>policy</th><th>local data</th></tr>
 * <tr><td>hadoop</td><td>HDD</td><td>none (client off)</td><td>-</td><td>HDD</td></tr>
 * <tr><td>mpcache</td><td>HDD</td><td>SSD</td><td>mpcache (admission control, whole-dataset
 * replacement)</td><td>SSD while the Localized Cache grants room, HDD otherwise</td></tr>
 * <tr><td>mpcache-input</td><td>HDD</td><td>SSD</td><td>mpcache</td><td>HDD</td></tr>
 * <tr><td>mpcache-localized</td><td>HDD</td><td>none (client off; the slave's SSD and its
 * Dynamic Pool serve the Localized Cache only)</td><td>none</td><td>SSD while the Localized Cache
 * grants room, HDD otherwise</td></tr>
 * <tr><td>ssd-lru</td><td>HDD</td><td>SSD, the same dirs and capacity as mpcache</td><td>lru:
 * every missed block is admitted, the slave's least recently used blocks are evicted (no
 * admission control, no datasets; the admit-all cache of Alluxio's local cache or
 * RubiX)</td><td>HDD</td></tr>
 * <tr><td>pacman</td><td>HDD</td><td>memory, taken from the containers</td><td>lfu-f or
 * life</td><td>HDD</td></tr>
 * <tr><td>all-ssd</td><td>SSD</td><td>none</td><td>-</td><td>SSD</td></tr>
 * </table>
 *
 * <p>mpcache, mpcache-input and mpcache-localized together are the ablation: the whole of mpCache,
 * its Input Cache alone and its Localized Cache alone.
 */
public enum EvalMode {
  /** Hadoop alone: mpCache's client disabled. */
  HADOOP("hadoop", CacheTier.NONE, CachePolicies.NONE, false),
  /** mpCache: Input Cache and localized data on the SSD. */
  MPCACHE("mpcache", CacheTier.SSD, CachePolicies.MPCACHE, true),
  /** mpCache's Input Cache alone: local data on the HDD. */
  MPCACHE_INPUT("mpcache-input", CacheTier.SSD, CachePolicies.MPCACHE, false),
  /** mpCache's Localized Cache alone: jobs read HDFS directly. */
  MPCACHE_LOCALIZED("mpcache-localized", CacheTier.NONE, CachePolicies.NONE, true),
  /** An admit-all block cache on the same SSD with LRU eviction. */
  SSD_LRU("ssd-lru", CacheTier.SSD, CachePolicies.LRU, false),
  /** PACMan-like: an in-memory input cache with LIFE or LFU-F eviction. */
  PACMAN("pacman", CacheTier.MEMORY, CachePolicies.LFU_F, false),
  /** Everything on the SSD: the upper bound. */
  ALL_SSD("all-ssd", CacheTier.NONE, CachePolicies.NONE, false);

  /** Where a mode's input cache lives. */
  enum CacheTier { NONE, SSD, MEMORY }

  private final String cliName;
  private final CacheTier cacheTier;
  private final String policy;
  private final boolean localizedCache;

  EvalMode(String cliName, CacheTier cacheTier, String policy, boolean localizedCache) {
    this.cliName = cliName;
    this.cacheTier = cacheTier;
    this.policy = policy;
    this.localizedCache = localizedCache;
  }

  /** The name used on the command line and in the results. */
  public String cliName() {
    return cliName;
  }

  /** True if jobs read through an input cache in this mode. */
  boolean caches() {
    return cacheTier != CacheTier.NONE;
  }

  /** Where the input cache lives, as the results name it: {@code ssd}, {@code memory}, {@code none}. */
  String cacheTier() {
    return cacheTier.name().toLowerCase(Locale.ROOT);
  }

  /** True if the input cache lives in memory (tmpfs) rather than on the SSD. */
  boolean cacheInMemory() {
    return cacheTier == CacheTier.MEMORY;
  }

  /**
   * The master's policy ({@code mpcache.master.policy}); for pacman the default, which the
   * command line may replace.
   */
  String policy() {
    return policy;
  }

  /**
   * True if the slave's SSD dir gets the Input Cache capacity of the caching modes, so that the
   * ablation modes have the same SSD (and Dynamic Pool) as mpcache.
   */
  boolean ssdSlave() {
    return cacheTier == CacheTier.SSD || localizedCache;
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
    return localizedCache;
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
