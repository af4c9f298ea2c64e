package org.mpcache.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.e2e.ClusterFiles.blocks;
import static org.mpcache.e2e.ClusterFiles.changeMiddleByte;
import static org.mpcache.e2e.ClusterFiles.data;
import static org.mpcache.e2e.ClusterFiles.holder;
import static org.mpcache.e2e.ClusterFiles.readAll;
import static org.mpcache.e2e.ClusterFiles.readUntilCached;
import static org.mpcache.e2e.ClusterFiles.write;

import java.io.File;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.mpcache.common.BlockKey;
import org.mpcache.common.Waits;
import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;
import org.mpcache.hdfs.ClientConfigKeys;
import org.mpcache.hdfs.ClientCounters;
import org.mpcache.hdfs.FallbackCause;
import org.mpcache.minicluster.MiniMpCacheCluster;
import org.mpcache.slave.MpCacheSlave;

/**
 * Hits read as remote hits are, through the slaves' block streams, on an embedded cluster of two
 * DataNodes and their slaves: the client takes no descriptors
 * ({@code mpcache.client.domain.socket.enabled=false}), as a reader on another host could not.
 * Sequential and positional reads come from the cache with the right bytes; a corrupted chunk is
 * detected and the block served from HDFS; a stream that cannot be had moves the block to the
 * slave's RPC. A client that takes descriptors reads its first local hits through the stream
 * too. The last test stops a slave's stream server, so it runs last.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StreamReadTest {
  private static final int BLOCK = ClusterFiles.SMALL_BLOCK;
  private static MiniMpCacheCluster cluster;

  @BeforeAll
  static void start() throws IOException {
    cluster = new MiniMpCacheCluster.Builder(new File("target/e2e/stream-read"))
        .blockSize(BLOCK).dataNodes(2)
        .set(ClientConfigKeys.SLAVE_RETRY_MS_KEY, "0")
        .set(ClientConfigKeys.DOMAIN_SOCKET_ENABLED_KEY, "false")
        // Small requests and read-ahead, so that a block takes several answers in flight.
        .set(ClientConfigKeys.READ_BYTES_KEY, "65536")
        .set(ClientConfigKeys.STREAM_READAHEAD_BYTES_KEY, "262144").build();
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  @Order(1)
  void read_hitsComeThroughTheSlavesStreams() throws Exception {
    Path p = new Path("/stream/a");
    byte[] content = data(21, 3 * BLOCK + 12345);
    write(cluster, p, content);
    readUntilCached(cluster, p);
    List<BlockKey> keys = blocks(cluster, p);
    for (BlockKey k : keys) {
      assertTrue(holder(cluster, k).info().getStreamPort() > 0, "the slave streams");
    }
    SlaveCountersProto before = cluster.totals();
    long streams = ClientCounters.get().hitsByStream();
    long byDescriptor = ClientCounters.get().hitsByDescriptor();
    long fallbacks = ClientCounters.get().totalFallbacks();

    long byRpc = ClientCounters.get().hitsByRpc();
    long misses = ClientCounters.get().misses();
    assertArrayEquals(content, readAll(cluster, p));
    ClientCounters c = ClientCounters.get();
    assertEquals(streams + keys.size(), c.hitsByStream(),
        "every block through its slave's stream; meanwhile by RPC " + (c.hitsByRpc() - byRpc)
        + ", missed " + (c.misses() - misses) + ", by descriptor "
        + (c.hitsByDescriptor() - byDescriptor) + ", fell back "
        + (c.totalFallbacks() - fallbacks));
    try (FileSystem fs = cluster.fileSystem(); FSDataInputStream in = fs.open(p)) {
      byte[] buf = new byte[70_000];
      for (long at : new long[] {2L * BLOCK + 5, BLOCK - 35_000, 12_345, 3L * BLOCK}) {
        in.readFully(at, buf, 0, (int) Math.min(buf.length, content.length - at));
        assertArrayEquals(Arrays.copyOfRange(content, (int) at,
            (int) Math.min(content.length, at + buf.length)),
            Arrays.copyOf(buf, (int) Math.min(buf.length, content.length - at)),
            "positional read at " + at);
      }
      // Sequential reads that skip around inside a block: answers asked ahead go by unused.
      in.seek(BLOCK + 100);
      byte[] one = new byte[1000];
      in.readFully(one);
      in.seek(BLOCK + 600_000);
      in.readFully(one);
      assertArrayEquals(Arrays.copyOfRange(content, BLOCK + 600_000, BLOCK + 601_000), one);
      in.seek(BLOCK + 200);
      in.readFully(one);
      assertArrayEquals(Arrays.copyOfRange(content, BLOCK + 200, BLOCK + 1200), one);
    }
    SlaveCountersProto after = cluster.totals();
    assertEquals(0, after.getBytesFromHdfs() - before.getBytesFromHdfs(),
        "every byte came from the cache");
    assertEquals(byDescriptor, ClientCounters.get().hitsByDescriptor(), "none by descriptor");
    assertEquals(fallbacks, ClientCounters.get().totalFallbacks(), "no block fell back");
  }

  /**
   * With descriptors on and the client's default way of reaching them, a FileSystem reads its
   * first local hits through the block stream and takes descriptors only once it has read
   * {@code mpcache.client.domain.socket.after.bytes} from the cache.
   */
  @Test
  @Order(2)
  void read_localHitsGoThroughTheStreamUntilTheFileSystemHasReadEnough() throws Exception {
    Path p = new Path("/stream/gate");
    byte[] content = data(22, 4 * BLOCK);
    write(cluster, p, content);
    readUntilCached(cluster, p);
    Configuration conf = new Configuration(cluster.conf());
    conf.setBoolean(ClientConfigKeys.DOMAIN_SOCKET_ENABLED_KEY, true);
    conf.setLong(ClientConfigKeys.DOMAIN_SOCKET_AFTER_BYTES_KEY, 2L * BLOCK);
    long streams = ClientCounters.get().hitsByStream();
    long byDescriptor = ClientCounters.get().hitsByDescriptor();
    byte[] got = new byte[content.length];
    try (FileSystem fs = FileSystem.newInstance(cluster.dfs().getURI(), conf);
        FSDataInputStream in = fs.open(p)) {
      in.readFully(0, got, 0, 2 * BLOCK);
      assertEquals(streams + 2, ClientCounters.get().hitsByStream(),
          "the first two blocks through the stream");
      assertEquals(byDescriptor, ClientCounters.get().hitsByDescriptor());
      in.readFully(2L * BLOCK, got, 2 * BLOCK, 2 * BLOCK);
    }
    assertArrayEquals(content, got);
    assertEquals(byDescriptor + 2, ClientCounters.get().hitsByDescriptor(),
        "two blocks' bytes read from the cache: the next two through descriptors");
    assertEquals(streams + 2, ClientCounters.get().hitsByStream());
  }

  /**
   * Positional reads over more blocks than a stream keeps readers for: a block whose reader was
   * let go opens one again from its lookup's answer; one evicted after its reader was let go is
   * read from HDFS, every byte right.
   */
  @Test
  @Order(3)
  void read_positionalOverManyBlocksThanHeld_reopenedFromTheirAnswersWithTheRightBytes()
      throws Exception {
    Path p = new Path("/stream/many");
    byte[] content = data(23, 6 * BLOCK);
    write(cluster, p, content);
    readUntilCached(cluster, p);
    List<BlockKey> keys = blocks(cluster, p);
    Configuration conf = new Configuration(cluster.conf());
    conf.setInt(ClientConfigKeys.POSITIONAL_MAX_HELD_BLOCKS_KEY, 1);
    long fromHdfs = ClientCounters.get().bytesFromHdfs();
    byte[] buf = new byte[4096];
    long lookups = 0;
    try (FileSystem fs = FileSystem.newInstance(cluster.dfs().getURI(), conf);
        FSDataInputStream in = fs.open(p)) {
      for (int round = 0; round < 2; round++) {
        if (round == 1) {
          holder(cluster, keys.get(0)).evict(List.of(keys.get(0)));
          lookups = ClientCounters.get().lookups();
        }
        for (int b = 0; b < keys.size(); b++) {
          long at = (long) b * BLOCK + 1000 * (b + 1);
          in.readFully(at, buf);
          assertArrayEquals(Arrays.copyOfRange(content, (int) at, (int) at + buf.length), buf,
              "round " + round + ", block " + b);
        }
      }
      assertEquals(lookups, ClientCounters.get().lookups(),
          "the second round reopens each block's reader from its kept answer, without a lookup");
      Waits.waitFor(() -> cluster.slaves().stream()
          .mapToInt(s -> s.getStreamServer().connections()).sum() == 1,
          "one connection open: the block whose reader the stream keeps");
    }
    assertEquals(fromHdfs + buf.length, ClientCounters.get().bytesFromHdfs(),
        "only the evicted block's read came from HDFS");
    for (MpCacheSlave s : cluster.slaves()) {
      Waits.waitFor(() -> s.getStreamServer().connections() == 0,
          "the closed stream's connections to end");
    }
  }

  @Test
  @Order(4)
  void read_corruptedChunkIsDetectedAndServedFromHdfs() throws Exception {
    Path p = new Path("/stream/corrupt");
    byte[] content = data(22, 2 * BLOCK);
    write(cluster, p, content);
    readUntilCached(cluster, p);
    BlockKey key = blocks(cluster, p).get(1);
    MpCacheSlave slave = holder(cluster, key);
    changeMiddleByte(slave.getStore().blockFile(key).orElseThrow().toFile());
    long mismatches = ClientCounters.get().fallbacks().getOrDefault(FallbackCause.CHECKSUM_MISMATCH, 0L);
    long streams = ClientCounters.get().hitsByStream();

    assertArrayEquals(content, readAll(cluster, p), "corruption must never reach the reader");
    assertEquals(streams + 2, ClientCounters.get().hitsByStream(), "both blocks streamed");
    assertEquals(mismatches + 1, (long) ClientCounters.get().fallbacks()
        .get(FallbackCause.CHECKSUM_MISMATCH), "the changed chunk was detected");
    Waits.waitFor(() -> slave.getStore().cachedLength(key) < 0, "the corrupt block dropped");
  }

  @Test
  @Order(5)
  void read_streamThatCannotBeHadFallsBackToTheSlavesRpc() throws Exception {
    Path p = new Path("/stream/rpc");
    byte[] content = data(23, 2 * BLOCK);
    write(cluster, p, content);
    readUntilCached(cluster, p);
    BlockKey key = blocks(cluster, p).get(0);
    MpCacheSlave slave = holder(cluster, key);
    // The slave still names its port: readers find it closed.
    slave.getStreamServer().stop();
    SlaveCountersProto before = slave.getCounters().snapshot();
    long streamHitsOfOthers = ClientCounters.get().hitsByStream();
    long fallbacks = ClientCounters.get().totalFallbacks();

    assertArrayEquals(content, readAll(cluster, p), "the right bytes, from the slave's RPC");
    SlaveCountersProto after = slave.getCounters().snapshot();
    assertEquals(0, after.getBytesFromHdfs() - before.getBytesFromHdfs(), "not from HDFS");
    assertTrue(after.getBytesFromCache() - before.getBytesFromCache() >= BLOCK,
        "the block came from the slave");
    assertTrue(ClientCounters.get().hitsByStream() - streamHitsOfOthers < 2,
        "the stopped slave's block was not streamed");
    assertEquals(fallbacks, ClientCounters.get().totalFallbacks(), "nothing went to HDFS");
  }
}
