package org.mpcache.tiers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The plain-directory mechanisms, which need no privileges; see KernelTiersTest for the rest. */
class StorageTiersTest {
  @TempDir
  Path dir;

  private static Configuration conf(String mechanism) {
    Configuration c = new Configuration(false);
    c.set(TierConfigKeys.MECHANISM_KEY, mechanism);
    c.set(TierConfigKeys.HDD_READ_BPS_KEY, "100m");
    return c;
  }

  @Test
  void start_autoWithoutRoot_userspaceWithEmptyDirsPerNode() throws Exception {
    Files.createDirectories(dir.resolve("node1/hdd/data/stale"));
    try (StorageTiers t = new StorageTiers(dir, 3, MechanismDecisionTest.NOT_ROOT)) {
      t.init(conf("auto"));
      t.start();
      assertThat(t.mechanism()).isEqualTo(TierMechanism.USERSPACE);
      assertThat(t.describe()).contains("not running as root").contains("DataNode");
      assertThat(t.nodes()).hasSize(3);
      for (NodeTiers n : t.nodes()) {
        assertThat(n.hddDir()).isDirectory();
        assertThat(n.ssdDir()).isDirectory();
        try (var in = Files.list(n.hddDir())) {
          assertThat(in).isEmpty();
        }
        assertThat(n.hddDir()).isNotEqualTo(n.ssdDir());
        assertThat(n.hddDevice()).isEmpty();
      }
      assertThat(t.node(1).hddDir()).isNotEqualTo(t.node(0).hddDir());
    }
  }

  @Test
  void configure_userspace_setsDataNodeReadThrottleToHddBandwidth() throws Exception {
    try (StorageTiers t = new StorageTiers(dir, 1, MechanismDecisionTest.NOT_ROOT)) {
      t.init(conf("userspace"));
      t.start();
      Configuration cluster = new Configuration(false);
      t.configure(cluster);
      assertThat(cluster.getLong(StorageTiers.DATANODE_READ_BPS_KEY, 0)).isEqualTo(100L << 20);
    }
  }

  @Test
  void configure_none_leavesClusterAlone() throws Exception {
    try (StorageTiers t = new StorageTiers(dir, 1, MechanismDecisionTest.NOT_ROOT)) {
      t.init(conf("none"));
      t.start();
      Configuration cluster = new Configuration(false);
      t.configure(cluster);
      assertThat(cluster.get(StorageTiers.DATANODE_READ_BPS_KEY)).isNull();
      assertThat(t.mechanism().coverage()).startsWith("nothing");
    }
  }

  @Test
  void init_kernelWithoutRoot_failsNamingKey() {
    StorageTiers t = new StorageTiers(dir, 1, MechanismDecisionTest.NOT_ROOT);
    assertThatThrownBy(() -> t.init(conf("kernel"))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(TierConfigKeys.MECHANISM_KEY)
        .hasMessageContaining("not running as root");
    t.stop();
  }

  @Test
  void constructor_noNodes_rejected() {
    assertThatThrownBy(() -> new StorageTiers(dir, 0)).isInstanceOf(
        IllegalArgumentException.class).hasMessageContaining("at least one node");
  }
}
