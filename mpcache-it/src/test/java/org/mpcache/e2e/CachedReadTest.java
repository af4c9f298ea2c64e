package org.mpcache.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.e2e.ClusterFiles.data;
import static org.mpcache.e2e.ClusterFiles.holder;
import static org.mpcache.e2e.ClusterFiles.readAll;
import static org.mpcache.e2e.ClusterFiles.readUntilCached;
import static org.mpcache.e2e.ClusterFiles.write;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mpcache.minicluster.MiniMpCacheCluster;
import org.mpcache.common.BlockKey;
import org.mpcache.common.Waits;
import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;
import org.mpcache.hdfs.ClientConfigKeys;
import org.mpcache.hdfs.ClientCounters;
import org.mpcache.hdfs.FallbackCause;
import org.mpcache.slave.MpCacheSlave;

/**
 * Reads through the intercepting FileSystem on a MiniDFSCluster with a master and two slaves:
 * the first read fills the cache, the second is served from it (local hits through the block
 * files' descriptors), and every cache-side fault (corrupt block file, dead slave) still returns
 * the right bytes from HDFS.
 */
class CachedReadTest {
  private static final int BLOCK = ClusterFiles.SMALL_BLOCK;
  private static MiniMpCacheCluster cluster;

  @BeforeAll
  static void start() throws IOException {
    cluster = ClusterFiles.smallBlockCluster("cached-read");
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static BlockKey keyOf(org.apache.hadoop.fs.Path p, int index) throws IOException {
    ExtendedBlock b = DFSTestUtil.getAllBlocks(cluster.plainFileSystem(), p).get(index)
        .getBlock();
    return new BlockKey(b.getBlockPoolId(), b.getBlockId(), b.getGenerationStamp());
  }

  @Test
  void read_secondReadComesFromCache() throws IOException {
    org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path("/read/a");
    byte[] content = data(1, 3 * BLOCK + BLOCK / 2);
    write(cluster, p, content);

    assertArrayEquals(content, readUntilCached(cluster, p));
    SlaveCountersProto before = cluster.totals();
    assertArrayEquals(content, readAll(cluster, p));
    SlaveCountersProto after = cluster.totals();
    assertEquals(content.length, after.getBytesFromCache() - before.getBytesFromCache());
    assertEquals(0, after.getBytesFromHdfs() - before.getBytesFromHdfs());
    assertEquals(4, after.getHits() - before.getHits());
  }

  /** Reads {@code p} whole through {@code fs}, sequentially and then by positional reads. */
  private static void readTwoWays(FileSystem fs, org.apache.hadoop.fs.Path p, byte[] content)
      throws IOException {
    byte[] b = new byte[content.length];
    try (FSDataInputStream in = fs.open(p)) {
      org.apache.hadoop.io.IOUtils.readFully(in, b, 0, b.length);
    }
    assertArrayEquals(content, b);
    byte[] r = new byte[content.length];
    try (FSDataInputStream in = fs.open(p)) {
      for (int at = content.length - BLOCK / 2; at >= 0; at -= BLOCK / 2) {
        in.readFully(at, r, at, Math.min(BLOCK / 2, content.length - at));
      }
    }
    assertArrayEquals(content, r);
  }

  @Test
  void read_localHitsOnceTheSlavesSocketIsKnown_makeNoLookupCalls() throws IOException {
    org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path("/read/direct");
    byte[] content = data(12, 4 * BLOCK);
    write(cluster, p, content);
    readUntilCached(cluster, p);
    ClientCounters c = ClientCounters.get();
    try (FileSystem fs = cluster.fileSystem()) {
      // The first reads learn each slave's descriptor socket from a lookup's hit.
      readTwoWays(fs, p, content);
      long lookups = c.lookups();
      long byDescriptor = c.hitsByDescriptor();
      SlaveCountersProto before = cluster.totals();
      readTwoWays(fs, p, content);
      SlaveCountersProto after = cluster.totals();
      assertEquals(0, c.lookups() - lookups, "no lookup call once the sockets are known");
      assertEquals(8, c.hitsByDescriptor() - byDescriptor,
          "every block read through its file, sequentially and positionally");
      assertEquals(8, after.getHits() - before.getHits(),
          "each grant counted as the lookup's hit, once per block and stream");
      assertEquals(0, after.getMisses() - before.getMisses());
      assertEquals(0, after.getBytesFromHdfs() - before.getBytesFromHdfs());
    }
  }

  @Test
  void read_everyStreamOperationIsServedFromTheCacheWithHdfsSemantics() throws IOException {
    org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path("/read/ops");
    byte[] content = data(8, 3 * BLOCK + 12345);
    write(cluster, p, content);
    readUntilCached(cluster, p);
    SlaveCountersProto before = cluster.totals();
    try (FileSystem fs = cluster.fileSystem(); FSDataInputStream in = fs.open(p)) {
      byte[] buf = new byte[5000];
      in.readFully(BLOCK - 2000, buf);
      assertArrayEquals(java.util.Arrays.copyOfRange(content, BLOCK - 2000, BLOCK + 3000), buf,
          "positional read across a block boundary");
      assertEquals(0, in.getPos(), "positional reads leave the position alone");

      java.nio.ByteBuffer heap = java.nio.ByteBuffer.allocate(3000);
      in.seek(2 * BLOCK - 1000);
      while (heap.hasRemaining() && in.read(heap) > 0) {
        continue;
      }
      assertArrayEquals(java.util.Arrays.copyOfRange(content, 2 * BLOCK - 1000, 2 * BLOCK + 2000),
          heap.array());
      java.nio.ByteBuffer direct = java.nio.ByteBuffer.allocateDirect(100);
      in.readFully(3 * BLOCK, direct);
      direct.flip();
      byte[] d = new byte[100];
      direct.get(d);
      assertArrayEquals(java.util.Arrays.copyOfRange(content, 3 * BLOCK, 3 * BLOCK + 100), d);

      in.seek(10);
      assertEquals(BLOCK, in.skip(BLOCK));
      assertEquals(BLOCK + 10, in.getPos());
      assertEquals(content.length - BLOCK - 10, in.available());
      assertEquals(content[BLOCK + 10] & 0xff, in.read());
      in.unbuffer();
      assertEquals(content[BLOCK + 11] & 0xff, in.read(), "reading goes on after unbuffer");
      in.seek(content.length);
      assertEquals(-1, in.read());
      assertEquals(0, in.available());
      assertThrows(java.io.EOFException.class, () -> in.seek(content.length + 1));
      assertThrows(java.io.EOFException.class, () -> in.seek(-1));
    }
    SlaveCountersProto after = cluster.totals();
    assertEquals(0, after.getBytesFromHdfs() - before.getBytesFromHdfs(),
        "every byte came from the cache");
    assertTrue(after.getBytesFromCache() > before.getBytesFromCache());
  }

  @Test
  void read_cachedFilesAreReachableByTheSlaveUserOnly() throws IOException {
    org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path("/read/private");
    write(cluster, p, data(2, BLOCK));
    readUntilCached(cluster, p);
    BlockKey key = keyOf(p, 0);
    Path file = holder(cluster, key).getStore().blockFile(key).orElseThrow();
    // Readable by mode for readers reopening a passed descriptor; by path through the slave's
    // private directories only.
    assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    assertEquals("rwx------", PosixFilePermissions.toString(
        Files.getPosixFilePermissions(file.getParent())));
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(
        file.resolveSibling(file.getFileName() + ".crc"))));
  }

  @Test
  void read_corruptBlockFileFallsBackAndIsDropped() throws IOException {
    org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path("/read/corrupt");
    byte[] content = data(3, 2 * BLOCK);
    write(cluster, p, content);
    readUntilCached(cluster, p);
    BlockKey key = keyOf(p, 1);
    MpCacheSlave slave = holder(cluster, key);
    Path file = slave.getStore().blockFile(key).orElseThrow();
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.seek(BLOCK / 3);
      int b = raf.read();
      raf.seek(BLOCK / 3);
      raf.write(b ^ 0x5a);
    }
    long corruptBefore = slave.getCounters().snapshot().getBlocksCorrupt();
    long fallbacksBefore = ClientCounters.get().fallbacks()
        .getOrDefault(FallbackCause.CHECKSUM_MISMATCH, 0L);
    long byDescriptor = ClientCounters.get().hitsByDescriptor();
    long byRpc = ClientCounters.get().hitsByRpc();

    assertArrayEquals(content, readAll(cluster, p), "corruption must never reach the reader");
    assertEquals(byDescriptor + 2, ClientCounters.get().hitsByDescriptor(),
        "both blocks were read through their files' descriptors");
    assertEquals(byRpc, ClientCounters.get().hitsByRpc(), "none through RPC");
    assertEquals(fallbacksBefore + 1, (long) ClientCounters.get().fallbacks()
        .get(FallbackCause.CHECKSUM_MISMATCH));
    assertEquals(corruptBefore + 1, slave.getCounters().snapshot().getBlocksCorrupt());
    assertEquals(-1, slave.getStore().cachedLength(key), "corrupt block dropped");
  }

  /** Writes {@code content} to {@code p} and reads it until all its blocks are cached. */
  private static void cached(org.apache.hadoop.fs.Path p, byte[] content) throws IOException {
    write(cluster, p, content);
    assertArrayEquals(content, readUntilCached(cluster, p));
  }


  @Test
  void read_localHitsGoThroughTheBlockFilesDescriptorsSequentialAndPositional()
      throws Exception {
    org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path("/read/descriptors");
    byte[] content = data(8, 2 * BLOCK + 1000);
    cached(p, content);
    long byDescriptor = ClientCounters.get().hitsByDescriptor();
    long byRpc = ClientCounters.get().hitsByRpc();
    SlaveCountersProto before = cluster.totals();

    assertArrayEquals(content, readAll(cluster, p));
    assertEquals(byDescriptor + 3, ClientCounters.get().hitsByDescriptor());
    try (FileSystem fs = cluster.fileSystem(); FSDataInputStream in = fs.open(p)) {
      byte[] got = new byte[5000];
      for (int at : new int[] {BLOCK + 17, 3, BLOCK - 2500, 2 * BLOCK - 4000}) {
        in.readFully(at, got);
        assertArrayEquals(Arrays.copyOfRange(content, at, at + got.length), got,
            "positional read at " + at);
      }
    }
    assertEquals(byDescriptor + 6, ClientCounters.get().hitsByDescriptor(),
        "one descriptor per block for the positional reads of a stream");
    assertEquals(byRpc, ClientCounters.get().hitsByRpc());
    SlaveCountersProto after = cluster.totals();
    assertEquals(6, after.getDescriptorsGranted() - before.getDescriptorsGranted());
    assertEquals(content.length + 4 * 5000L,
        after.getBytesFromCache() - before.getBytesFromCache(),
        "readers report what they read through descriptors when they close them");
    assertEquals(0, after.getBytesFromHdfs() - before.getBytesFromHdfs());
    // Closing a FileSystem lets its kept files go without waiting for the slaves' answers.
    Waits.waitFor(() -> leasesHeld() == 0, "the closed FileSystems' block files to be let go");
  }

  /**
   * The cluster's client settings with no block file kept open once no stream reads it, so that
   * what a stream lets go is closed at once.
   */
  private static Configuration keepNoIdleFile() {
    Configuration c = new Configuration(cluster.conf());
    c.setInt(ClientConfigKeys.DESCRIPTOR_CACHE_MAX_IDLE_KEY, 0);
    return c;
  }

  /** Block files the slaves lend to readers now. */
  private static int leasesHeld() {
    return cluster.slaves().stream().mapToInt(s -> s.getStore().leasesHeld()).sum();
  }

  /**
   * Opens {@code p} and reads on past the first read of its first block, so that the second
   * block's file is asked for ahead of the reader; returns the stream, open.
   *
   * @param held the block files lent before
   */
  private static FSDataInputStream readIntoFirstBlock(FileSystem fs, org.apache.hadoop.fs.Path p,
      byte[] content, int held) throws Exception {
    FSDataInputStream in = fs.open(p);
    byte[] got = new byte[8192];
    in.readFully(got, 0, 4096);
    in.readFully(got, 4096, 4096);
    assertArrayEquals(Arrays.copyOf(content, got.length), got);
    Waits.waitFor(() -> leasesHeld() == held + 2, "the second block's file to be found ahead");
    return in;
  }

  @Test
  void close_withTheNextBlocksFileFoundAhead_releasesIt() throws Exception {
    org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path("/read/ahead-closed");
    byte[] content = data(11, 3 * BLOCK);
    cached(p, content);
    long byDescriptor = ClientCounters.get().hitsByDescriptor();
    int held = leasesHeld();
    try (FileSystem fs = FileSystem.newInstance(cluster.dfs().getURI(), keepNoIdleFile())) {
      readIntoFirstBlock(fs, p, content, held).close();
      Waits.waitFor(() -> leasesHeld() == held, "the file found ahead to be released");
    }
    assertEquals(byDescriptor + 1, ClientCounters.get().hitsByDescriptor(),
        "a file found ahead and never read is no hit");
  }

  @Test
  void abandonedStream_withTheNextBlocksFileFoundAhead_releasesItsFilesOnceCollected()
      throws Exception {
    org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path("/read/ahead-abandoned");
    byte[] content = data(12, 3 * BLOCK);
    cached(p, content);
    int held = leasesHeld();
    try (FileSystem fs = FileSystem.newInstance(cluster.dfs().getURI(), keepNoIdleFile())) {
      // Dropped unclosed, as a reader that fails and forgets its stream.
      readIntoFirstBlock(fs, p, content, held);
      Waits.waitFor(() -> {
        System.gc();
        return leasesHeld() == held;
      }, "the dropped stream's files to be released");
    }
  }

  @Test
  void read_withDescriptorsTurnedOffLocalHitsGoThroughRpc() throws Exception {
    org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path("/read/rpc-hits");
    byte[] content = data(10, BLOCK + 100);
    cached(p, content);
    Configuration rpcOnly = new Configuration(cluster.conf());
    rpcOnly.setBoolean(ClientConfigKeys.DOMAIN_SOCKET_ENABLED_KEY, false);
    long byDescriptor = ClientCounters.get().hitsByDescriptor();
    long byRpc = ClientCounters.get().hitsByRpc();
    long granted = cluster.totals().getDescriptorsGranted();
    try (FileSystem fs = FileSystem.get(cluster.plainFileSystem().getUri(), rpcOnly);
        FSDataInputStream in = fs.open(p)) {
      byte[] got = new byte[content.length];
      in.readFully(0, got);
      assertArrayEquals(content, got);
    }
    assertEquals(byRpc + 2, ClientCounters.get().hitsByRpc());
    assertEquals(byDescriptor, ClientCounters.get().hitsByDescriptor());
    assertEquals(granted, cluster.totals().getDescriptorsGranted());
  }

  @Test
  void read_blockEvictedMidReadThroughItsDescriptorReturnsCorrectBytesToItsEnd()
      throws Exception {
    org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path("/read/evicted-mid-read");
    byte[] content = data(9, 2 * BLOCK);
    cached(p, content);
    BlockKey key = keyOf(p, 0);
    MpCacheSlave slave = holder(cluster, key);
    Path file = slave.getStore().blockFile(key).orElseThrow();
    Configuration small = new Configuration(cluster.conf());
    // Small reads, so that most of the block is read after the eviction.
    small.setInt(ClientConfigKeys.READ_BYTES_KEY, 64 * 1024);
    long byDescriptor = ClientCounters.get().hitsByDescriptor();
    byte[] got = new byte[content.length];
    try (FileSystem fs = FileSystem.get(cluster.plainFileSystem().getUri(), small);
        FSDataInputStream in = fs.open(p)) {
      in.readFully(got, 0, BLOCK / 8);
      assertEquals(byDescriptor + 1, ClientCounters.get().hitsByDescriptor());
      long used = slave.getStore().space().usedBytes();

      slave.evict(List.of(key));
      assertEquals(-1, slave.getStore().cachedLength(key));
      assertFalse(Files.exists(file), "the evicted block's file is unlinked at once");
      assertEquals(used, slave.getStore().space().usedBytes(),
          "its space stays reserved while a reader holds the file");
      assertEquals(1, slave.getStore().leasesHeld());

      in.readFully(got, BLOCK / 8, content.length - BLOCK / 8);
      assertArrayEquals(content, got, "the held descriptor reads the block to its end");
      assertEquals(-1, in.read());
      in.close();
      assertEquals(used - BLOCK, slave.getStore().space().usedBytes(),
          "the space is freed when the reader closes");
    }
    // The FileSystem's kept descriptor of the second block is let go without waiting for the
    // slave's answer.
    Waits.waitFor(() -> slave.getStore().leasesHeld() == 0,
        "the closed FileSystem's block files to be let go");
    assertEquals(Optional.empty(), slave.getStore().state(key));
  }

  @Test
  void read_truncatedBlockFileFallsBackAndIsDropped() throws IOException {
    org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path("/read/truncated");
    byte[] content = data(4, BLOCK);
    write(cluster, p, content);
    readUntilCached(cluster, p);
    BlockKey key = keyOf(p, 0);
    MpCacheSlave slave = holder(cluster, key);
    try (RandomAccessFile raf = new RandomAccessFile(
        slave.getStore().blockFile(key).orElseThrow().toFile(), "rw")) {
      raf.setLength(BLOCK / 2);
    }
    assertArrayEquals(content, readAll(cluster, p));
    assertEquals(-1, slave.getStore().cachedLength(key));
  }

  @Test
  void read_appendedFileNeverServesTheOldBlock() throws IOException {
    org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path("/read/append");
    byte[] first = data(5, BLOCK / 2);
    write(cluster, p, first);
    assertArrayEquals(first, readAll(cluster, p));
    BlockKey oldKey = keyOf(p, 0);
    byte[] more = data(6, BLOCK / 4);
    try (FSDataOutputStream out = cluster.plainFileSystem().append(p)) {
      out.write(more);
    }
    byte[] both = new byte[first.length + more.length];
    System.arraycopy(first, 0, both, 0, first.length);
    System.arraycopy(more, 0, both, first.length, more.length);
    BlockKey newKey = keyOf(p, 0);
    assertFalse(oldKey.equals(newKey), "append must change the block's generation stamp");
    assertArrayEquals(both, readAll(cluster, p));
    assertArrayEquals(both, readAll(cluster, p));
  }

  @Test
  void read_deadSlaveFallsBackToHdfs() throws IOException {
    org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path("/read/dead-slave");
    byte[] content = data(7, 4 * BLOCK);
    write(cluster, p, content);
    readUntilCached(cluster, p);
    List<MpCacheSlave> slaves = cluster.slaves();
    int victim = slaves.indexOf(holder(cluster, keyOf(p, 0)));
    assertTrue(victim >= 0, "block 0 is cached somewhere");
    long before = ClientCounters.get().fallbacks().getOrDefault(FallbackCause.SLAVE_UNREACHABLE, 0L);
    cluster.stopSlave(victim);
    try {
      assertArrayEquals(content, readAll(cluster, p));
      assertTrue(ClientCounters.get().fallbacks().getOrDefault(FallbackCause.SLAVE_UNREACHABLE, 0L) > before,
          "the dead slave's blocks are counted as fallbacks: " + ClientCounters.get().fallbacks());
    } finally {
      cluster.restartSlave(victim);
    }
  }
}
