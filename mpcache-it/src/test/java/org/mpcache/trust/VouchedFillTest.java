package org.mpcache.trust;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.e2e.ClusterFiles.data;
import static org.mpcache.e2e.ClusterFiles.holder;
import static org.mpcache.e2e.ClusterFiles.readAll;
import static org.mpcache.e2e.ClusterFiles.write;

import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.BlockChecksumOptions;
import org.apache.hadoop.hdfs.protocol.BlockChecksumType;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.datatransfer.IOStreamPair;
import org.apache.hadoop.hdfs.protocol.datatransfer.Sender;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.BlockOpResponseProto;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.OpBlockChecksumResponseProto;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.Status;
import org.apache.hadoop.hdfs.protocolPB.PBHelperClient;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.thirdparty.protobuf.ByteString;
import org.apache.hadoop.util.CrcUtil;
import org.apache.hadoop.util.DataChecksum;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mpcache.common.BlockKey;
import org.mpcache.common.Waits;
import org.mpcache.common.proto.ClientSlaveProtos.AbortRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.CommitRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.LookupRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.LookupResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.WriteRequestProto;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.protocolPB.ClientSlaveProtocolPB;
import org.mpcache.common.protocolPB.FillChecksums;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.common.protocolPB.RpcSupport;
import org.mpcache.e2e.ClusterFiles;
import org.mpcache.minicluster.MiniMpCacheCluster;
import org.mpcache.slave.MpCacheSlave;

/**
 * A block becomes readable from a slave only with bytes HDFS vouches for (issue 12, defect 1): a
 * client with a valid lookup that writes altered bytes through is refused at commit, readers get
 * HDFS's bytes, and an honest fill of the same block is still cached. Also pins the fact the
 * defence rests on: a DataNode's COMPOSITE_CRC block checksum is the plain CRC32C of the block.
 */
class VouchedFillTest {
  private static final int BLOCK = ClusterFiles.SMALL_BLOCK;
  private static MiniMpCacheCluster cluster;

  @BeforeAll
  static void start() throws IOException {
    cluster = ClusterFiles.smallBlockCluster("vouched-fill");
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

  /** A DataNode's answer to OP_BLOCK_CHECKSUM with COMPOSITE_CRC, asked as HDFS's client does. */
  private static OpBlockChecksumResponseProto blockChecksum(LocatedBlock lb) throws IOException {
    DistributedFileSystem dfs = (DistributedFileSystem) cluster.plainFileSystem();
    DatanodeInfo dn = lb.getLocations()[0];
    try (Socket sock = NetUtils.getDefaultSocketFactory(cluster.conf()).createSocket()) {
      NetUtils.connect(sock, NetUtils.createSocketAddr(dn.getXferAddr()), 10_000);
      sock.setSoTimeout(10_000);
      IOStreamPair pair = dfs.getClient().getSaslDataTransferClient().newSocketSend(sock,
          NetUtils.getOutputStream(sock, 10_000), NetUtils.getInputStream(sock, 10_000),
          dfs.getClient(), lb.getBlockToken(), dn);
      new Sender(new DataOutputStream(pair.out)).blockChecksum(lb.getBlock(), lb.getBlockToken(),
          new BlockChecksumOptions(BlockChecksumType.COMPOSITE_CRC));
      BlockOpResponseProto reply = BlockOpResponseProto.parseFrom(
          PBHelperClient.vintPrefixed(pair.in));
      assertEquals(Status.SUCCESS, reply.getStatus(), reply.getMessage());
      return reply.getChecksumResponse();
    }
  }

  @Test
  void compositeCrc_ofABlockIsTheCrc32cOfItsBytes_fullAndShortLastBlock() throws IOException {
    Path p = new Path("/vouch/equivalence");
    byte[] content = data(1, BLOCK + 300_001);
    write(cluster, p, content);
    List<LocatedBlock> blocks = DFSTestUtil.getAllBlocks(cluster.plainFileSystem(), p);
    assertEquals(2, blocks.size());
    for (LocatedBlock lb : blocks) {
      OpBlockChecksumResponseProto r = blockChecksum(lb);
      assertEquals(DataChecksum.Type.CRC32C, PBHelperClient.convert(r.getCrcType()));
      ByteString bytes = r.getBlockChecksum();
      assertEquals(4, bytes.size(), "a composite CRC is one 4-byte CRC");
      int composite = CrcUtil.readInt(bytes.toByteArray(), 0);
      CRC32C crc = new CRC32C();
      int start = (int) lb.getStartOffset();
      crc.update(content, start, (int) lb.getBlockSize());
      assertEquals((int) crc.getValue(), composite, "block at " + start + " of "
          + lb.getBlockSize() + " bytes");
    }
  }

  @Test
  void compositeCrc_ofALargeBlock_andWhatAskingCosts() throws IOException {
    int large = 32 << 20;
    Path p = new Path("/vouch/large");
    byte[] content = data(3, large);
    try (FSDataOutputStream out = cluster.plainFileSystem().create(p, true, 4096, (short) 1,
        large)) {
      out.write(content);
    }
    LocatedBlock lb = DFSTestUtil.getAllBlocks(cluster.plainFileSystem(), p).get(0);
    assertEquals(large, lb.getBlockSize());
    CRC32C crc = new CRC32C();
    long t0 = System.nanoTime();
    crc.update(content, 0, large);
    long t1 = System.nanoTime();
    int composite = CrcUtil.readInt(blockChecksum(lb).getBlockChecksum().toByteArray(), 0);
    long t2 = System.nanoTime();
    assertEquals((int) crc.getValue(), composite);
    Path smallFile = new Path("/vouch/small");
    write(cluster, smallFile, data(4, BLOCK));
    LocatedBlock small = DFSTestUtil.getAllBlocks(cluster.plainFileSystem(), smallFile).get(0);
    long t3 = System.nanoTime();
    blockChecksum(small);
    long t4 = System.nanoTime();
    System.out.printf("CRC32C of %d MiB: %.1f ms; DataNode COMPOSITE_CRC of it: %.1f ms, of a"
        + " 1 MiB block: %.1f ms%n", large >> 20, (t1 - t0) / 1e6, (t2 - t1) / 1e6,
        (t4 - t3) / 1e6);
  }

  private static String qualified(Path p) throws IOException {
    return cluster.plainFileSystem().makeQualified(p).toString();
  }

  @Test
  void writeThrough_namingAFileOrLengthNotTheBlocks_isRefusedBeforeAdmission()
      throws Exception {
    Path mine = new Path("/vouch/mine/part-0");
    Path theirs = new Path("/vouch/theirs/part-0");
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
      LookupResponseProto refused = RpcSupport.call(() -> client.lookup(null,
          LookupRequestProto.newBuilder().setAccess(claimed).setOfferFill(true)
              .setPath(theirsPath).setBlockOffset(0).build()));
      assertFalse(refused.hasFillId(), "a fill of a block claimed for another file");
      assertTrue(refused.getMissReason().startsWith("not the block of"),
          refused.getMissReason());
      assertFalse(slave.getStore().state(key).isPresent(), "nothing is being filled");

      // My block of my file, claimed larger than it is: the master would evict for the claim.
      BlockAccessProto inflated = claimed.toBuilder().setDatasetId(qualified(mine.getParent()))
          .setBlockBytes(BLOCK + 65_536).build();
      LookupResponseProto tooLarge = RpcSupport.call(() -> client.lookup(null,
          LookupRequestProto.newBuilder().setAccess(inflated).setOfferFill(true)
              .setPath(minePath).setBlockOffset(0).build()));
      assertFalse(tooLarge.hasFillId(), "a fill of a block claimed larger than it is");
      assertTrue(tooLarge.getMissReason().startsWith("not the block of"),
          tooLarge.getMissReason());

      BlockAccessProto own = claimed.toBuilder().setDatasetId(qualified(mine.getParent()))
          .setJobId("job_mine").build();
      LookupResponseProto honest = RpcSupport.call(() -> client.lookup(null,
          LookupRequestProto.newBuilder().setAccess(own)
              .setOfferFill(true).setPath(minePath).setBlockOffset(0).build()));
      assertTrue(honest.hasFillId(), "the block of the file named: " + honest.getMissReason());
      RpcSupport.call(() -> client.abort(null, AbortRequestProto.newBuilder()
          .setFillId(honest.getFillId()).build()));
    } finally {
      RpcSupport.close(client);
    }
  }

