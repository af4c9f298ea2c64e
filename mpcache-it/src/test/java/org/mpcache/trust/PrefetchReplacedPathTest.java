package org.mpcache.trust;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.e2e.ClusterFiles.SMALL_BLOCK;
import static org.mpcache.e2e.ClusterFiles.data;
import static org.mpcache.e2e.ClusterFiles.write;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
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
import org.mpcache.slave.cache.CacheMaster;
import org.mpcache.slave.prefetch.PrefetchService;
import org.mpcache.slave.security.BlockAccessChecker;
import org.mpcache.slave.store.FileBlockStore;
import org.mpcache.slave.verify.FillVerifier;

/**
 * A path renamed over between the moment prefetch checks a block and the moment it reads it never
 * gets the new file's bytes cached under the old file's block: the prefetch either caches the
 * planned block's own bytes or nothing. The rename happens in {@link PrefetchService#checked}, on
 * a prefetcher sharing a real slave's store and master link.
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

  /** Renames {@code replacement} over the path once, right after the block was checked. */
  private static final class ReplacingPrefetcher extends PrefetchService {
    private final Path replacement;
    private final AtomicBoolean replaced = new AtomicBoolean();

    ReplacingPrefetcher(MpCacheSlave slave, Path replacement) {
      super(slave.getStore(), new CacheMaster(slave.getStore(), BlockAccessChecker.open(),
          slave.getCounters(), slave.getMasterLink(), FillVerifier.off(), fill -> false, 60_000,
          SMALL_BLOCK, () -> ""), slave.getMasterLink(), slave.getCounters(), 4, 4, 0);
      this.replacement = replacement;
    }

    @Override
    protected void checked(BlockKey key, Path path) throws IOException {
      if (replaced.compareAndSet(false, true)) {
        ((DistributedFileSystem) cluster.plainFileSystem()).rename(replacement,
            new Path(path.toUri().getPath()), Options.Rename.OVERWRITE);
      }
    }
  }

  @Test
  void prefetch_pathRenamedOverBetweenCheckAndRead_neverCachesTheNewFilesBytes()
      throws Exception {
    Path p = new Path("/prefetch-replaced/data");
    Path next = new Path("/prefetch-replaced/next");
    byte[] old = data(21, SMALL_BLOCK);
    byte[] fresh = data(22, SMALL_BLOCK);
    write(cluster, p, old);
    write(cluster, next, fresh);
    DistributedFileSystem dfs = (DistributedFileSystem) cluster.plainFileSystem();
    LocatedBlock block = dfs.getClient().getLocatedBlocks(p.toString(), 0, SMALL_BLOCK)
        .get(0);
    BlockKey key = new BlockKey(block.getBlock().getBlockPoolId(), block.getBlock().getBlockId(),
        block.getBlock().getGenerationStamp());

    MpCacheSlave slave = cluster.slaves().get(0);
    ReplacingPrefetcher prefetcher = new ReplacingPrefetcher(slave, next);
    prefetcher.init(cluster.conf());
    prefetcher.start();
    try {
      prefetcher.submit(List.of(PrefetchCommandProto.newBuilder()
          .setAccess(BlockAccessProto.newBuilder().setBlock(ProtoConverters.toProto(key))
              .setBlockBytes(SMALL_BLOCK).setDatasetId("/prefetch-replaced").setDatasetBlocks(1)
              .setJobId(""))
          .setPath(dfs.makeQualified(p).toString()).setOffset(0).setForce(true).build()));
      Waits.waitFor(() -> prefetcher.filled() + prefetcher.skipped() + prefetcher.failed() == 1,
          "the prefetch to finish");
    } finally {
      prefetcher.stop();
    }

    assertTrue(prefetcher.replaced.get(), "the path was replaced between check and read");
    FileBlockStore store = slave.getStore();
    if (store.cachedLength(key) >= 0) {
      assertEquals(SMALL_BLOCK, store.cachedLength(key));
      byte[] cached = store.read(key, 0, SMALL_BLOCK).data();
      assertArrayEquals(old, cached, "the block's own bytes are cached under its key, not the"
          + " bytes of the file renamed over it");
    }
  }
}
