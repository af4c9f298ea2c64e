package org.mpcache.trust;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.e2e.ClusterFiles.data;
import static org.mpcache.e2e.ClusterFiles.readFirst;
import static org.mpcache.e2e.ClusterFiles.write;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.Time;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.hdfs.ClientConfigKeys;
import org.mpcache.hdfs.ClientCounters;
import org.mpcache.hdfs.FallbackCause;
import org.mpcache.minicluster.MiniMpCacheCluster;
import org.mpcache.slave.MpCacheSlave;

/**
 * Slaves that stop answering (their client RPC servers frozen, as a SIGSTOP freezes a process)
 * cost a reader at most about one cache deadline per slave, not RPC timeouts per block: the first
 * call that runs out of time marks the slave faulty for the whole client, the stream sends it
 * nothing more, and every byte still comes right from HDFS.
 */
class HungSlaveTest {
  private static final int BLOCK = 1 << 20;
  private static final int BLOCKS = 8;
  private static final int DEADLINE_MS = 1_000;
  private static MiniMpCacheCluster cluster;
  /** Threads this test suspended: resumed by the test, and again before the cluster stops. */
  private static final RpcServerThreads frozen = new RpcServerThreads();

  @BeforeAll
  static void start() throws IOException {
    cluster = new MiniMpCacheCluster.Builder(new File("target/e2e/hung-slave"))
        .blockSize(BLOCK)
        .set(ClientConfigKeys.CACHE_DEADLINE_MS_KEY, String.valueOf(DEADLINE_MS))
        .set(MpCacheConfigKeys.RPC_TIMEOUT_MS_KEY, "5000").build();
  }

  @AfterAll
  static void stop() {
    frozen.close();
    if (cluster != null) {
      cluster.close();
    }
  }

  /** The threads of the client RPC servers of every slave: its listener, readers and handlers. */
  private static List<Thread> slaveServerThreads() {
    List<Integer> ports = new ArrayList<>();
    for (MpCacheSlave s : cluster.slaves()) {
      ports.add(s.info().getClientPort());
    }
    return RpcServerThreads.of(ports);
  }

  @Test
  // A separate thread, so that a test thread stuck behind a frozen one fails the test instead of
  // hanging the build; the frozen threads are resumed after all tests either way.
  @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void read_everySlaveFrozen_costsAboutOneDeadlinePerSlaveAndReturnsTheRightBytes()
      throws Exception {
    Path p = new Path("/hung/data");
    byte[] content = data(5, BLOCKS * BLOCK);
    write(cluster, p, content);
    assertArrayEquals(content, readFirst(cluster, p, content.length),
        "the first read fills the cache");

    List<Thread> servers = slaveServerThreads();
    assertTrue(servers.size() >= 2 * cluster.slaves().size(), "server threads: " + servers);
    Map<FallbackCause, Long> before = ClientCounters.get().fallbacks();
    long elapsed;
    frozen.freeze(servers);
    try {
      long start = Time.monotonicNow();
      assertArrayEquals(content, readFirst(cluster, p, content.length), "bytes from HDFS");
      elapsed = Time.monotonicNow() - start;
    } finally {
      frozen.resumeAll();
    }
    System.out.println("Every slave frozen: " + BLOCKS + " blocks of " + BLOCK + " bytes read in "
        + elapsed + " ms with a cache deadline of " + DEADLINE_MS + " ms");
    Map<FallbackCause, Long> after = ClientCounters.get().fallbacks();
    long timedOut = after.getOrDefault(FallbackCause.SLAVE_UNREACHABLE, 0L)
        - before.getOrDefault(FallbackCause.SLAVE_UNREACHABLE, 0L)
        + after.getOrDefault(FallbackCause.DEADLINE_EXCEEDED, 0L)
        - before.getOrDefault(FallbackCause.DEADLINE_EXCEEDED, 0L);
    assertTrue(timedOut >= 1 && timedOut <= cluster.slaves().size(),
        "one timed-out call per slave at most, then the slave is left alone: " + timedOut
            + " of " + BLOCKS + " blocks (" + after + ")");
    // Each slave may cost one deadline (plus the proxy's connection setup); the old behaviour
    // cost three RPC timeouts (5 s here) per block.
    assertTrue(elapsed < 4L * DEADLINE_MS * cluster.slaves().size() + 5_000,
        "the read took " + elapsed + " ms");
  }
}
