package org.mpcache.trust;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.e2e.ClusterFiles.data;
import static org.mpcache.e2e.ClusterFiles.write;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.util.Time;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.mpcache.common.BlockKey;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.common.Waits;
import org.mpcache.e2e.ClusterFiles;
import org.mpcache.hdfs.ClientConfigKeys;
import org.mpcache.minicluster.MiniMpCacheCluster;
import org.mpcache.slave.MpCacheSlave;

/**
 * A slave that is slow to answer (its RPC handler threads frozen, as a stalled disk or a SIGSTOP
 * would hold them) costs a reader nothing it did not ask for: a positional read waiting for the
 * slave does not hold up the sequential reader of the same stream.
 */
class SlowSlaveReadTest {
  private static final int BLOCK = 1 << 20;
  private static final int DEADLINE_MS = 10_000;
  /** What a read may take beyond plain HDFS here (a loaded machine); waiting costs 10 s. */
  private static final long MARGIN_MS = 4_000;
  private static MiniMpCacheCluster cluster;
  /** Threads a test suspended: resumed by the test, and again after each test. */
  private final List<Thread> frozen = new ArrayList<>();

  @BeforeAll
  static void start() throws IOException {
    cluster = new MiniMpCacheCluster.Builder(new File("target/e2e/slow-slave"))
        .blockSize(BLOCK)
        .set(ClientConfigKeys.CACHE_DEADLINE_MS_KEY, String.valueOf(DEADLINE_MS))
        .set(MpCacheConfigKeys.RPC_TIMEOUT_MS_KEY, "20000").build();
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @AfterEach
  @SuppressWarnings("removal")
  void resume() {
    for (Thread t : frozen) {
      t.resume();
    }
    frozen.clear();
  }

  /** Suspends the RPC handler threads of every slave's client server. */
  @SuppressWarnings("removal")
  private void freezeSlaveHandlers() {
    List<String> ports = new ArrayList<>();
    for (MpCacheSlave s : cluster.slaves()) {
      ports.add(" " + s.info().getClientPort());
    }
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().startsWith("IPC Server handler")
          && ports.stream().anyMatch(t.getName()::endsWith)) {
        frozen.add(t);
      }
    }
    assertTrue(frozen.size() >= cluster.slaves().size(), "handler threads: " + frozen);
    for (Thread t : frozen) {
      t.suspend();
    }
  }

  /** The cache key of the first block of {@code p}. */
  private static BlockKey firstBlock(Path p) throws IOException {
    LocatedBlock b = ((DistributedFileSystem) cluster.plainFileSystem()).getClient()
        .getLocatedBlocks(p.toString(), 0, BLOCK).get(0);
    return new BlockKey(b.getBlock().getBlockPoolId(), b.getBlock().getBlockId(),
        b.getBlock().getGenerationStamp());
  }

  /** A client of its own, so that slaves one test found faulty are not left alone in the next. */
  private static FileSystem newClient() throws IOException {
    return FileSystem.newInstance(cluster.dfs().getURI(), cluster.conf());
  }

  private static long plainReadMs(Path p, int length) throws IOException {
    byte[] b = new byte[length];
    long best = Long.MAX_VALUE;
    for (int i = 0; i < 3; i++) {
      long t0 = Time.monotonicNow();
      try (FSDataInputStream in = cluster.plainFileSystem().open(p)) {
        IOUtils.readFully(in, b, 0, length);
      }
      best = Math.min(best, Time.monotonicNow() - t0);
    }
    return best;
  }

  @Test
  @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void sequentialRead_whileAPositionalReadWaitsForTheSlave_isNotHeldUp() throws Exception {
    Path p = new Path("/slow/pread");
    byte[] content = data(32, 2 * BLOCK);
    write(cluster, p, content);
    BlockKey key = firstBlock(p);
    try (FileSystem fs = newClient()) {
      try (FSDataInputStream in = fs.open(p)) {
        IOUtils.readFully(in, new byte[BLOCK], 0, BLOCK);
      }
      Waits.waitFor(() -> ClusterFiles.holder(cluster, key) != null, "block 0 to be cached");

      FSDataInputStream in = fs.open(p);
      byte[] seq = new byte[64 * 1024];
      in.seek(BLOCK + 1000);
      IOUtils.readFully(in, seq, 0, 1000);
      freezeSlaveHandlers();
      byte[] pread = new byte[64 * 1024];
      AtomicReference<Throwable> preadError = new AtomicReference<>();
      Thread reader = new Thread(() -> {
        try {
          in.readFully(0, pread);
        } catch (Throwable e) {
          preadError.set(e);
        }
      }, "pread");
      reader.start();
      Waits.waitFor(() -> Arrays.stream(reader.getStackTrace())
          .anyMatch(f -> f.getClassName().endsWith(".PositionalReads")), "the pread to ask the slave");
      Thread.sleep(200);
      long t0 = Time.monotonicNow();
      IOUtils.readFully(in, seq, 0, seq.length);
      long seqMs = Time.monotonicNow() - t0;
      boolean preadStillWaiting = reader.isAlive();
      resume();
      reader.join(60_000);
      in.close();
      System.out.println("A sequential read of " + seq.length + " bytes from HDFS took " + seqMs
          + " ms while a positional read waited for a frozen slave (cache deadline "
          + DEADLINE_MS + " ms)");
      assertEquals(null, preadError.get());
      assertArrayEquals(Arrays.copyOfRange(content, 0, pread.length), pread);
      assertArrayEquals(Arrays.copyOfRange(content, BLOCK + 2000, BLOCK + 2000 + seq.length),
          seq);
      assertTrue(seqMs < MARGIN_MS, "the sequential read waited for the pread: " + seqMs
          + " ms");
      assertTrue(preadStillWaiting, "the pread was still waiting for the slave");
    }
    assertNotNull(ClusterFiles.holder(cluster, key), "the block stays cached");
  }
}
