package org.mpcache.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.common.Waits.waitFor;
import static org.mpcache.e2e.ClusterFiles.blocks;
import static org.mpcache.e2e.ClusterFiles.data;
import static org.mpcache.e2e.ClusterFiles.holder;
import static org.mpcache.e2e.ClusterFiles.readAll;
import static org.mpcache.e2e.ClusterFiles.write;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;
import org.mpcache.hdfs.ClientConfigKeys;
import org.mpcache.hdfs.ClientCounters;
import org.mpcache.minicluster.MiniMpCacheCluster;
import org.mpcache.slave.MpCacheSlave;
import org.mpcache.slave.SlaveConfigKeys;

/**
 * The cache survives restarts: a multi-block file read once, then the master or a slave restarted
 * (in process: the master stopped and started on its port, a slave stopped without telling the
 * master and started on its directory and port), then read again through the intercepting
 * FileSystem: the second read comes from the cache, with the same bytes. A block file changed on
 * the SSD while its slave was down is dropped by the background verification and never served.
 */
class RestartSurvivalTest {
  private static final int BLOCK = ClusterFiles.SMALL_BLOCK;
  private static MiniMpCacheCluster cluster;

  @BeforeAll
  static void start() throws IOException {
    cluster = new MiniMpCacheCluster.Builder(new File("target/e2e/restart-survival"))
        .blockSize(BLOCK)
        .set(ClientConfigKeys.SLAVE_RETRY_MS_KEY, "0")
        .set(SlaveConfigKeys.VERIFY_BYTES_PER_SEC_KEY, Long.toString(1L << 30)).build();
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** Writes a file of 4.5 blocks and reads it once, which caches every block. */
  private static byte[] cachedFile(Path p, long seed) throws IOException {
    byte[] content = data(seed, 4 * BLOCK + BLOCK / 2);
    write(cluster, p, content);
    assertArrayEquals(content, ClusterFiles.readUntilCached(cluster, p));
    return content;
  }

  /**
   * Reads the file again through this JVM, whose pooled RPC connections to the restarted daemon
   * are dead: asserts the bytes, that every byte came from the cache and that the client fell
   * back to HDFS for none (a call meeting a dead pooled connection is made again on a new one).
   */
  private static void assertReadFromCache(Path p, byte[] content) throws IOException {
    SlaveCountersProto before = cluster.totals();
    long fallbacks = ClientCounters.get().totalFallbacks();
    assertArrayEquals(content, readAll(cluster, p));
    SlaveCountersProto after = cluster.totals();
    assertEquals(content.length, after.getBytesFromCache() - before.getBytesFromCache(),
        "bytes from the cache after the restart");
    assertEquals(0, ClientCounters.get().totalFallbacks() - fallbacks,
        "fallbacks to HDFS after the restart: " + ClientCounters.get().fallbacks());
  }

  /**
   * The ports a restart binds again lie below the kernel's ephemeral range: a port handed out as
   * "any free port" could be given to another process's socket while its daemon is down, and the
   * restart would fail with "Address already in use" (it did, in a full suite run).
   */
  @Test
  void daemonsThatRestart_listenBelowTheEphemeralRange() throws Exception {
    String[] range = Files.readAllLines(Paths.get("/proc/sys/net/ipv4/ip_local_port_range"))
        .get(0).trim().split("\\s+");
    int low = Integer.parseInt(range[0]);
    List<Integer> ports = new ArrayList<>(List.of(
        cluster.master().getRpcAddress().getPort()));
    for (MpCacheSlave s : cluster.slaves()) {
      ports.add(s.info().getClientPort());
      ports.add(s.getLocalizedAddress().getPort());
    }
    for (int port : ports) {
      assertTrue(port > 0 && port < low, "port " + port + " of " + ports
          + " is in the ephemeral range from " + low);
    }
  }

  @Test
  void restartMaster_secondReadComesFromTheCache() throws Exception {
    Path p = new Path("/restart/master");
    byte[] content = cachedFile(p, 31);
    cluster.restartMaster();
    // The master lists a slave as its registration begins; the blocks it carries are adopted as
    // the registration ends.
    int n = blocks(cluster, p).size();
    waitFor(() -> cluster.master().getArbitrator().stats().blocksAdopted() >= n,
        "the new master to adopt every cached block");
    assertEquals(0, cluster.master().getArbitrator().stats().blocksNotAdopted());
    assertReadFromCache(p, content);
  }

  @Test
  void crashAndRestartSlave_secondReadComesFromTheCache() throws IOException {
    Path p = new Path("/restart/slave");
    byte[] content = cachedFile(p, 32);
    for (int i = 0; i < cluster.slaves().size(); i++) {
      cluster.crashAndRestartSlave(i);
    }
    assertReadFromCache(p, content);
  }

  @Test
  void crashAndRestartSlave_blockChangedWhileDown_isDroppedAndNeverServed() throws Exception {
    Path p = new Path("/restart/altered");
    byte[] content = cachedFile(p, 33);
    BlockKey key = blocks(cluster, p).get(1);
    MpCacheSlave again = ClusterFiles.changeWhileDownAndRestart(cluster, key);
    waitFor(() -> again.getStartupVerifier().isDone(), "the background verification");
    assertEquals(1, again.getStartupVerifier().failed());
    assertEquals(1, again.getCounters().snapshot().getBlocksFailedVerification());
    assertEquals(-1, again.getStore().cachedLength(key), "the changed block is dropped");
    waitFor(() -> !cluster.master().getSlaveRegistry().blocksOf(again.info().getSlaveId())
        .contains(key), "the drop reported to the master");
    assertArrayEquals(content, readAll(cluster, p), "the changed bytes are never served");
    List<BlockKey> others = new java.util.ArrayList<>(blocks(cluster, p));
    others.remove(key);
    for (BlockKey k : others) {
      assertNotNull(holder(cluster, k), "the other blocks stay cached");
    }
  }
}
