package org.mpcache.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.mpcache.e2e.ClusterFiles.data;
import static org.mpcache.e2e.ClusterFiles.holder;
import static org.mpcache.e2e.ClusterFiles.slaveCalls;

import java.io.File;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mpcache.common.BlockKey;
import org.mpcache.common.Waits;
import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;
import org.mpcache.hdfs.ClientConfigKeys;
import org.mpcache.hdfs.ClientCounters;
import org.mpcache.minicluster.MiniMpCacheCluster;
import org.mpcache.slave.MpCacheSlave;
import org.mpcache.slave.SlaveConfigKeys;

/**
 * A sequential reader of missed blocks looks the blocks it enters within
 * {@code mpcache.client.miss.lookup.interval.ms} of its last lookup up together with its next
 * one (or when it unbuffers or closes), so that a fast reader makes a few calls where it made one
 * per block; each block's miss is still counted and filled and its read report still reaches the
 * slave, a reader slower than the interval looks each block up, and a reader of one block and the
 * next block's first bytes has those two filled and no other. One DataNode, so that one slave
 * holds every block.
 */
class MissLookupIntervalTest {
  private static final int BLOCK = 1 << 20;
  private static final int BLOCKS = 12;
  /** An interval no test's read outlasts. */
  private static final long HOUR_MS = 3_600_000;
  private static MiniMpCacheCluster cluster;

