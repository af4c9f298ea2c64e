package org.mpcache.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mpcache.e2e.ClusterFiles.data;

import java.io.File;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.test.MetricsAsserts;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.mpcache.minicluster.MiniMpCacheCluster;
import org.mpcache.slave.MpCacheSlave;

/**
 * A slave fills a missed block by reading the local DataNode's block file directly where the
 * DataNode allows the slave's user ({@code dfs.block.local-path-access.user}), so that the
 * DataNode sends none of a fill's bytes; where it does not, the fill reads through the DataNode.
 * Either way the block is cached whole and read back from the cache byte for byte. The refusal
 * comes first: HDFS remembers one for the rest of the JVM's life in the client context it came
 * from, and the slave of the second cluster must still read by path.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FillLocalPathReadTest {
  private static final int BLOCK = 4 << 20;
  /** What a DataNode counts as read for one whole block: its bytes and a CRC per 512 of them. */
  private static final long SENT = BLOCK + BLOCK / 512 * 4;

  @Test
  @Order(2)
  void dataNodeAllowsTheSlavesUser_fillReadsTheBlockFileDirectly() throws Exception {
    String user = UserGroupInformation.getCurrentUser().getShortUserName();
    try (MiniMpCacheCluster c = cluster("fill-local-path-allowed")
        .set(DFSConfigKeys.DFS_BLOCK_LOCAL_PATH_ACCESS_USER_KEY, user).build()) {
      assertEquals(BLOCK, missThenHit(c, 71), "bytes the fill read from the block file");
      assertEquals(SENT, dataNodeBytesRead(c), "the DataNode sent the reader's miss only");
    }
  }

  @Test
  @Order(1)
  void dataNodeRefuses_fillReadsThroughTheDataNode() throws Exception {
    try (MiniMpCacheCluster c = cluster("fill-local-path-refused").build()) {
      assertEquals(0, missThenHit(c, 72), "bytes the fill read from the block file");
      assertEquals(2 * SENT, dataNodeBytesRead(c), "the reader's miss and the fill");
    }
  }

  private static MiniMpCacheCluster.Builder cluster(String name) {
    return new MiniMpCacheCluster.Builder(new File("target/e2e/" + name)).dataNodes(1)
        .blockSize(BLOCK);
  }

  /**
   * Reads a one-block file (a miss), waits until the slave has filled it, reads it again (a
   * hit) and returns the bytes the fill read from the DataNode's block file.
   */
  private static long missThenHit(MiniMpCacheCluster c, long seed) throws Exception {
    Path p = new Path("/fill-local-path/data");
    byte[] content = data(seed, BLOCK);
    ClusterFiles.write(c, p, content);
    assertArrayEquals(content, ClusterFiles.readUntilCached(c, p));
    long fromCache = c.totals().getBytesFromCache();
    assertArrayEquals(content, ClusterFiles.readAll(c, p));
    assertEquals(BLOCK, c.totals().getBytesFromCache() - fromCache, "the second read hit");
    MpCacheSlave slave = c.slaves().get(0);
    assertEquals(BLOCK, slave.getFiller().bytesRead(), "the slave filled the block once");
    return slave.getFiller().bytesReadLocally();
  }

  private static long dataNodeBytesRead(MiniMpCacheCluster c) {
    return MetricsAsserts.getLongCounter("BytesRead",
        MetricsAsserts.getMetrics(c.dfs().getDataNodes().get(0).getMetrics().name()));
  }
}
