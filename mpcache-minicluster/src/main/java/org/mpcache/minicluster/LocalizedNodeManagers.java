package org.mpcache.minicluster;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.nodemanager.DefaultContainerExecutor;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.yarn.LocalizedAuxService;
import org.mpcache.yarn.YarnIntegrationConfigKeys;

/**
 * Wires each NodeManager of a {@link org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster} to one slave,
 * as on a real node: the slave's SSD directory becomes one of the NodeManager's local dirs, and the
 * NodeManager's {@code mpcache_localized} auxiliary service talks to that slave's Localized Cache.
 * MiniMRYarnCluster overwrites the aux-services list and the container executor, and gives every
 * NodeManager the same configuration apart from its local dirs; {@link PinnedConf} keeps mpCache's
 * service and {@link SsdDirExecutor}, which each NodeManager creates first, in its own
 * configuration, and which hands the NodeManagers the slaves' SSD directories and addresses in
 * order. Thread-safe: NodeManagers start one after the other, and slots are taken atomically.
 */
public final class LocalizedNodeManagers {
  /** Identifies one cluster's slots in {@link #NEXT_SLOT}. */
  private static final String CLUSTER_ID_KEY = "mpcache.minicluster.id";
  /**
   * The slaves as {@code <ssd dir>|<localized host:port>[|<hdd dir>]}, comma-separated, one per
   * NodeManager.
   */
  private static final String SLOTS_KEY = "mpcache.minicluster.localized.slots";
  /** The NodeManagers' addresses, comma-separated, one per NodeManager; unset: MiniYARNCluster's. */
  private static final String NODE_ADDRESSES_KEY = "mpcache.minicluster.node.addresses";
  private static final Map<String, AtomicInteger> NEXT_SLOT = new ConcurrentHashMap<>();

  private LocalizedNodeManagers() {
  }

  /**
   * A slave a NodeManager is paired with: its SSD directory and Localized Cache address, the
   * NodeManager's HDD local dir, or {@code null} to keep the dirs MiniMRYarnCluster gives it, and
   * the address the NodeManager serves containers on (its host is the node's name in YARN), or
   * {@code null} for MiniYARNCluster's {@code localhost}; all slots name one or none.
   */
  public record Slot(String ssdDir, String localizedAddress, String hddDir, String nodeAddress) {
    /** Checks that no field holds the separators of the slots value. */
    public Slot {
      for (String f : new String[] {ssdDir, localizedAddress, hddDir, nodeAddress}) {
        if (f != null && (f.contains("|") || f.contains(","))) {
          throw new IllegalArgumentException("A slot field may not contain '|' or ',': " + f);
        }
      }
    }
  }

  /**
   * A YARN configuration for a MiniMRYarnCluster whose NodeManager {@code i} is paired with
   * {@code slots.get(i)}.
   */
  public static YarnConfiguration configure(Configuration base, List<Slot> slots) {
    YarnConfiguration conf = new PinnedConf(base);
    String id = UUID.randomUUID().toString();
    NEXT_SLOT.put(id, new AtomicInteger());
    conf.set(CLUSTER_ID_KEY, id);
    StringBuilder s = new StringBuilder();
    for (Slot slot : slots) {
      s.append(s.length() == 0 ? "" : ",").append(slot.ssdDir()).append('|')
          .append(slot.localizedAddress());
      if (slot.hddDir() != null) {
        s.append('|').append(slot.hddDir());
      }
    }
    conf.set(SLOTS_KEY, s.toString());
    if (slots.stream().anyMatch(slot -> slot.nodeAddress() != null)) {
      conf.setStrings(NODE_ADDRESSES_KEY,
          slots.stream().map(Slot::nodeAddress).toArray(String[]::new));
    }
    conf.set("yarn.nodemanager.aux-services." + YarnIntegrationConfigKeys.AUX_SERVICE_NAME
        + ".class", LocalizedAuxService.class.getName());
    conf.set(YarnConfiguration.NM_AUX_SERVICES, YarnIntegrationConfigKeys.AUX_SERVICE_NAME);
    conf.set(YarnConfiguration.NM_CONTAINER_EXECUTOR, SsdDirExecutor.class.getName());
    return conf;
  }

  /** A configuration whose aux services always include mpCache's and whose executor is ours. */
  private static final class PinnedConf extends YarnConfiguration {
    PinnedConf(Configuration base) {
      super(base);
    }

    @Override
    public void set(String name, String value, String source) {
      String v = value;
      if (YarnConfiguration.NM_AUX_SERVICES.equals(name)
          && !v.contains(YarnIntegrationConfigKeys.AUX_SERVICE_NAME)) {
        v = v + "," + YarnIntegrationConfigKeys.AUX_SERVICE_NAME;
      } else if (YarnConfiguration.NM_CONTAINER_EXECUTOR.equals(name)) {
        v = SsdDirExecutor.class.getName();
      }
      super.set(name, v, source);
    }
  }

  /**
   * The default executor, after pairing its NodeManager with the next slave: that slave's SSD dir
   * joins the NodeManager's local dirs (which become the slot's HDD dir and the SSD dir when the
   * slot names an HDD dir), {@code mpcache.slave.cache.dirs} and
   * {@code mpcache.localized.address} name the slave for the auxiliary service, and the
   * NodeManager serves on the slot's node address, when it names one.
   */
  public static final class SsdDirExecutor extends DefaultContainerExecutor {
    @Override
    public void setConf(Configuration conf) {
      if (conf != null && conf.get(CLUSTER_ID_KEY) != null
          && conf.get(MpCacheConfigKeys.SLAVE_CACHE_DIRS_KEY) == null) {
        AtomicInteger next = NEXT_SLOT.get(conf.get(CLUSTER_ID_KEY));
        String[] slots = conf.getTrimmedStrings(SLOTS_KEY);
        int i = next.getAndIncrement();
        if (i >= slots.length) {
          throw new IllegalStateException("More NodeManagers than slaves: " + slots.length);
        }
        String[] slot = slots[i].split("\\|");
        String dirs = slot.length > 2 ? slot[2]
            : conf.getTrimmed(YarnConfiguration.NM_LOCAL_DIRS, "");
        conf.set(YarnConfiguration.NM_LOCAL_DIRS, dirs.isEmpty() ? slot[0] : dirs + "," + slot[0]);
        conf.set(MpCacheConfigKeys.SLAVE_CACHE_DIRS_KEY, slot[0]);
        conf.set(YarnIntegrationConfigKeys.LOCALIZED_ADDRESS_KEY, slot[1]);
        String[] nodeAddresses = conf.getTrimmedStrings(NODE_ADDRESSES_KEY);
        if (nodeAddresses.length > 0) {
          // Read by the ContainerManager when it starts, after this: the NodeManager's id (the
          // node's name to the scheduler) is this address's canonical host name.
          conf.set(YarnConfiguration.NM_ADDRESS, nodeAddresses[i] + ":0");
        }
      }
      super.setConf(conf);
    }
  }
}
