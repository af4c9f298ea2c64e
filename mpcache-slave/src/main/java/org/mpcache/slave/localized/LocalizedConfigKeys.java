package org.mpcache.slave.localized;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.StringUtils;
import org.apache.hadoop.util.StringUtils.TraditionalBinaryPrefix;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.common.ConfigChecks;
import org.mpcache.slave.SlaveConfigKeys;
import org.mpcache.slave.space.DynamicSpaceTuner;
import org.mpcache.slave.space.SsdVolume;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The slave's configuration keys for the split of its SSD space and its Localized Cache service, as
 * KEY/DEFAULT pairs, with typed getters that validate once and name the key, the bad value and the
 * fix. The SSD directories and their capacity are the slave's cache keys, shared with the Input
 * Cache. Every key is described in the slave's {@link SlaveConfigKeys#DEFAULT_RESOURCE}. Holds no state;
 * thread-safe.
 */
public final class LocalizedConfigKeys {
  private static final Logger LOG = LoggerFactory.getLogger(LocalizedConfigKeys.class);

  /** The size of a Dynamic Pool unit: the HDFS block size. */
  public static final String SPACE_UNIT_KEY = "mpcache.slave.space.unit.bytes";
  public static final long SPACE_UNIT_DEFAULT = 128L * 1024 * 1024;

  /** The share of each SSD directory that is the Input Cache's own space. */
  public static final String INPUT_FRACTION_KEY = "mpcache.slave.space.input.fraction";
  public static final double INPUT_FRACTION_DEFAULT = 0.4;

  /** The share of each SSD directory that is the Localized Cache's own space. */
  public static final String LOCALIZED_FRACTION_KEY = "mpcache.slave.space.localized.fraction";
  public static final double LOCALIZED_FRACTION_DEFAULT = 0.2;

  /** The Localized Cache used ratio below which lent pool units return (the paper's guard value). */
  public static final String GUARD_KEY = "mpcache.slave.space.localized.guard";
  public static final double GUARD_DEFAULT = DynamicSpaceTuner.DEFAULT_GUARD;

  /** Where the Localized Cache service listens (host:port). */
  public static final String LOCALIZED_BIND_ADDRESS_KEY = "mpcache.slave.localized.bind-address";
  public static final String LOCALIZED_BIND_ADDRESS_DEFAULT = "127.0.0.1:50031";

  /** RPC handler threads of the Localized Cache service. */
  public static final String LOCALIZED_HANDLER_COUNT_KEY = "mpcache.slave.localized.handler.count";
  public static final int LOCALIZED_HANDLER_COUNT_DEFAULT = 4;

  /** The users whose Localized protocol calls are the NodeManager's. */
  public static final String NODEMANAGER_USERS_KEY = "mpcache.slave.localized.nodemanager.users";
  public static final String NODEMANAGER_USERS_DEFAULT = "yarn";

  private LocalizedConfigKeys() {
  }

