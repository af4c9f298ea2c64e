package org.mpcache.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.e2e.ClusterFiles.data;
import static org.mpcache.e2e.ClusterFiles.holder;

import java.io.File;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.Time;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mpcache.common.BlockKey;
import org.mpcache.common.Waits;
import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;
import org.mpcache.minicluster.MiniMpCacheCluster;
import org.mpcache.slave.SlaveConfigKeys;

/**
 * The slave paces what it reads from HDFS to fill its cache
 * ({@code mpcache.slave.fill.bytes.per.sec}): a missed block is read by its reader from HDFS
 * and filled behind it no faster than the limit allows, and then it is cached whole.
 */
class FillPacingTest {
  private static final int BLOCK = 4 << 20;
  private static final long LIMIT = 1 << 20;
  private static MiniMpCacheCluster cluster;

  @BeforeAll
  static void start() throws Exception {
    cluster = new MiniMpCacheCluster.Builder(new File("target/e2e/fill-pacing")).blockSize(BLOCK)
        .set(SlaveConfigKeys.FILL_BYTES_PER_SEC_KEY, String.valueOf(LIMIT))
        // Fills start at once: only the pace, not the hold-off, may take the time measured.
        .set(SlaveConfigKeys.FILL_QUIET_MS_KEY, "0").build();
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void missedBlock_isFilledNoFasterThanTheLimit_thenServedWhole() throws Exception {
    Path p = new Path("/fill-pacing/data");
    byte[] content = data(51, BLOCK);
    ClusterFiles.write(cluster, p, content);
    BlockKey key = ClusterFiles.blocks(cluster, p).get(0);
    SlaveCountersProto before = cluster.totals();
    long start = Time.monotonicNow();
    assertArrayEquals(content, ClusterFiles.readAll(cluster, p));
    Waits.waitFor(() -> holder(cluster, key) != null, key + " to be cached");
    long fillMs = Time.monotonicNow() - start;
    // The slave's fill thread counts its fill just after the block becomes readable.
    Waits.waitFor(() -> cluster.totals().getFillsBySlave() > before.getFillsBySlave(),
        "the slave to count its fill");
    SlaveCountersProto after = cluster.totals();
    assertEquals(BLOCK, after.getBytesFromHdfs() - before.getBytesFromHdfs(),
        "the first read missed");
    assertEquals(1, after.getFillsBySlave() - before.getFillsBySlave(), "the slave filled it");
    // 4 MiB at 1 MiB/s, less the throttler's first half-second allowance: at least 3.5 s.
    assertTrue(fillMs >= 3_000, "filled in " + fillMs + " ms, faster than "
        + SlaveConfigKeys.FILL_BYTES_PER_SEC_KEY + "=" + LIMIT + " allows");
    long hitsBefore = cluster.totals().getBytesFromCache();
    assertArrayEquals(content, ClusterFiles.readAll(cluster, p));
    assertEquals(BLOCK, cluster.totals().getBytesFromCache() - hitsBefore,
        "the second read came from the cache");
  }
}
