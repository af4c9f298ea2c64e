package org.mpcache.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.e2e.ClusterFiles.data;
import static org.mpcache.e2e.ClusterFiles.holder;
import static org.mpcache.e2e.ClusterFiles.slaveCalls;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.util.Time;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mpcache.common.BlockKey;
import org.mpcache.common.Waits;
import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;
import org.mpcache.hdfs.ClientConfigKeys;
import org.mpcache.hdfs.ClientCounters;
import org.mpcache.minicluster.MiniMpCacheCluster;
import org.mpcache.slave.SlaveConfigKeys;

/**
 * However a reader enters a missed block, the whole block ends up cached once: the slave fills
 * it from HDFS beside the reader, whether the reader enters it at its start or mid-block or reads
 * its tail by positional reads; readers missing the same block at once cause one fill.
 */
class MissFillTest {
  /** Not a multiple of the 1 MiB the cluster writes by default, nor of 100 bytes. */
  private static final int BLOCK = 3 * 1024 * 1024 + 512;
  private static MiniMpCacheCluster cluster;

  @BeforeAll
  static void start() throws IOException {
    // Fills start at once: these tests count each one's fills, and a fill held off for its
    // file's misses to stop (FillQuietTest) would land in the next test's counts. Every block
    // is looked up as its reader enters it: these tests count lookups and read reports per
    // block, and looking blocks up together is MissLookupIntervalTest's.
    cluster = new MiniMpCacheCluster.Builder(new File("target/e2e/miss-fill"))
        .blockSize(ClusterFiles.SMALL_BLOCK)
        .set(ClientConfigKeys.SLAVE_RETRY_MS_KEY, "0")
        .set(ClientConfigKeys.MISS_LOOKUP_INTERVAL_MS_KEY, "0")
        .set(SlaveConfigKeys.FILL_QUIET_MS_KEY, "0").build();
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /**
   * A slave fill an earlier test set off and did not wait for would be counted among this test's
   * fills if it ended during this one.
   */
  @BeforeEach
  void earlierFillsEnded() throws InterruptedException {
    Waits.waitFor(() -> cluster.slaves().stream()
        .allMatch(s -> s.getFiller().readerFillsPending() == 0), "earlier tests' fills to end");
  }

  /** Writes {@code content} to {@code p} in {@link #BLOCK}-byte blocks. */
  private static void write(Path p, byte[] content) throws IOException {
    try (FSDataOutputStream out = cluster.plainFileSystem().create(p, true, 4096, (short) 1,
        BLOCK)) {
      out.write(content);
    }
  }

  private static void awaitCached(BlockKey key) throws InterruptedException {
    Waits.waitFor(() -> holder(cluster, key) != null, key + " to be cached");
  }

  /** Reads block {@code index} of {@code p} whole from a new stream; returns the counters' change. */
  private static SlaveCountersProto readBlock(Path p, int index, byte[] content)
      throws IOException {
    return readBlock(cluster.conf(), p, index, content);
  }

  /** As {@link #readBlock(Path, int, byte[])}, by a client of configuration {@code conf}. */
  private static SlaveCountersProto readBlock(Configuration conf, Path p, int index,
      byte[] content) throws IOException {
    SlaveCountersProto before = cluster.totals();
    try (FileSystem fs = FileSystem.newInstance(cluster.dfs().getURI(), conf);
        FSDataInputStream in = fs.open(p)) {
      int from = index * BLOCK;
      int length = Math.min(BLOCK, content.length - from);
      byte[] b = new byte[length];
      in.seek(from);
      IOUtils.readFully(in, b, 0, length);
      assertArrayEquals(Arrays.copyOfRange(content, from, from + length), b);
    }
    return minus(cluster.totals(), before);
  }

  private static SlaveCountersProto minus(SlaveCountersProto a, SlaveCountersProto b) {
    return SlaveCountersProto.newBuilder().setHits(a.getHits() - b.getHits())
        .setMisses(a.getMisses() - b.getMisses())
        .setBytesFromCache(a.getBytesFromCache() - b.getBytesFromCache())
        .setBytesFromHdfs(a.getBytesFromHdfs() - b.getBytesFromHdfs())
        .setFallbacks(a.getFallbacks() - b.getFallbacks())
        .setBlocksCached(a.getBlocksCached() - b.getBlocksCached())
        .setBlocksEvicted(a.getBlocksEvicted() - b.getBlocksEvicted())
        .setBlocksCorrupt(a.getBlocksCorrupt() - b.getBlocksCorrupt())
        .setFillsBySlave(a.getFillsBySlave() - b.getFillsBySlave())
        .setFillsBySlaveFailed(a.getFillsBySlaveFailed() - b.getFillsBySlaveFailed()).build();
  }

  @Test
  void pread_lastMibOnly_thenAWholeBlockReaderFindsItCached() throws Exception {
    Path p = new Path("/miss-fill/pread");
    byte[] content = data(41, 2 * BLOCK);
    write(p, content);
    SlaveCountersProto before = cluster.totals();
    try (FileSystem fs = cluster.fileSystem(); FSDataInputStream in = fs.open(p)) {
      byte[] b = new byte[64 * 1024];
      for (int at = BLOCK - (1 << 20); at < BLOCK; at += b.length) {
        int n = Math.min(b.length, BLOCK - at);
        in.readFully(at, b, 0, n);
        assertArrayEquals(Arrays.copyOfRange(content, at, at + n), Arrays.copyOf(b, n));
      }
    }
    awaitCached(ClusterFiles.blocks(cluster, p).get(0));
    SlaveCountersProto filled = minus(cluster.totals(), before);
    assertEquals(1, filled.getFillsBySlave(), "the slave filled the block");

    SlaveCountersProto second = readBlock(p, 0, content);
    assertEquals(BLOCK, second.getBytesFromCache(), "the whole block came from the cache");
    assertEquals(0, second.getBytesFromHdfs());
    assertEquals(1, second.getHits());
    assertEquals(0, second.getMisses());
  }

  @Test
  void read_fromTheBlocksStart_theSlaveFillsItBesideTheReader() throws Exception {
    Path p = new Path("/miss-fill/start-slave");
    byte[] content = data(46, BLOCK);
    write(p, content);
    SlaveCountersProto before = cluster.totals();
    SlaveCountersProto first = readBlock(p, 0, content);
    assertEquals(1, first.getMisses(), "one lookup for the missed block");
    awaitCached(ClusterFiles.blocks(cluster, p).get(0));
    SlaveCountersProto filled = minus(cluster.totals(), before);
    assertEquals(1, filled.getFillsBySlave());
    assertEquals(BLOCK, readBlock(p, 0, content).getBytesFromCache());
  }

  @Test
  void read_enteredMidBlock_theSlaveFillsItAndTheNextReaderHits() throws Exception {
    Path p = new Path("/miss-fill/mid");
    byte[] content = data(43, 2 * BLOCK);
    write(p, content);
    try (FileSystem fs = cluster.fileSystem(); FSDataInputStream in = fs.open(p)) {
      // As a record reader entering its split at the first whole 100-byte record.
      in.seek(BLOCK + 36);
      byte[] b = new byte[BLOCK - 36];
      IOUtils.readFully(in, b, 0, b.length);
    }
    awaitCached(ClusterFiles.blocks(cluster, p).get(1));
    assertEquals(BLOCK, readBlock(p, 1, content).getBytesFromCache());
  }

  @Test
  void pread_manyReadersMissTheSameBlock_oneFill() throws Exception {
    Path p = new Path("/miss-fill/many");
    byte[] content = data(45, BLOCK);
    write(p, content);
    SlaveCountersProto before = cluster.totals();
    ExecutorService readers = Executors.newFixedThreadPool(4);
    try {
      List<Future<byte[]>> reads = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        int at = i * (BLOCK / 8);
        reads.add(readers.submit(() -> {
          try (FileSystem fs = cluster.fileSystem(); FSDataInputStream in = fs.open(p)) {
            byte[] b = new byte[4096];
            in.readFully(at, b);
            return b;
          }
        }));
      }
      for (int i = 0; i < reads.size(); i++) {
        int at = i * (BLOCK / 8);
        assertArrayEquals(Arrays.copyOfRange(content, at, at + 4096), reads.get(i).get());
      }
    } finally {
      readers.shutdownNow();
    }
    awaitCached(ClusterFiles.blocks(cluster, p).get(0));
    Waits.waitFor(() -> cluster.slaves().stream()
        .allMatch(s -> s.getFiller().readerFillsPending() == 0), "fills to end");
    assertEquals(1, minus(cluster.totals(), before).getFillsBySlave(), "one fill per block");
  }

