package org.mpcache.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.e2e.ClusterFiles.data;
import static org.mpcache.e2e.ClusterFiles.holder;
import static org.mpcache.e2e.ClusterFiles.readFirst;
import static org.mpcache.e2e.ClusterFiles.write;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.ipc.RemoteException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mpcache.minicluster.MiniMpCacheCluster;
import org.mpcache.common.BlockKey;
import org.mpcache.common.Waits;
import org.mpcache.common.domain.DescriptorClient;
import org.mpcache.common.proto.ClientSlaveProtos.DescriptorResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.LookupRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReadRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.StreamResponseProto;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.protocolPB.ClientSlaveProtocolPB;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.common.protocolPB.RpcSupport;
import org.mpcache.common.stream.BlockStreamConnection;
import org.mpcache.slave.MpCacheSlave;
import org.mpcache.slave.SlaveConfigKeys;

/**
 * With HDFS block access tokens on, a slave serves a cached block only to a client holding a
 * valid token for that very block, as a DataNode would, fills a block from HDFS for no one else
 * either, and passes a block file's descriptor to no one else; readers through the FileSystem, which hold the NameNode's tokens, still read from
 * the cache.
 */
class BlockTokenTest {
  private static final int BLOCK = 1 << 20;
  private static MiniMpCacheCluster cluster;

