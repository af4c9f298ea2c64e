package org.mpcache.trust;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.e2e.ClusterFiles.SMALL_BLOCK;
import static org.mpcache.e2e.ClusterFiles.data;
import static org.mpcache.e2e.ClusterFiles.write;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.test.MetricsAsserts;
import org.apache.hadoop.util.Time;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mpcache.common.BlockKey;
import org.mpcache.common.Waits;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.proto.SlaveMasterProtos.PrefetchCommandProto;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.e2e.ClusterFiles;
import org.mpcache.minicluster.MiniMpCacheCluster;
import org.mpcache.slave.MpCacheSlave;
import org.mpcache.slave.cache.FillAdmission;
import org.mpcache.slave.cache.FillRequest;
import org.mpcache.slave.cache.InputCache;
import org.mpcache.slave.fill.FillFileSystems;
import org.mpcache.slave.fill.FillHoldOff;
import org.mpcache.slave.fill.FillYield;
import org.mpcache.slave.fill.BlockFiller;
import org.mpcache.slave.space.ForegroundActivity;
import org.mpcache.slave.store.FileBlockStore;

/**
 * A path renamed over between the moment prefetch checks a block and the moment it reads it never
 * gets the new file's bytes cached under the old file's block: the prefetch either caches the
 * planned block's own bytes or nothing. The rename happens in {@link BlockFiller#checked}, on
 * a prefetcher sharing a real slave's store and master link. The file a fill thread keeps open
 * for the fills queued behind one obeys the same rule, and spares the NameNode a call per block.
 */
class PrefetchReplacedPathTest {
  private static MiniMpCacheCluster cluster;