  @Test
  void read_manyMissedBlocksInOneStream_eachLookedUpOnceAndFilled() throws Exception {
    Path p = new Path("/miss-fill/run");
    byte[] content = data(47, 4 * BLOCK);
    write(p, content);
    SlaveCountersProto before = cluster.totals();
    long lookups = ClientCounters.get().lookups();
    long reportCalls = slaveCalls(cluster, "ReportRead");
    try (FileSystem fs = cluster.fileSystem(); FSDataInputStream in = fs.open(p)) {
      byte[] b = new byte[content.length];
      IOUtils.readFully(in, b, 0, b.length);
      assertArrayEquals(content, b);
    }
    // After the first, the blocks are looked up off the reader's thread: still once each.
    assertEquals(4, ClientCounters.get().lookups() - lookups, "lookups");
    List<BlockKey> keys = ClusterFiles.blocks(cluster, p);
    for (BlockKey k : keys) {
      awaitCached(k);
    }
    // A block's read report rides on the next block's lookup when both went to one slave (the
    // slave that filled it); the report of a run's last block goes on its own.
    int runs = 1;
    for (int i = 1; i < keys.size(); i++) {
      if (holder(cluster, keys.get(i)) != holder(cluster, keys.get(i - 1))) {
        runs++;
      }
    }
    assertEquals(runs, slaveCalls(cluster, "ReportRead") - reportCalls, "reportRead calls");
    assertEquals(content.length, minus(cluster.totals(), before).getBytesFromHdfs(),
        "the slaves counted every byte read from HDFS");
    SlaveCountersProto first = minus(cluster.totals(), before);
    assertEquals(4, first.getMisses(), "one miss counted per block");
    assertEquals(0, first.getHits());
    assertEquals(4, first.getFillsBySlave(), "every block filled by the slave");
    assertArrayEquals(content, ClusterFiles.readAll(cluster, p));
    assertEquals(content.length, minus(cluster.totals(), before).getBytesFromCache()
        - first.getBytesFromCache(), "the second read came from the cache");
  }