  @BeforeAll
  static void start() throws Exception {
    // Fills start at once: each test waits for its blocks to be cached.
    cluster = new MiniMpCacheCluster.Builder(new File("target/e2e/miss-lookup-interval"))
        .dataNodes(1).blockSize(BLOCK)
        .set(SlaveConfigKeys.FILL_QUIET_MS_KEY, "0").build();
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static MpCacheSlave slave() {
    return cluster.slaves().get(0);
  }

  /** A client whose sequential reader of missed blocks looks up at most once per interval. */
  private static FileSystem client(long intervalMs) throws Exception {
    Configuration conf = cluster.conf();
    conf.setLong(ClientConfigKeys.MISS_LOOKUP_INTERVAL_MS_KEY, intervalMs);
    return FileSystem.newInstance(cluster.fileSystem().getUri(), conf);
  }

  /**
   * Reads {@code p} whole, a block at a time, through {@code fs}; before entering the next block
   * it waits until the slave answered {@code lookupsBy[i]} lookups after block {@code i}, then
   * 100 ms more, so that every lookup is made as on a reader slower than its slave. Checks the
   * bytes; returns the lookup calls the client made.
   */
  private static long readBlockByBlock(FileSystem fs, Path p, byte[] content, int[] lookupsBy)
      throws Exception {
    long lookups = ClientCounters.get().lookups();
    long answered = slaveCalls(cluster, "Lookup");
    byte[] b = new byte[content.length];
    try (FSDataInputStream in = fs.open(p)) {
      for (int i = 0; i < BLOCKS; i++) {
        in.readFully(b, i * BLOCK, BLOCK);
        int want = lookupsBy[i];
        Waits.waitFor(() -> slaveCalls(cluster, "Lookup") - answered >= want,
            want + " lookups answered after block " + i);
        // The answer reaches the reader just after the slave counts it.
        Thread.sleep(100);
      }
    }
    assertArrayEquals(content, b);
    return ClientCounters.get().lookups() - lookups;
  }

  /** Writes {@code blocks} blocks of seed {@code seed}'s bytes to {@code p}; returns them. */
  private static byte[] write(Path p, int seed, int blocks) throws Exception {
    byte[] content = data(seed, blocks * BLOCK);
    ClusterFiles.write(cluster, p, content);
    return content;
  }

  private static void awaitAllCached(Path p) throws Exception {
    for (BlockKey k : ClusterFiles.blocks(cluster, p)) {
      Waits.waitFor(() -> holder(cluster, k) != null, k + " to be cached");
    }
  }

  @Test
  void aReaderFasterThanTheInterval_looksUpTwiceForTwelveBlocks() throws Exception {
    Path p = new Path("/lookup-interval/fast");
    byte[] content = write(p, 71, BLOCKS);
    SlaveCountersProto before = slave().getCounters().snapshot();
    long reports = slaveCalls(cluster, "ReportRead");
    long lookups = ClientCounters.get().lookups();
    byte[] b = new byte[content.length];
    try (FileSystem fs = client(HOUR_MS); FSDataInputStream in = fs.open(p)) {
      in.readFully(b);
    }
    assertArrayEquals(content, b);
    // Block 0 on entering it; 1-11, entered within the hour, when the stream closed.
    assertEquals(2, ClientCounters.get().lookups() - lookups, "lookup calls for " + BLOCKS
        + " missed blocks");
    SlaveCountersProto after = slave().getCounters().snapshot();
    assertEquals(BLOCKS, after.getMisses() - before.getMisses(), "each block's miss counted once");
    assertEquals(0, slaveCalls(cluster, "ReportRead") - reports,
        "reportRead calls: every report rode on the closing lookup");
    assertEquals(content.length, after.getBytesFromHdfs() - before.getBytesFromHdfs(),
        "the slave counted every byte read from HDFS");
    awaitAllCached(p);
    assertArrayEquals(content, ClusterFiles.readAll(cluster, p));
  }

  @Test
  void aReaderSlowerThanTheInterval_orAnIntervalOfZero_looksUpEachBlock() throws Exception {
    int[] each = new int[BLOCKS];
    Arrays.setAll(each, i -> i + 1);
    Path p = new Path("/lookup-interval/slow");
    byte[] content = write(p, 72, BLOCKS);
    // The reader waits 100 ms or more between blocks: every block is entered after 50 ms.
    try (FileSystem fs = client(50)) {
      assertEquals(BLOCKS, readBlockByBlock(fs, p, content, each), "one lookup per block");
    }
    Path q = new Path("/lookup-interval/zero");
    byte[] other = write(q, 73, BLOCKS);
    try (FileSystem fs = client(0)) {
      assertEquals(BLOCKS, readBlockByBlock(fs, q, other, each), "one lookup per block");
    }
    awaitAllCached(p);
    awaitAllCached(q);
  }

  @Test
  void unbuffer_looksUpTheDeferredBlocks() throws Exception {
    Path p = new Path("/lookup-interval/unbuffer");
    byte[] content = write(p, 75, 4);
    long misses = slave().getCounters().snapshot().getMisses();
    byte[] b = new byte[content.length];
    try (FileSystem fs = client(HOUR_MS); FSDataInputStream in = fs.open(p)) {
      in.readFully(b);
      in.unbuffer();
      // Still open: the deferred blocks' lookup went out when the stream unbuffered.
      Waits.waitFor(() -> slave().getCounters().snapshot().getMisses() - misses == 4,
          "the slave to count the 4 blocks' misses");
    }
    assertArrayEquals(content, b);
    awaitAllCached(p);
  }

  @Test
  void aReaderOfOneBlockAndTheNextsFirstBytes_hasThoseTwoFilled() throws Exception {
    Path p = new Path("/lookup-interval/split");
    byte[] content = write(p, 74, 3);
    List<BlockKey> keys = ClusterFiles.blocks(cluster, p);
    byte[] b = new byte[BLOCK + 100];
    // A map task's record reader: its split's block, then the first record of the next block.
    try (FileSystem fs = client(ClientConfigKeys.MISS_LOOKUP_INTERVAL_MS_DEFAULT);
        FSDataInputStream in = fs.open(p)) {
      in.readFully(b, 0, b.length);
    }
    assertArrayEquals(Arrays.copyOf(content, b.length), b);
    Waits.waitFor(() -> holder(cluster, keys.get(0)) != null && holder(cluster, keys.get(1))
        != null, "the two blocks it read to be cached");
    Thread.sleep(500);
    assertNull(holder(cluster, keys.get(2)), "the block it never entered was not filled");
  }
}
