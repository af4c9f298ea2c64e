package org.mpcache.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.test.MetricsAsserts;
import org.apache.hadoop.util.Time;
import org.mpcache.common.BlockKey;
import org.mpcache.hdfs.ClientConfigKeys;
import org.mpcache.minicluster.MiniMpCacheCluster;
import org.mpcache.slave.MpCacheSlave;

/**
 * File helpers for tests on a {@link MiniMpCacheCluster}: make reproducible content, write it
 * straight to HDFS, read it back through the intercepting FileSystem, and find the slave caching
 * a block.
 */
public final class ClusterFiles {
  private ClusterFiles() {
  }

  /** Blocks of the clusters {@link #smallBlockCluster} starts: 1 MiB. */
  public static final int SMALL_BLOCK = 1 << 20;

  /**
   * An embedded cluster in {@code target/e2e/<name>} with {@link #SMALL_BLOCK} blocks and faulty
   * slaves tried again at once.
   */
  public static MiniMpCacheCluster smallBlockCluster(String name) throws IOException {
    return new MiniMpCacheCluster.Builder(new File("target/e2e/" + name))
        .blockSize(SMALL_BLOCK)
        .set(ClientConfigKeys.SLAVE_RETRY_MS_KEY, "0").build();
  }

  /** {@code length} pseudo-random bytes, the same for the same {@code seed}. */
  public static byte[] data(long seed, int length) {
    byte[] b = new byte[length];
    new Random(seed).nextBytes(b);
    return b;
  }

  /** Writes {@code content} to {@code p} through plain HDFS, replacing any file there. */
  public static void write(MiniMpCacheCluster cluster, Path p, byte[] content)
      throws IOException {
    FileSystem fs = cluster.plainFileSystem();
    try (FSDataOutputStream out = fs.create(p, true)) {
      out.write(content);
    }
    awaitReplicas(fs, p);
  }