  @Test
  void read_blockCachedAfterAMissedOne_theReaderMovesToTheCacheMidBlock() throws Exception {
    Path p = new Path("/miss-fill/switch");
    byte[] content = data(48, 2 * BLOCK);
    write(p, content);
    readBlock(p, 1, content);
    awaitCached(ClusterFiles.blocks(cluster, p).get(1));
    SlaveCountersProto before = cluster.totals();
    long hits = ClientCounters.get().hits();
    byte[] b = new byte[content.length];
    try (FileSystem fs = cluster.fileSystem(); FSDataInputStream in = fs.open(p)) {
      // Block 0 misses, so block 1's lookup goes out off the reader's thread, which reads HDFS
      // meanwhile, and moves to the cache once the answer (a hit) is in.
      IOUtils.readFully(in, b, 0, BLOCK + 4096);
      int at = BLOCK + 4096;
      for (long end = Time.monotonicNow() + 10_000; ClientCounters.get().hits() == hits
          && Time.monotonicNow() < end; at += 4096) {
        Thread.sleep(20);
        IOUtils.readFully(in, b, at, 4096);
      }
      IOUtils.readFully(in, b, at, b.length - at);
      assertEquals(hits + 1, ClientCounters.get().hits(), "block 1 found cached");
      assertArrayEquals(content, b);
      long rest = b.length - at;
      in.close();
      SlaveCountersProto after = minus(cluster.totals(), before);
      assertEquals(1, after.getHits());
      assertEquals(1, after.getMisses());
      // Block 1's lookup goes out off the reader's thread: its answer mostly comes after the
      // reader's first read of block 1, which goes to HDFS (the reader moves mid-block), and on
      // a loaded machine may come before it (the whole block from the cache). Either is right;
      // reading block 1 whole from HDFS is not.
      assertTrue(after.getBytesFromHdfs() >= BLOCK, after.getBytesFromHdfs()
          + " bytes from HDFS: block 0 was read there");
      assertTrue(after.getBytesFromHdfs() > BLOCK || after.getBytesFromCache() >= BLOCK,
          after.getBytesFromHdfs() + " bytes from HDFS and " + after.getBytesFromCache()
              + " from the cache: block 1 was read from neither");
      assertTrue(after.getBytesFromCache() >= rest, after.getBytesFromCache()
          + " bytes from the cache, " + rest + " read after the hit was known");
    }
  }
}
