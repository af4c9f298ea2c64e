package org.mpcache.slave.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.common.Waits.waitFor;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.common.BlockKey;
import org.mpcache.slave.space.DynamicSpaceTuner;
import org.mpcache.slave.space.SsdVolume;
import org.mpcache.slave.space.TunedInputCacheSpace;
import org.mpcache.slave.store.BlockFill;
import org.mpcache.slave.store.FileBlockStore;
import org.mpcache.slave.store.TestStores;

class StartupVerifierTest {
  private static final int BLOCK = 100_000;
  @TempDir
  Path dir;
  private final List<BlockKey> dropped = new CopyOnWriteArrayList<>();

  private FileBlockStore open() throws IOException {
    return TestStores.open(List.of(dir), new TunedInputCacheSpace(new DynamicSpaceTuner(
        List.of(SsdVolume.split(dir.toString(), 1 << 24, 1 << 24, 1.0, 0.0)), 0.5), new Object()),
        4096);
  }

  private static BlockKey key(long id) {
    return new BlockKey("BP-1", id, 1);
  }

  /** Caches blocks 1..n in a store, as a previous run of the slave left them. */
  private void previousRun(int n) throws IOException {
    FileBlockStore s = open();
    Random r = new Random(3);
    for (int i = 1; i <= n; i++) {
      byte[] data = new byte[BLOCK];
      r.nextBytes(data);
      BlockFill f = s.beginFill(key(i), BLOCK, "/in", n, "").orElseThrow();
      f.append(0, ByteBuffer.wrap(data));
      f.commit();
    }
  }

  private StartupVerifier verifier(FileBlockStore s, long rate) {
    StartupVerifier v = new StartupVerifier(s, s.cachedBlocks(), rate, (k, why) -> {
      dropped.add(k);
      s.remove(k);
    });
    v.init(new Configuration(false));
    return v;
  }

  @Test
  void start_aBlockChangedOnTheSsdWhileDown_isDroppedAndTheOthersKept() throws Exception {
    previousRun(3);
    try (RandomAccessFile raf = new RandomAccessFile(
        open().blockFile(key(2)).orElseThrow().toFile(), "rw")) {
      raf.seek(54_321);
      int b = raf.read();
      raf.seek(54_321);
      raf.write(b ^ 0x10); // same size: only the CRCs can tell
    }
    FileBlockStore s = open();
    assertEquals(3, s.cachedBlocks().size(), "the start checks sizes and headers only");
    StartupVerifier v = verifier(s, 1L << 30);
    v.start();
    waitFor(v::isDone, "the verification pass");
    v.stop();
    assertEquals(List.of(key(2)), dropped);
    assertEquals(1, v.failed());
    assertEquals(2, v.verified());
    assertEquals(2, s.cachedBlocks().size());
  }

  @Test
  void start_boundedRate_spreadsThePassOverTime() throws Exception {
    previousRun(4);
    FileBlockStore s = open();
    StartupVerifier v = verifier(s, 4L * BLOCK);
    long t0 = System.nanoTime();
    v.start();
    waitFor(v::isDone, "the verification pass");
    long ms = (System.nanoTime() - t0) / 1_000_000;
    v.stop();
    assertEquals(4, v.verified());
    assertTrue(ms >= 800, "4 blocks at a rate of one block a second took " + ms + " ms");
  }

  @Test
  void start_rateZero_verifiesNothing() throws Exception {
    previousRun(1);
    StartupVerifier v = verifier(open(), 0);
    v.start();
    assertTrue(v.isDone());
    v.stop();
    assertEquals(0, v.verified());
  }

  @Test
  void dueNanos_pastAboutNineGigabytes_doesNotOverflow() {
    long tenGb = 10_000_000_000L;
    assertEquals(100_000_000_000L, StartupVerifier.dueNanos(tenGb, 100_000_000L, 0));
    assertEquals(99_000_000_000L,
        StartupVerifier.dueNanos(tenGb, 100_000_000L, 1_000_000_000L));
    long eightTb = 8L << 40;
    assertEquals(eightTb / (1 << 20) * 1_000_000_000L,
        StartupVerifier.dueNanos(eightTb, 1 << 20, 0), "8 TiB at 1 MiB/s");
    assertEquals(1_500_000_000L, StartupVerifier.dueNanos(3, 2, 0), "a fraction of a second");
  }
}
