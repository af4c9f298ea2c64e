package org.mpcache.slave;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.AccessControlException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.ClientSlaveProtos.FollowingBlockProto;
import org.mpcache.common.proto.ClientSlaveProtos.LookupRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.LookupResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReadRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReportCorruptRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReportReadRequestProto;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.protocolPB.ClientSlaveProtocolPB;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.common.protocolPB.RpcSupport;
import org.mpcache.slave.security.BlockAccessChecker;

/**
 * Who may use the cache: with block tokens on, every client-slave call needs a valid token for its
 * block, and a lookup's read reports and following blocks are each checked against their own.
 * A real slave against a {@link FakeMaster}.
 */
class BlockTokenCallsTest {
  private static final int BLOCK = 100_000;
  private static final BlockKey K1 = new BlockKey("BP-1", 1, 1);
  private static final BlockKey K2 = new BlockKey("BP-1", 2, 1);

  /** With tokens on: the token of block {@code id} is "token-" + id (a stand-in for HDFS's). */
  private static final BlockAccessChecker TOKEN_PER_BLOCK = (block, token) -> {
    if (!("token-" + block.getBlockId()).equals(token)) {
      throw new AccessControlException("bad token for " + block + ": '" + token + "'");
    }
  };

  @TempDir
  Path dir;
  private SlaveFixture fixture;
  private MpCacheSlave slave;
  private ClientSlaveProtocolPB owner;
  private final Random random = new Random(11);

  private void start(BlockAccessChecker checker) throws Exception {
    fixture = new SlaveFixture(dir, conf -> { }, () -> new MpCacheSlave() {
      @Override
      protected BlockAccessChecker createAccessChecker(Configuration c) {
        return checker;
      }
    });
    fixture.awaitRegistration();
    slave = fixture.slave();
    owner = fixture.client();
  }

  @AfterEach
  void stop() {
    if (fixture != null) {
      fixture.close();
    }
  }

  private static BlockAccessProto access(BlockKey key) {
    return SlaveFixture.access(key, BLOCK, "/d", 2).build();
  }

  private byte[] bytes() {
    byte[] b = new byte[BLOCK];
    random.nextBytes(b);
    return b;
  }

  private static byte[] read(ClientSlaveProtocolPB client, BlockKey key, String token)
      throws IOException {
    return RpcSupport.call(() -> client.read(null, ReadRequestProto.newBuilder()
        .setBlock(ProtoConverters.toProto(key)).setOffset(0).setLength(BLOCK)
        .setBlockToken(token).build())).getData().toByteArray();
  }

  @Test
  void calls_withoutAValidToken_areRefused() throws Exception {
    start(TOKEN_PER_BLOCK);
    byte[] data = bytes();
    assertTrue(fixture.fill(access(K1), data));
    assertThrows(IOException.class, () -> read(owner, K1, ""), "a read without token");
    assertThrows(IOException.class, () -> read(owner, K1, "token-2"),
        "a read with another block's token");
    assertArrayEquals(data, read(owner, K1, "token-1"));
    assertThrows(IOException.class, () -> RpcSupport.call(() -> owner.lookup(null,
        LookupRequestProto.newBuilder().setAccess(access(K1)).setBlockToken("token-2").build())),
        "a lookup with another block's token");

    assertThrows(IOException.class, () -> RpcSupport.call(() -> owner.reportRead(null,
        ReportReadRequestProto.newBuilder().setBlock(ProtoConverters.toProto(K1))
            .setBytesFromHdfs(1).build())), "a read report without token");
    assertThrows(IOException.class, () -> RpcSupport.call(() -> owner.reportCorrupt(null,
        ReportCorruptRequestProto.newBuilder().setBlock(ProtoConverters.toProto(K1))
            .setReason("test").build())), "a corruption report without token");
    RpcSupport.call(() -> owner.reportRead(null, ReportReadRequestProto.newBuilder()
        .setBlock(ProtoConverters.toProto(K1)).setBytesFromHdfs(1).setBlockToken("token-1")
        .build()));
  }

  @Test
  void lookup_carryingAReadReportOfABlockItsTokenDoesNotOpen_answersAndCountsNothing()
      throws Exception {
    start(TOKEN_PER_BLOCK);
    long hdfs = slave.counters().getBytesFromHdfs();
    ReportReadRequestProto.Builder report = ReportReadRequestProto.newBuilder()
        .setBlock(ProtoConverters.toProto(K1)).setBytesFromHdfs(BLOCK).setDatasetId("/d");
    LookupRequestProto.Builder lookup = LookupRequestProto.newBuilder().setAccess(access(K2))
        .setBlockToken("token-2");

    LookupResponseProto r = RpcSupport.call(() -> owner.lookup(null, lookup.clone()
        .addPreviousRead(report.clone().setBlockToken("token-2")).build()));
    assertEquals(LookupResponseProto.Status.MISS, r.getStatus(), "the lookup is answered");
    assertEquals(hdfs, slave.counters().getBytesFromHdfs(), "a report with another block's token"
        + " counts nothing");

    RpcSupport.call(() -> owner.lookup(null, lookup.clone()
        .addPreviousRead(report.clone().setBlockToken("token-1")).build()));
    assertEquals(hdfs + BLOCK, slave.counters().getBytesFromHdfs(), "a report with its block's"
        + " token counts, as a reportRead call would");
  }

  @Test
  void lookup_namingAheadABlockItsTokenDoesNotOpen_answersThatBlockRefusedAndCountsNothing()
      throws Exception {
    start(TOKEN_PER_BLOCK);
    long misses = slave.counters().getMisses();
    LookupResponseProto r = RpcSupport.call(() -> owner.lookup(null, LookupRequestProto
        .newBuilder().setAccess(access(K1)).setBlockToken("token-1")
        .addFollowing(FollowingBlockProto.newBuilder().setAccess(access(K2))
            .setBlockToken("token-1")).build()));
    assertEquals(LookupResponseProto.Status.MISS, r.getStatus(), "its own block is looked up");
    assertEquals(1, r.getFollowingCount());
    assertEquals(LookupResponseProto.Status.MISS, r.getFollowing(0).getStatus());
    assertTrue(r.getFollowing(0).getMissReason().contains("bad token"),
        r.getFollowing(0).getMissReason());
    assertEquals(misses + 1, slave.counters().getMisses(), "only its own block's miss counts");
  }
}