  /**
   * Waits up to 10 s until the NameNode lists every replica of each block of the just-written
   * {@code p}: a reader chooses the slave beside one of a block's replicas, and a reader that
   * saw only the first DataNode's report would fill the block on a slave later readers, seeing
   * both, may not ask. Returns early, without failing, when a DataNode is down.
   */
  private static void awaitReplicas(FileSystem fs, Path p) throws IOException {
    long deadline = Time.monotonicNow() + 10_000;
    FileStatus st = fs.getFileStatus(p);
    int want = Math.min(st.getReplication(), ((DistributedFileSystem) fs).getDataNodeStats(
        HdfsConstants.DatanodeReportType.LIVE).length);
    while (Time.monotonicNow() < deadline && fewestReplicas(fs, st) < want) {
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted waiting for replicas of " + p);
      }
    }
  }

  private static int fewestReplicas(FileSystem fs, FileStatus st) throws IOException {
    int fewest = Integer.MAX_VALUE;
    for (BlockLocation b : fs.getFileBlockLocations(st, 0, st.getLen())) {
      fewest = Math.min(fewest, b.getHosts().length);
    }
    return fewest;
  }

  /**
   * The whole of {@code p} read through the intercepting FileSystem; asserts the stream ends at
   * the file's length.
   */
  public static byte[] readAll(MiniMpCacheCluster cluster, Path p) throws IOException {
    try (FileSystem fs = cluster.fileSystem(); FSDataInputStream in = fs.open(p)) {
      byte[] b = new byte[(int) fs.getFileStatus(p).getLen()];
      IOUtils.readFully(in, b, 0, b.length);
      assertEquals(-1, in.read(), "stream must end at the file's length");
      return b;
    }
  }

  /**
   * The whole of {@code p} read through the intercepting FileSystem until every block of it is
   * cached: fills are best effort, and one that a loaded machine lets run past the cache deadline
   * is abandoned, so a block not cached 10 s after a read is read again, at most three reads.
   */
  public static byte[] readUntilCached(MiniMpCacheCluster cluster, Path p) throws IOException {
    List<BlockKey> keys = blocks(cluster, p);
    for (int read = 1; ; read++) {
      byte[] b = readAll(cluster, p);
      long deadline = Time.monotonicNow() + 10_000;
      List<BlockKey> missing = keys;
      while (!(missing = uncached(cluster, keys)).isEmpty() && Time.monotonicNow() < deadline) {
        try {
          Thread.sleep(50);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new java.io.InterruptedIOException("interrupted waiting for fills");
        }
      }
      if (missing.isEmpty()) {
        return b;
      }
      if (read == 3) {
        throw new AssertionError("blocks " + missing + " of " + p + " not cached after " + read
            + " reads");
      }
    }
  }

  private static List<BlockKey> uncached(MiniMpCacheCluster cluster, List<BlockKey> keys) {
    return keys.stream().filter(k -> holder(cluster, k) == null).toList();
  }

  /**
   * The first {@code length} bytes of {@code p} read through the intercepting FileSystem, without
   * asking the NameNode for the file's length.
   */
  public static byte[] readFirst(MiniMpCacheCluster cluster, Path p, int length)
      throws IOException {
    try (FileSystem fs = cluster.fileSystem(); FSDataInputStream in = fs.open(p)) {
      byte[] b = new byte[length];
      IOUtils.readFully(in, b, 0, length);
      return b;
    }
  }

  /** The blocks of file {@code p}, as HDFS lists them now. */
  public static List<BlockKey> blocks(MiniMpCacheCluster cluster, Path p) throws IOException {
    return DFSTestUtil.getAllBlocks(cluster.plainFileSystem(), p).stream()
        .map(LocatedBlock::getBlock).map((ExtendedBlock b) -> new BlockKey(b.getBlockPoolId(),
            b.getBlockId(), b.getGenerationStamp())).toList();
  }

  /** How many {@code method} calls (such as "Lookup") the slaves' RPC servers have answered. */
  public static long slaveCalls(MiniMpCacheCluster cluster, String method) {
    long calls = 0;
    for (MpCacheSlave s : cluster.slaves()) {
      MetricsRecordBuilder rpc = MetricsAsserts.getMetrics(
          "RpcDetailedActivityForPort" + s.info().getClientPort());
      try {
        calls += MetricsAsserts.getLongCounter(method + "NumOps", rpc);
      } catch (AssertionError e) {
        // Hadoop adds a method's figures at its first call.
      }
    }
    return calls;
  }

  /** A slave of {@code cluster} that has {@code key} cached, or null. */
  public static MpCacheSlave holder(MiniMpCacheCluster cluster, BlockKey key) {
    for (MpCacheSlave s : cluster.slaves()) {
      if (s.getStore().cachedLength(key) >= 0) {
        return s;
      }
    }
    return null;
  }

  /**
   * Changes one byte in the middle of a block file on the SSD, keeping its size: only the block's
   * checksums can tell.
   */
  public static void changeMiddleByte(File file) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(file, "rw")) {
      long at = raf.length() / 2;
      raf.seek(at);
      int b = raf.read();
      raf.seek(at);
      raf.write(b ^ 0x21);
    }
  }

  /**
   * Stops the slave caching {@code key}, changes its block file's middle byte while it is down,
   * and starts it again on the same directory; returns the restarted slave.
   */
  public static MpCacheSlave changeWhileDownAndRestart(MiniMpCacheCluster cluster, BlockKey key)
      throws IOException {
    MpCacheSlave slave = holder(cluster, key);
    int i = cluster.slaves().indexOf(slave);
    java.nio.file.Path file = slave.getStore().blockFile(key).orElseThrow();
    cluster.stopSlave(i);
    changeMiddleByte(file.toFile());
    cluster.crashAndRestartSlave(i);
    return cluster.slaves().get(i);
  }
}
