package org.mpcache.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.e2e.ClusterFiles.data;
import static org.mpcache.e2e.ClusterFiles.holder;

import java.io.File;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.Time;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mpcache.common.BlockKey;
import org.mpcache.common.Waits;
import org.mpcache.minicluster.MiniMpCacheCluster;
import org.mpcache.slave.MpCacheSlave;
import org.mpcache.slave.SlaveConfigKeys;

/**
 * The slave holds a reader's fills off until the misses on the reader's file have stopped for
 * {@code mpcache.slave.fill.quiet.ms}, and at most {@code mpcache.slave.fill.max-delay.ms}: a
 * fill does not run beside the read that asked for it, and a reader that never stops missing
 * still has its blocks cached.
 */
class FillQuietTest {
  private static final int BLOCK = 1 << 20;
  private static final long QUIET_MS = 2_000;
  private static final long MAX_DELAY_MS = 4_000;
  private static MiniMpCacheCluster cluster;

  @BeforeAll
  static void start() throws Exception {
    cluster = new MiniMpCacheCluster.Builder(new File("target/e2e/fill-quiet")).blockSize(BLOCK)
        .set(SlaveConfigKeys.FILL_QUIET_MS_KEY, String.valueOf(QUIET_MS))
        .set(SlaveConfigKeys.FILL_MAX_DELAY_MS_KEY, String.valueOf(MAX_DELAY_MS)).build();
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static long heldOffMs() {
    return cluster.slaves().stream().mapToLong(s -> s.getFiller().heldOffMs()).sum();
  }

  @Test
  void missedBlocks_areFilledOnlyOnceTheFilesMissesHaveStopped() throws Exception {
    Path p = new Path("/fill-quiet/stops");
    byte[] content = data(61, 2 * BLOCK);
    ClusterFiles.write(cluster, p, content);
    List<BlockKey> keys = ClusterFiles.blocks(cluster, p);
    long heldBefore = heldOffMs();
    long start = Time.monotonicNow();
    assertArrayEquals(content, ClusterFiles.readAll(cluster, p));
    // Every miss reached the slave after start: no fill may begin before start + QUIET_MS.
    Thread.sleep(Math.max(0, start + QUIET_MS / 2 - Time.monotonicNow()));
    for (BlockKey k : keys) {
      assertNull(holder(cluster, k), k + " was filled while its file's misses were recent");
    }
    for (BlockKey k : keys) {
      Waits.waitFor(() -> holder(cluster, k) != null, k + " to be cached");
    }
    long cachedAfter = Time.monotonicNow() - start;
    assertTrue(cachedAfter >= QUIET_MS, "cached " + cachedAfter + " ms after the first miss");
    assertTrue(heldOffMs() - heldBefore > 0, "FillsHeldOffMs counted the wait");
    assertArrayEquals(content, ClusterFiles.readAll(cluster, p));
  }

  @Test
  void aReaderThatNeverStopsMissing_hasItsBlockFilledAfterTheMaximumDelay() throws Exception {
    Path p = new Path("/fill-quiet/never-stops");
    byte[] content = data(62, BLOCK);
    ClusterFiles.write(cluster, p, content);
    BlockKey key = ClusterFiles.blocks(cluster, p).get(0);
    long start = Time.monotonicNow();
    MpCacheSlave cachedBy = null;
    int reads = 0;
    // A new reader of the block every 100 ms, each missing it, until it is cached: the misses
    // never stay quiet for QUIET_MS.
    while (cachedBy == null && Time.monotonicNow() - start < MAX_DELAY_MS + 10_000) {
      try (FileSystem fs = cluster.fileSystem(); FSDataInputStream in = fs.open(p)) {
        byte[] b = new byte[4096];
        in.readFully(BLOCK - b.length, b);
        assertArrayEquals(Arrays.copyOfRange(content, BLOCK - b.length, BLOCK), b);
      }
      reads++;
      cachedBy = holder(cluster, key);
      Thread.sleep(100);
    }
    long cachedAfter = Time.monotonicNow() - start;
    assertNotNull(cachedBy, key + " not cached while its readers kept missing it (" + reads
        + " reads)");
    assertTrue(cachedAfter >= MAX_DELAY_MS, "cached " + cachedAfter + " ms after the first miss,"
        + " before " + SlaveConfigKeys.FILL_MAX_DELAY_MS_KEY + " passed");
    assertEquals(BLOCK, cachedBy.getStore().cachedLength(key));
  }
}
