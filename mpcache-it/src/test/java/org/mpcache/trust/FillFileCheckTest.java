package org.mpcache.trust;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.e2e.ClusterFiles.data;
import static org.mpcache.e2e.ClusterFiles.write;

import java.io.IOException;
import java.net.InetSocketAddress;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mpcache.common.BlockKey;
import org.mpcache.common.Waits;
import org.mpcache.common.proto.ClientSlaveProtos.LookupRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.LookupResponseProto;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.protocolPB.ClientSlaveProtocolPB;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.common.protocolPB.RpcSupport;
import org.mpcache.e2e.ClusterFiles;
import org.mpcache.minicluster.MiniMpCacheCluster;
import org.mpcache.slave.MpCacheSlave;

/**
 * A reader's lookup has the slave fill a missed block only as the block of the file it names, at
 * the length it claims (mpcache.slave.fill.verify, on by default): a block claimed for another
 * file, or claimed larger than it is, is not cached, and the same block named honestly is. The
 * master thus judges every block by the file the slave found it in, never by a reader's word.
 */
class FillFileCheckTest {
  private static final int BLOCK = ClusterFiles.SMALL_BLOCK;
  private static MiniMpCacheCluster cluster;

  @BeforeAll
  static void start() throws IOException {
    cluster = ClusterFiles.smallBlockCluster("fill-file-check");
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static BlockKey keyOf(LocatedBlock lb) {
    ExtendedBlock b = lb.getBlock();
    return new BlockKey(b.getBlockPoolId(), b.getBlockId(), b.getGenerationStamp());
  }

  private static String qualified(Path p) throws IOException {
    return cluster.plainFileSystem().makeQualified(p).toString();
  }

  /** Looks the block up naming {@code path}, then waits until the slave's fill of it is done. */
  private static void lookupAndAwaitFill(ClientSlaveProtocolPB client, MpCacheSlave slave,
      BlockAccessProto access, String path) throws Exception {
    LookupResponseProto r = RpcSupport.call(() -> client.lookup(null,
        LookupRequestProto.newBuilder().setAccess(access).setPath(path).setBlockOffset(0)
            .build()));
    assertTrue(r.getSlaveFills(), "the slave queues a fill: " + r.getMissReason());
    Waits.waitFor(() -> slave.getFiller().readerFillsPending() == 0, 60_000,
        "the slave's fill of the block");
  }

  @Test
  void lookup_namingAFileOrLengthNotTheBlocks_cachesNothing() throws Exception {
    Path mine = new Path("/fillcheck/mine/part-0");
    Path theirs = new Path("/fillcheck/theirs/part-0");
    write(cluster, mine, data(5, BLOCK));
    write(cluster, theirs, data(6, BLOCK));
    BlockKey key = keyOf(DFSTestUtil.getAllBlocks(cluster.plainFileSystem(), mine).get(0));
    String minePath = qualified(mine);
    String theirsPath = qualified(theirs);
    MpCacheSlave slave = cluster.slaves().get(0);
    ClientSlaveProtocolPB client = RpcSupport.proxy(ClientSlaveProtocolPB.class,
        new InetSocketAddress("127.0.0.1", slave.info().getClientPort()), cluster.conf(), 5000);
    try {
      // My block, claimed as a block of their file (their dataset, pin, quota or time to live).
      BlockAccessProto claimed = BlockAccessProto.newBuilder()
          .setBlock(ProtoConverters.toProto(key)).setBlockBytes(BLOCK)
          .setDatasetId(qualified(theirs.getParent())).setDatasetBlocks(1)
          .setJobId("job_claim").build();
      lookupAndAwaitFill(client, slave, claimed, theirsPath);
      assertFalse(slave.getStore().state(key).isPresent(),
          "a block claimed for another file is not cached");

      // My block of my file, claimed larger than it is: the master would evict for the claim.
      BlockAccessProto inflated = claimed.toBuilder().setDatasetId(qualified(mine.getParent()))
          .setBlockBytes(BLOCK + 65_536).build();
      lookupAndAwaitFill(client, slave, inflated, minePath);
      assertFalse(slave.getStore().state(key).isPresent(),
          "a block claimed larger than it is is not cached");

      BlockAccessProto own = claimed.toBuilder().setDatasetId(qualified(mine.getParent()))
          .setJobId("job_mine").build();
      lookupAndAwaitFill(client, slave, own, minePath);
      Waits.waitFor(() -> slave.getStore().cachedLength(key) == BLOCK, 60_000,
          "the block of the file named to be cached");
    } finally {
      RpcSupport.close(client);
    }
  }
}