  @BeforeAll
  static void start() throws IOException {
    cluster = new MiniMpCacheCluster.Builder(new File("target/e2e/block-token"))
        .blockSize(BLOCK).set("dfs.block.access.token.enable", "true").build();
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static ReadRequestProto read(ExtendedBlock b, String token) {
    ReadRequestProto.Builder r = ReadRequestProto.newBuilder().setBlock(ProtoConverters.toProto(
        new BlockKey(b.getBlockPoolId(), b.getBlockId(), b.getGenerationStamp())))
        .setOffset(0).setLength(100);
    if (token != null) {
      r.setBlockToken(token);
    }
    return r.build();
  }

  @Test
  void read_needsAValidTokenForThatBlock() throws Exception {
    Path p = new Path("/secure/file");
    byte[] content = data(3, 2 * BLOCK);
    write(cluster, p, content);
    assertArrayEquals(content, ClusterFiles.readUntilCached(cluster, p));
    long before = cluster.totals().getBytesFromCache();
    assertArrayEquals(content, readFirst(cluster, p, content.length));
    assertEquals(content.length, cluster.totals().getBytesFromCache() - before,
        "an authorized reader is served from the cache");

    List<LocatedBlock> blocks = DFSTestUtil.getAllBlocks(cluster.plainFileSystem(), p);
    ExtendedBlock first = blocks.get(0).getBlock();
    MpCacheSlave holder = holder(cluster, new BlockKey(first.getBlockPoolId(), first.getBlockId(),
        first.getGenerationStamp()));
    assertTrue(holder != null);
    ClientSlaveProtocolPB client = RpcSupport.proxy(ClientSlaveProtocolPB.class,
        new InetSocketAddress("127.0.0.1", holder.info().getClientPort()), cluster.conf(), 5000);
    try {
      String valid = blocks.get(0).getBlockToken().encodeToUrlString();
      assertTrue(RpcSupport.call(() -> client.read(null, read(first, valid))).getData()
          .size() > 0);
      String other = blocks.get(1).getBlockToken().encodeToUrlString();
      for (String bad : new String[] {null, "", other, "not-a-token"}) {
        RemoteException e = assertThrows(RemoteException.class,
            () -> RpcSupport.call(() -> client.read(null, read(first, bad))));
        assertTrue(e.getClassName().endsWith("AccessControlException"), e.getClassName());
      }
    } finally {
      RpcSupport.close(client);
    }
  }

  @Test
  void descriptor_isPassedOnlyWithAValidTokenForThatBlock() throws Exception {
    Path p = new Path("/secure/descriptor");
    byte[] content = data(5, 2 * BLOCK);
    write(cluster, p, content);
    assertArrayEquals(content, readFirst(cluster, p, content.length));
    List<LocatedBlock> blocks = DFSTestUtil.getAllBlocks(cluster.plainFileSystem(), p);
    BlockKey first = ClusterFiles.blocks(cluster, p).get(0);
    Waits.waitFor(() -> holder(cluster, first) != null, "block 0 cached");
    MpCacheSlave holder = holder(cluster, first);
    String socket = cluster.slaveConf(cluster.slaves().indexOf(holder))
        .get(SlaveConfigKeys.DOMAIN_SOCKET_PATH_KEY);
    long refused = cluster.totals().getDescriptorsRefused();
    String other = blocks.get(1).getBlockToken().encodeToUrlString();
    for (String bad : new String[] {"", other, "not-a-token"}) {
      DescriptorClient.Lease l = DescriptorClient.request(socket,
          ProtoConverters.toProto(first), bad, null, 5000, 5000);
      assertFalse(l.granted(), "no descriptor for token '" + bad + "'");
      assertNull(l.file());
      assertEquals(DescriptorResponseProto.Status.REFUSED, l.response().getStatus());
    }
    assertEquals(refused + 3, cluster.totals().getDescriptorsRefused());
    assertEquals(0, holder.getStore().leasesHeld());

    DescriptorClient.Lease granted = DescriptorClient.request(socket,
        ProtoConverters.toProto(first), blocks.get(0).getBlockToken().encodeToUrlString(), null,
        5000, 5000);
    try {
      assertTrue(granted.granted(), "the block's own token gets its file");
      assertEquals(BLOCK, granted.file().size());
    } finally {
      granted.release(0);
    }
  }

  @Test
  void stream_isServedOnlyWithAValidTokenForThatBlock() throws Exception {
    Path p = new Path("/secure/stream");
    byte[] content = data(6, 2 * BLOCK);
    write(cluster, p, content);
    assertArrayEquals(content, readFirst(cluster, p, content.length));
    List<LocatedBlock> blocks = DFSTestUtil.getAllBlocks(cluster.plainFileSystem(), p);
    BlockKey first = ClusterFiles.blocks(cluster, p).get(0);
    Waits.waitFor(() -> holder(cluster, first) != null, "block 0 cached");
    MpCacheSlave holder = holder(cluster, first);
    InetSocketAddress address = new InetSocketAddress("127.0.0.1",
        holder.info().getStreamPort());
    long served = cluster.totals().getBytesFromCache();
    String other = blocks.get(1).getBlockToken().encodeToUrlString();
    for (String bad : new String[] {"", other, "not-a-token"}) {
      try (BlockStreamConnection c = BlockStreamConnection.open(address,
          ProtoConverters.toProto(first), bad, BLOCK, 5000)) {
        c.request(0, BLOCK);
        BlockStreamConnection.RefusedException e =
            assertThrows(BlockStreamConnection.RefusedException.class, c::receive,
                "no bytes for token '" + bad + "'");
        assertEquals(StreamResponseProto.Status.REFUSED, e.status());
      }
    }
    assertEquals(served, cluster.totals().getBytesFromCache(), "nothing was sent");
    assertEquals(0, holder.getStore().leasesHeld());

    try (BlockStreamConnection c = BlockStreamConnection.open(address,
        ProtoConverters.toProto(first), blocks.get(0).getBlockToken().encodeToUrlString(),
        BLOCK, 5000)) {
      c.request(0, 4096);
      BlockStreamConnection.Answer a = c.receive();
      assertArrayEquals(Arrays.copyOf(content, a.length()), Arrays.copyOf(a.data(), a.length()),
          "the block's own token gets its bytes");
    }
  }

  private static LookupRequestProto fillingLookup(LocatedBlock b, Path p, String token)
      throws IOException {
    ExtendedBlock e = b.getBlock();
    LookupRequestProto.Builder r = LookupRequestProto.newBuilder().setAccess(
        BlockAccessProto.newBuilder().setBlock(ProtoConverters.toProto(new BlockKey(
            e.getBlockPoolId(), e.getBlockId(), e.getGenerationStamp())))
            .setBlockBytes(b.getBlockSize()).setDatasetId(p.toString()).setDatasetBlocks(2))
        .setPath(cluster.plainFileSystem().makeQualified(p).toString())
        .setBlockOffset(b.getStartOffset());
    if (token != null) {
      r.setBlockToken(token);
    }
    return r.build();
  }

  @Test
  void lookup_askingAFillWithoutAValidToken_isRefusedAndFillsNothing() throws Exception {
    Path p = new Path("/secure/unread");
    write(cluster, p, data(4, 2 * BLOCK));
    List<LocatedBlock> blocks = DFSTestUtil.getAllBlocks(cluster.plainFileSystem(), p);
    BlockKey first = ClusterFiles.blocks(cluster, p).get(0);
    MpCacheSlave slave = cluster.slaves().get(0);
    ClientSlaveProtocolPB client = RpcSupport.proxy(ClientSlaveProtocolPB.class,
        new InetSocketAddress("127.0.0.1", slave.info().getClientPort()), cluster.conf(), 5000);
    try {
      long fills = cluster.totals().getFillsBySlave();
      String other = blocks.get(1).getBlockToken().encodeToUrlString();
      for (String bad : new String[] {null, "", other, "not-a-token"}) {
        LookupRequestProto refused = fillingLookup(blocks.get(0), p, bad);
        RemoteException e = assertThrows(RemoteException.class,
            () -> RpcSupport.call(() -> client.lookup(null, refused)));
        assertTrue(e.getClassName().endsWith("AccessControlException"), e.getClassName());
      }
      Thread.sleep(500);
      assertEquals(fills, cluster.totals().getFillsBySlave(), "a refused reader fills nothing");
      assertTrue(slave.getStore().state(first).isEmpty(), "nothing of the block is on the SSD");

      LookupRequestProto valid = fillingLookup(blocks.get(0), p,
          blocks.get(0).getBlockToken().encodeToUrlString());
      assertTrue(RpcSupport.call(() -> client.lookup(null, valid)).getSlaveFills(),
          "the block's own token has it filled");
      Waits.waitFor(() -> slave.getStore().cachedLength(first) == BLOCK, "the fill");
    } finally {
      RpcSupport.close(client);
    }
  }
}
