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
 * A sequential reader of missed blocks has one lookup name the blocks after its own
 * ({@code mpcache.client.miss.lookup.ahead.bytes}): no more than the whole blocks it read in order
 * before it less one, up to the key's bytes, so that a reader of many blocks makes a few calls
 * where it made one per block, each block's miss is still counted and filled, its read report
 * still reaches the slave, and a reader of one block names none. One DataNode, so that one slave
 * holds every block.
 */
class MissLookupAheadTest {
  private static final int BLOCK = 1 << 20;
  private static final int BLOCKS = 12;
  private static MiniMpCacheCluster cluster;

  @BeforeAll
  static void start() throws Exception {
    // Fills start at once: each test waits for its blocks to be cached.
    cluster = new MiniMpCacheCluster.Builder(new File("target/e2e/miss-lookup-ahead"))
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

  /** A client whose lookups name {@code aheadBytes} of blocks ahead at most. */
  private static FileSystem client(long aheadBytes) throws Exception {
    Configuration conf = cluster.conf();
    conf.setLong(ClientConfigKeys.MISS_LOOKUP_AHEAD_BYTES_KEY, aheadBytes);
    return FileSystem.newInstance(cluster.fileSystem().getUri(), conf);
  }

  /**
   * Reads {@code p} whole, a block at a time, through {@code fs}; before entering the next block
   * it waits until the slave answered the lookups made so far, {@code lookupsBy[i]} after block
   * {@code i}, so that every lookup is made as on a reader slower than its slave. Checks the
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

  private static void awaitAllCached(Path p) throws Exception {
    for (BlockKey k : ClusterFiles.blocks(cluster, p)) {
      Waits.waitFor(() -> holder(cluster, k) != null, k + " to be cached");
    }
  }

  @Test
  void aSequentialReaderOfMissedBlocks_looksUpFiveTimesForTwelveBlocks() throws Exception {
    Path p = new Path("/lookup-ahead/default");
    byte[] content = data(71, BLOCKS * BLOCK);
    ClusterFiles.write(cluster, p, content);
    SlaveCountersProto before = slave().getCounters().snapshot();
    long reports = slaveCalls(cluster, "ReportRead");
    long lookups;
    try (FileSystem fs = client(ClientConfigKeys.MISS_LOOKUP_AHEAD_BYTES_DEFAULT)) {
      // Blocks 0 and 1 are looked up on their own, 2 names 3, 4 names 5-7, 8 names 9-11.
      lookups = readBlockByBlock(fs, p, content, new int[] {1, 2, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5});
    }
    assertEquals(5, lookups, "lookup calls for " + BLOCKS + " missed blocks");
    SlaveCountersProto after = slave().getCounters().snapshot();
    assertEquals(BLOCKS, after.getMisses() - before.getMisses(), "each block's miss counted once");
    // Reports of blocks 0-7 rode on lookups; 8-11 went on their own when the stream closed.
    assertEquals(4, slaveCalls(cluster, "ReportRead") - reports, "reportRead calls");
    assertEquals(content.length, after.getBytesFromHdfs() - before.getBytesFromHdfs(),
        "the slave counted every byte read from HDFS");
    awaitAllCached(p);
    assertArrayEquals(content, ClusterFiles.readAll(cluster, p));
  }

  @Test
  void theBlocksNamedAhead_areBoundedByTheKeysBytes_andZeroNamesNone() throws Exception {
    Path p = new Path("/lookup-ahead/bounded");
    byte[] content = data(72, BLOCKS * BLOCK);
    ClusterFiles.write(cluster, p, content);
    try (FileSystem fs = client(2L * BLOCK)) {
      // 2 names 3, 4 names 5-6, 7 names 8-9, 10 names 11.
      assertEquals(6, readBlockByBlock(fs, p, content,
          new int[] {1, 2, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6}), "lookup calls, 2 blocks ahead at most");
    }
    Path q = new Path("/lookup-ahead/none");
    byte[] other = data(73, BLOCKS * BLOCK);
    ClusterFiles.write(cluster, q, other);
    int[] each = new int[BLOCKS];
    Arrays.setAll(each, i -> i + 1);
    try (FileSystem fs = client(0)) {
      assertEquals(BLOCKS, readBlockByBlock(fs, q, other, each), "one lookup per block");
    }
    awaitAllCached(p);
    awaitAllCached(q);
  }

  @Test
  void aReaderOfOneBlockAndTheNextsFirstBytes_namesNothingAhead() throws Exception {
    Path p = new Path("/lookup-ahead/split");
    byte[] content = data(74, 3 * BLOCK);
    ClusterFiles.write(cluster, p, content);
    List<BlockKey> keys = ClusterFiles.blocks(cluster, p);
    byte[] b = new byte[BLOCK + 100];
    // A map task's record reader: its split's block, then the first record of the next block.
    try (FileSystem fs = client(ClientConfigKeys.MISS_LOOKUP_AHEAD_BYTES_DEFAULT);
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
