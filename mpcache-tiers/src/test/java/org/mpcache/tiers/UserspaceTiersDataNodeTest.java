package org.mpcache.tiers;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The user-space mechanism really slows HDFS reads: a DataNode started with the configuration
 * {@link StorageTiers#configure} fills serves a file no faster than the HDD read bandwidth.
 * Starts a MiniDFSCluster.
 */
class UserspaceTiersDataNodeTest {
  @TempDir
  java.nio.file.Path dir;

  @Test
  void configure_userspace_dataNodeReadsAtHddBandwidth() throws Exception {
    Configuration tierConf = new Configuration(false);
    tierConf.set(TierConfigKeys.MECHANISM_KEY, "userspace");
    tierConf.set(TierConfigKeys.HDD_READ_BPS_KEY, "16m");
    long bytes = 32L << 20;
    try (StorageTiers tiers = new StorageTiers(dir, 1, MechanismDecisionTest.NOT_ROOT)) {
      tiers.init(tierConf);
      tiers.start();
      Configuration conf = new HdfsConfiguration();
      tiers.configure(conf);
      try (MiniDFSCluster dfs = new MiniDFSCluster.Builder(conf,
          tiers.node(0).hddDir().resolve("dfs").toFile()).numDataNodes(1).build()) {
        dfs.waitActive();
        FileSystem fs = dfs.getFileSystem();
        Path file = new Path("/throttled");
        TierTestSupport.write(fs, file, bytes);
        // The DataNode's throttle (Hadoop's DataTransferThrottler) lets a reader catch up on
        // up to three periods it left unused, so a first read soon after the DataNode started
        // may pass 32 MiB in one burst (seen: 0.64 s); a read right after it starts with the
        // throttle's reserve spent.
        double first = TierTestSupport.readSeconds(fs, file, bytes);
        double seconds = TierTestSupport.readSeconds(fs, file, bytes);
        System.out.printf("read %d MiB through the throttled DataNode in %.2f s, then in %.2f s%n",
            bytes >> 20, first, seconds);
        // 32 MiB at 16 MiB/s: 2 s, less at most one 500 ms period's reserve left over from the
        // read before; unthrottled, the read takes a fraction of a second
        assertThat(seconds).as("read time of 32 MiB at 16 MiB/s").isGreaterThan(1.2);
      }
    }
  }
}