  /**
   * The node's SSD layout: the directories of {@link MpCacheConfigKeys#SLAVE_CACHE_DIRS_KEY}, their
   * capacities from {@link SlaveConfigKeys#CACHE_CAPACITY_KEY} (one value is the node's total,
   * shared equally by the directories; a list gives each directory its own), each split by
   * {@link #SPACE_UNIT_KEY} and the two fraction keys. The capacities of the dirs on one
   * filesystem must fit its total size.
   *
   * @throws IllegalArgumentException naming the key when a value is missing or out of range, or
   *     when a capacity is larger than the disk
   */
  public static List<SsdVolume> ssdLayout(Configuration conf) {
    String[] dirs = conf.getTrimmedStrings(MpCacheConfigKeys.SLAVE_CACHE_DIRS_KEY);
    if (dirs.length == 0) {
      throw new IllegalArgumentException(MpCacheConfigKeys.SLAVE_CACHE_DIRS_KEY + " is not set: list the"
          + " node's SSD directories, comma-separated, in mpcache-site.xml (for localized data"
          + " each also one of yarn.nodemanager.local-dirs)");
    }
    String[] capacities = conf.getTrimmedStrings(SlaveConfigKeys.CACHE_CAPACITY_KEY,
        Long.toString(SlaveConfigKeys.CACHE_CAPACITY_DEFAULT));
    if (capacities.length != 1 && capacities.length != dirs.length) {
      throw new IllegalArgumentException(SlaveConfigKeys.CACHE_CAPACITY_KEY + " has "
          + capacities.length + " values for " + dirs.length + " directories in "
          + MpCacheConfigKeys.SLAVE_CACHE_DIRS_KEY + ": give the node's total or one capacity per"
          + " directory");
    }
    long unit = ConfigChecks.bytesAtLeast(conf, SPACE_UNIT_KEY, SPACE_UNIT_DEFAULT, 1);
    double input = conf.getDouble(INPUT_FRACTION_KEY, INPUT_FRACTION_DEFAULT);
    double localized = conf.getDouble(LOCALIZED_FRACTION_KEY, LOCALIZED_FRACTION_DEFAULT);
    List<SsdVolume> layout = new ArrayList<>(dirs.length);
    for (int i = 0; i < dirs.length; i++) {
      String text = capacities[capacities.length == 1 ? 0 : i];
      long capacity;
      try {
        capacity = TraditionalBinaryPrefix.string2long(text);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(SlaveConfigKeys.CACHE_CAPACITY_KEY + " value '" + text
            + "' is not a size: use bytes or a k/m/g/t suffix, e.g. 200g", e);
      }
      if (capacities.length == 1) {
        capacity /= dirs.length;
      }
      if (!Paths.get(dirs[i]).isAbsolute()) {
        throw new IllegalArgumentException(MpCacheConfigKeys.SLAVE_CACHE_DIRS_KEY + " lists '" + dirs[i]
            + "', which is not an absolute path: give each SSD directory as an absolute path,"
            + " exactly as in yarn.nodemanager.local-dirs");
      }
      try {
        layout.add(SsdVolume.split(Paths.get(dirs[i]).toString(), capacity, unit, input,
            localized));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("Bad SSD space configuration ("
            + MpCacheConfigKeys.SLAVE_CACHE_DIRS_KEY + ", " + SlaveConfigKeys.CACHE_CAPACITY_KEY + ", "
            + SPACE_UNIT_KEY + ", " + INPUT_FRACTION_KEY + ", " + LOCALIZED_FRACTION_KEY + "): "
            + e.getMessage(), e);
      }
    }
    checkFitsTheDisks(layout);
    return layout;
  }

  /**
   * Fails when the capacities of the dirs on one filesystem add up to more than its total size: the
   * slave would grant room the disk does not have, and the tasks writing there would fail. A dir
   * that does not exist yet is measured at its nearest existing ancestor; one whose filesystem
   * cannot be read is left to fail when the slave creates it.
   */
  private static void checkFitsTheDisks(List<SsdVolume> layout) {
    Map<FileStore, List<SsdVolume>> byStore = new LinkedHashMap<>();
    for (SsdVolume v : layout) {
      Path existing = Paths.get(v.dir()).toAbsolutePath();
      while (existing != null && !Files.exists(existing)) {
        existing = existing.getParent();
      }
      try {
        if (existing != null) {
          byStore.computeIfAbsent(Files.getFileStore(existing), s -> new ArrayList<>()).add(v);
        }
      } catch (IOException e) {
        LOG.warn("Cannot read the filesystem of SSD dir {} to check its capacity: {}", v.dir(),
            e.toString());
      }
    }
    for (Map.Entry<FileStore, List<SsdVolume>> e : byStore.entrySet()) {
      long total;
      try {
        total = e.getKey().getTotalSpace();
      } catch (IOException ex) {
        LOG.warn("Cannot read the size of {}: {}", e.getKey(), ex.toString());
        continue;
      }
      long capacity = e.getValue().stream().mapToLong(SsdVolume::capacity).sum();
      if (capacity > total) {
        String dirs = e.getValue().stream().map(SsdVolume::dir).collect(Collectors.joining(", "));
        throw new IllegalArgumentException(SlaveConfigKeys.CACHE_CAPACITY_KEY + " gives "
            + (e.getValue().size() == 1 ? "SSD dir " + dirs : "SSD dirs " + dirs + " together")
            + " " + capacity + " bytes (" + StringUtils.byteDesc(capacity) + "), more than the "
            + total + " bytes (" + StringUtils.byteDesc(total) + ") of " + (e.getValue().size()
            == 1 ? "its" : "their") + " filesystem " + e.getKey() + ": set "
            + SlaveConfigKeys.CACHE_CAPACITY_KEY + " below the disk's size, leaving room for the"
            + " NodeManager's own files in the dir (see docs/operations.md)");
      }
    }
  }

  /**
   * The guard value from {@link #GUARD_KEY}.
   *
   * @throws IllegalArgumentException naming the key when the value is not in (0, 1]
   */
  public static double guard(Configuration conf) {
    double guard = conf.getDouble(GUARD_KEY, GUARD_DEFAULT);
    if (!(guard > 0 && guard <= 1)) {
      throw new IllegalArgumentException(GUARD_KEY + " is " + guard
          + ": set a used ratio in (0, 1], e.g. " + GUARD_DEFAULT);
    }
    return guard;
  }
}