  @BeforeAll
  static void start() throws IOException {
    cluster = ClusterFiles.smallBlockCluster("prefetch-replaced-path");
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** Runs {@code onFirstCheck} once, right after the first block was checked. */
  private static final class HookedPrefetcher extends BlockFiller {
    /** Never weighed: this prefetcher's fills do not yield. */
    private static final ForegroundActivity FOREGROUND =
        new ForegroundActivity(1_000, Time::monotonicNow);
    private final IoAction onFirstCheck;
    private final AtomicBoolean ran = new AtomicBoolean();

    HookedPrefetcher(MpCacheSlave slave, IoAction onFirstCheck) {
      this(new InputCache(slave.getStore(), slave.getCounters(), slave.getMasterLink()), slave,
          onFirstCheck);
    }

    private HookedPrefetcher(InputCache cache, MpCacheSlave slave, IoAction onFirstCheck) {
      super(cache, new FillAdmission(cache, slave.getMasterLink(),
          (key, path, offset, length) -> true), slave.getFillSources(),
          new FillFileSystems(cluster.conf(), slave.getFillSources()), 8, 4, 0,
          new FillHoldOff(0, 0), new FillYield(0, 1_000, 0), FOREGROUND);
      this.onFirstCheck = onFirstCheck;
    }

    @Override
    protected void checked(BlockKey key, Path path) throws IOException {
      if (ran.compareAndSet(false, true)) {
        onFirstCheck.run();
      }
    }
  }

  /** An action that may fail with an {@link IOException}. */
  private interface IoAction {
    void run() throws IOException;
  }

  private static void renameOver(Path from, Path to) throws IOException {
    ((DistributedFileSystem) cluster.plainFileSystem()).rename(from, to,
        Options.Rename.OVERWRITE);
  }

  private static List<BlockKey> blocks(Path p) throws IOException {
    return ClusterFiles.blocks(cluster, p);
  }

  private static PrefetchCommandProto command(BlockKey key, Path p, long offset, int blocks)
      throws IOException {
    DistributedFileSystem dfs = (DistributedFileSystem) cluster.plainFileSystem();
    return PrefetchCommandProto.newBuilder()
        .setAccess(BlockAccessProto.newBuilder().setBlock(ProtoConverters.toProto(key))
            .setBlockBytes(SMALL_BLOCK).setDatasetId(p.getParent().toString())
            .setDatasetBlocks(blocks).setJobId(""))
        .setPath(dfs.makeQualified(p).toString()).setOffset(offset).setForce(true).build();
  }

  /** Runs {@code commands} on {@code prefetcher}, submitted together, until all are done. */
  private static void prefetch(HookedPrefetcher prefetcher, List<PrefetchCommandProto> commands)
      throws Exception {
    prefetcher.init(cluster.conf());
    prefetcher.start();
    try {
      prefetcher.submit(commands.stream().map(FillRequest::of).toList());
      Waits.waitFor(() -> prefetcher.filled() + prefetcher.skipped() + prefetcher.failed()
          == commands.size(), "the prefetches to finish");
    } finally {
      prefetcher.stop();
    }
  }

  private static byte[] cached(BlockKey key) throws IOException {
    FileBlockStore store = cluster.slaves().get(0).getStore();
    assertEquals(SMALL_BLOCK, store.cachedLength(key), key + " cached");
    return store.read(key, 0, SMALL_BLOCK).data();
  }

  /** A one-block file at {@code path} and another at {@code next}, to be renamed over it. */
  private record TwoFiles(Path path, Path next, byte[] old, byte[] fresh) {
  }

  private static TwoFiles twoFiles(String dir, long seed) throws IOException {
    TwoFiles f = new TwoFiles(new Path(dir + "/data"), new Path(dir + "/next"),
        data(seed, SMALL_BLOCK), data(seed + 1, SMALL_BLOCK));
    write(cluster, f.path(), f.old());
    write(cluster, f.next(), f.fresh());
    return f;
  }

  private static long getBlockLocations() {
    return MetricsAsserts.getLongCounter("GetBlockLocations",
        MetricsAsserts.getMetrics("NameNodeActivity"));
  }

  @Test
  void prefetch_pathRenamedOverBetweenCheckAndRead_neverCachesTheNewFilesBytes()
      throws Exception {
    TwoFiles f = twoFiles("/prefetch-replaced", 21);
    Path p = f.path();
    Path next = f.next();
    byte[] old = f.old();
    BlockKey key = blocks(p).get(0);
    AtomicBoolean replaced = new AtomicBoolean();
    HookedPrefetcher prefetcher = new HookedPrefetcher(cluster.slaves().get(0), () -> {
      renameOver(next, p);
      replaced.set(true);
    });
    prefetch(prefetcher, List.of(command(key, p, 0, 1)));

    assertTrue(replaced.get(), "the path was replaced between check and read");
    if (cluster.slaves().get(0).getStore().cachedLength(key) >= 0) {
      assertArrayEquals(old, cached(key), "the block's own bytes are cached under its key, not"
          + " the bytes of the file renamed over it");
    }
  }

  @Test
  void prefetch_blocksOfOneFileQueuedTogether_openTheFileOnce() throws Exception {
    Path p = new Path("/prefetch-one-open/data");
    byte[] content = data(23, 4 * SMALL_BLOCK);
    write(cluster, p, content);
    List<BlockKey> keys = blocks(p);
    CountDownLatch submitted = new CountDownLatch(1);
    // The first fill waits until all four are queued: the file stays open for the other three.
    HookedPrefetcher prefetcher = new HookedPrefetcher(cluster.slaves().get(0), () -> {
      try {
        submitted.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    List<PrefetchCommandProto> commands = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      commands.add(command(keys.get(i), p, (long) i * SMALL_BLOCK, keys.size()));
    }
    long calls = getBlockLocations();
    prefetcher.init(cluster.conf());
    prefetcher.start();
    try {
      prefetcher.submit(commands.stream().map(FillRequest::of).toList());
      submitted.countDown();
      Waits.waitFor(() -> prefetcher.filled() == keys.size(), "the four prefetches");
    } finally {
      prefetcher.stop();
    }

    assertEquals(1, getBlockLocations() - calls, "the NameNode's block-location calls for four"
        + " blocks of one file filled one after another");
    for (int i = 0; i < keys.size(); i++) {
      assertArrayEquals(Arrays.copyOfRange(content, i * SMALL_BLOCK, (i + 1) * SMALL_BLOCK),
          cached(keys.get(i)), "block " + i);
    }
  }

  @Test
  void prefetch_pathRenamedOverWhileItsFileIsKeptOpen_theNextFillReadsTheNewFile()
      throws Exception {
    TwoFiles f = twoFiles("/prefetch-kept-open", 24);
    Path p = f.path();
    Path next = f.next();
    byte[] old = f.old();
    byte[] fresh = f.fresh();
    BlockKey oldKey = blocks(p).get(0);
    BlockKey freshKey = blocks(next).get(0);
    // The first fill keeps the old file open (another fill of its path is queued), then the
    // new file takes the path; the second fill, of the new file's block, must not read the old.
    // The old file is moved aside, not deleted, so that its own fill can finish.
    HookedPrefetcher prefetcher = new HookedPrefetcher(cluster.slaves().get(0), () -> {
      renameOver(p, new Path("/prefetch-kept-open/aside"));
      renameOver(next, p);
    });
    prefetch(prefetcher, List.of(command(oldKey, p, 0, 1), command(freshKey, p, 0, 1)));

    assertEquals(2, prefetcher.filled(), "both blocks filled");
    assertArrayEquals(old, cached(oldKey), "the old file's block");
    assertArrayEquals(fresh, cached(freshKey), "the new file's block, read from the new file");
  }
}