  @Test
  void hostileFill_withAlteredBytesIsRefusedAndAnHonestFillStillCaches() throws Exception {
    Path p = new Path("/vouch/hostile");
    byte[] content = data(2, BLOCK);
    write(cluster, p, content);
    LocatedBlock lb = DFSTestUtil.getAllBlocks(cluster.plainFileSystem(), p).get(0);
    BlockKey key = keyOf(lb);
    MpCacheSlave slave = cluster.slaves().get(0);
    String path = qualified(p);
    byte[] altered = content.clone();
    altered[BLOCK / 2] ^= 0x5a;
    ClientSlaveProtocolPB client = RpcSupport.proxy(ClientSlaveProtocolPB.class,
        new InetSocketAddress("127.0.0.1", slave.info().getClientPort()), cluster.conf(), 5000);
    try {
      BlockAccessProto access = BlockAccessProto.newBuilder()
          .setBlock(ProtoConverters.toProto(key)).setBlockBytes(BLOCK)
          .setDatasetId(p.toString()).setDatasetBlocks(1).setJobId("job_hostile").build();
      LookupResponseProto miss = RpcSupport.call(() -> client.lookup(null,
          LookupRequestProto.newBuilder().setAccess(access).setOfferFill(true)
              .setPath(path).setBlockOffset(0).build()));
      assertTrue(miss.hasFillId(), "the slave wants the block: " + miss.getMissReason());
      for (int off = 0; off < BLOCK; off += 256 * 1024) {
        int o = off;
        assertTrue(RpcSupport.call(() -> client.write(null, FillChecksums.withData(
            WriteRequestProto.newBuilder().setFillId(miss.getFillId()).setOffset(o),
            ByteString.copyFrom(altered, o, 256 * 1024)).build())).getAccepted());
      }
      long t0 = System.nanoTime();
      boolean cached = RpcSupport.call(() -> client.commit(null, CommitRequestProto.newBuilder()
          .setFillId(miss.getFillId()).setLength(BLOCK).build())).getCached();
      System.out.printf("hostile commit of %d bytes took %.1f ms%n", BLOCK,
          (System.nanoTime() - t0) / 1e6);
      assertFalse(cached, "a fill whose bytes HDFS does not vouch for must not be committed");
      assertTrue(slave.getStore().cachedLength(key) < 0, "the altered block is not readable");
      assertEquals(1, slave.getCounters().snapshot().getFillsRejectedMismatch());
    } finally {
      RpcSupport.close(client);
    }

    assertArrayEquals(content, readAll(cluster, p), "readers get HDFS's bytes");
    Waits.waitFor(() -> holder(cluster, key) != null,
        "an honest read filling the block");
    long hits = cluster.totals().getHits();
    assertArrayEquals(content, readAll(cluster, p));
    assertEquals(hits + 1, cluster.totals().getHits(), "the next read is a hit");
  }
}
