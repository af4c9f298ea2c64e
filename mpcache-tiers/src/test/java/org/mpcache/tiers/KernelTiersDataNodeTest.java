package org.mpcache.tiers;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HDFS on the kernel tiers: a DataNode whose storage is on an emulated HDD serves a cold read at
 * the HDD's bandwidth, and once the page cache has been dropped it does not serve it from memory.
 * Runs only where the kernel mechanism is allowed; starts a MiniDFSCluster.
 */
class KernelTiersDataNodeTest {
  @TempDir
  java.nio.file.Path dir;

  @AfterEach
  void removeLeftovers() throws IOException {
    TierTestSupport.removeKernelLeftovers(dir);
  }

  @Test
  void dataNodeOnHdd_coldReadAtHddBandwidth() throws Exception {
    HostProbe host = TierTestSupport.assumeKernelAllowed();
    Configuration tierConf = new Configuration(false);
    tierConf.set(TierConfigKeys.MECHANISM_KEY, "kernel");
    tierConf.set(TierConfigKeys.HDD_READ_BPS_KEY, "32m");
    tierConf.set(TierConfigKeys.HDD_SIZE_KEY, "512m");
    tierConf.set(TierConfigKeys.SSD_SIZE_KEY, "128m");
    long bytes = 64L << 20;
    try (StorageTiers tiers = new StorageTiers(dir, 1, host)) {
      tiers.init(tierConf);
      tiers.start();
      Configuration conf = new HdfsConfiguration();
      tiers.configure(conf);
      Configuration dn = new Configuration(false);
      dn.set(DFSConfigKeys.DFS_DATANODE_DATA_DIR_KEY,
          tiers.node(0).hddDir().resolve("dfs").toString());
      try (MiniDFSCluster dfs = new MiniDFSCluster.Builder(conf, dir.resolve("nn").toFile())
          .numDataNodes(1).manageDataDfsDirs(false)
          .dataNodeConfOverlays(new Configuration[] {dn}).build()) {
        dfs.waitActive();
        FileSystem fs = dfs.getFileSystem();
        Path file = new Path("/on-hdd");
        TierTestSupport.write(fs, file, bytes);
        assertThat(tiers.dropCaches().dropped()).isTrue();
        double cold = TierTestSupport.readSeconds(fs, file, bytes);
        double warm = TierTestSupport.readSeconds(fs, file, bytes);
        System.out.printf("64 MiB from the 32 MiB/s HDD: cold %.2f s, then warm %.2f s%n", cold,
            warm);
        // 2 s at the limit; the throttle's 100 ms slices let it run ahead a little
        assertThat(bytes / 1048576.0 / cold).as("cold read MiB/s").isBetween(0.2 * 32, 1.3 * 32);
        // without a drop the page cache serves the second read: why the harness drops caches
        assertThat(warm).isLessThan(cold / 2);
      }
    }
  }
}
