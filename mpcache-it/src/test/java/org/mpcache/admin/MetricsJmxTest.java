package org.mpcache.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.Random;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.metrics2.MetricsSystem;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mpcache.common.BlockKey;
import org.mpcache.common.Waits;
import org.mpcache.e2e.ClusterFiles;
import org.mpcache.minicluster.MiniMpCacheCluster;
import org.mpcache.hdfs.ClientConfigKeys;
import org.mpcache.master.metrics.MasterMetrics;
import org.mpcache.slave.MpCacheSlave;

/**
 * Reads the master's, the slaves' and the client's metrics back through JMX after a file was read
 * twice through the cache (the first read fills, the second hits): each daemon of the one-JVM
 * cluster has its own bean, and the figures match what the reads did.
 */
class MetricsJmxTest {
  private static final int BLOCK = 1 << 20;
  private static final int BLOCKS = 4;
  private static MiniMpCacheCluster cluster;

  @BeforeAll
  static void start() throws IOException {
    cluster = new MiniMpCacheCluster.Builder(new File("target/e2e/metrics-jmx")).blockSize(BLOCK).build();
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static void read(Path p) throws IOException {
    try (FileSystem fs = cluster.fileSystem(); FSDataInputStream in = fs.open(p)) {
      IOUtils.copyBytes(in, org.apache.commons.io.output.NullOutputStream.INSTANCE, 1 << 16);
    }
  }

  private static ObjectName bean(String name) throws Exception {
    MBeanServer mbs = ManagementFactory.getPlatformMBeanServer();
    Set<ObjectName> found = mbs.queryNames(new ObjectName("Hadoop:service=*,name=" + name), null);
    assertEquals(1, found.size(), () -> "one bean named " + name + ": " + found);
    return found.iterator().next();
  }

  private static long attr(ObjectName bean, String attribute) throws Exception {
    return ((Number) ManagementFactory.getPlatformMBeanServer().getAttribute(bean, attribute))
        .longValue();
  }

  @Test
  void metrics_afterCachedReads_matchTheReads() throws Exception {
    Path p = new Path("/metrics/f");
    byte[] content = new byte[BLOCKS * BLOCK];
    new Random(5).nextBytes(content);
    try (FSDataOutputStream out = cluster.plainFileSystem().create(p, true)) {
      out.write(content);
    }
    read(p);
    // The slaves fill the missed blocks off the reader's path, after the read: the second read
    // hits every block once they are done.
    for (BlockKey k : ClusterFiles.blocks(cluster, p)) {
      Waits.waitFor(() -> ClusterFiles.holder(cluster, k) != null, k + " to be cached");
    }
    read(p);
    // JMX serves a source's figures from a cache refreshed once per metrics period (10 s); a
    // restart of the metrics system rebuilds every bean from the figures as they are now.
    MetricsSystem metrics = DefaultMetricsSystem.instance();
    metrics.stop();
    metrics.start();

    ObjectName master = bean(MasterMetrics.PREFIX + "-"
        + cluster.master().getRpcAddress().getPort());
    assertEquals(2, attr(master, "LiveSlaves"));
    assertEquals(0, attr(master, "DeadSlaves"));
    assertEquals(1, attr(master, "Datasets"));
    assertEquals(BLOCKS, attr(master, "ReplaceRequests"));
    assertEquals(BLOCKS, attr(master, "Admissions"));
    assertEquals(0, attr(master, "Rejections"));
    assertEquals(BLOCKS, attr(master, "VerdictAdmittedFreeSpace"));
    assertEquals(0, attr(master, "EvictionsReplacement"));
    assertEquals(BLOCKS, attr(master, "RpcRequestReplaceNumOps"));
    assertThat(attr(master, "RpcHeartbeatNumOps")).isPositive();

    long hits = 0;
    long fromSsd = 0;
    long fills = 0;
    for (MpCacheSlave s : cluster.slaves()) {
      ObjectName slave = bean(s.getMetrics().name());
      // The slave capacity is what input may fill: the Input Cache's own space plus the pool.
      assertEquals(1L << 30,
          attr(slave, "InputCacheCapacity") + attr(slave, "DynamicPoolCapacity"));
      assertEquals(attr(slave, "Fills") * BLOCK, attr(slave, "InputCacheUsed"));
      assertEquals(0, attr(slave, "Fallbacks"));
      // The Input Cache's own gigabyte holds every block: the tuner lent no pool unit.
      assertEquals(0, attr(slave, "PoolMoves"));
      assertEquals(0, attr(slave, "PoolLentToInput"));
      hits += attr(slave, "Hits");
      fromSsd += attr(slave, "BytesFromSsd");
      fills += attr(slave, "Fills");
    }
    assertEquals(BLOCKS, fills);
    assertEquals(BLOCKS, hits);
    assertEquals((long) BLOCKS * BLOCK, fromSsd);

    ObjectName client = bean("MpCacheClient");
    assertEquals(BLOCKS, attr(client, "Hits"));
    assertEquals((long) BLOCKS * BLOCK, attr(client, "BytesFromSsd"));
    assertEquals(0, attr(client, "Fallbacks"));
  }
}
