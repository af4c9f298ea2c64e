package org.mpcache.slave;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.thirdparty.protobuf.ByteString;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.ClientSlaveProtos.AbortRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.CommitRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.FollowingBlockProto;
import org.mpcache.common.proto.ClientSlaveProtos.LookupRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.LookupResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReadRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReportCorruptRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReportReadRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.WriteRequestProto;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.protocolPB.ClientSlaveProtocolPB;
import org.mpcache.common.protocolPB.FillChecksums;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.common.protocolPB.RpcSupport;
import org.mpcache.slave.security.BlockAccessChecker;

/**
 * Who may fill the cache: a fill belongs to the caller that was offered it and to its block, so
 * no other caller can write, commit or abort it nor guess its id, and with block tokens on every
 * client-slave call needs a valid token for its block. Real slaves against a {@link FakeMaster}, a
 * second caller on its own connection as another user.
 */
class FillAuthorizationTest {
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
  private ClientSlaveProtocolPB mallory;
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
    InetSocketAddress at = fixture.clientAddress();
    Configuration conf = fixture.conf();
    mallory = UserGroupInformation.createRemoteUser("mallory").doAs(
        (PrivilegedExceptionAction<ClientSlaveProtocolPB>) () ->
            RpcSupport.proxy(ClientSlaveProtocolPB.class, at, conf, 5_000));
  }

  @AfterEach
  void stop() {
    RpcSupport.close(mallory);
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

  private static long offerFill(ClientSlaveProtocolPB client, BlockKey key, String token)
      throws IOException {
    LookupResponseProto r = RpcSupport.call(() -> client.lookup(null, LookupRequestProto
        .newBuilder().setAccess(access(key)).setOfferFill(true).setBlockToken(token)
        .setPath(SlaveFixture.UNREACHABLE_HDFS + "/f").setBlockOffset(0).build()));
    assertTrue(r.hasFillId(), "a fill was offered: " + r.getMissReason());
    return r.getFillId();
  }

  private static boolean write(ClientSlaveProtocolPB client, long fillId, byte[] data,
      String token) throws IOException {
    return RpcSupport.call(() -> client.write(null, FillChecksums.withData(
        WriteRequestProto.newBuilder().setFillId(fillId).setOffset(0).setBlockToken(token),
        ByteString.copyFrom(data)).build())).getAccepted();
  }

  private static boolean commit(ClientSlaveProtocolPB client, long fillId, String token)
      throws IOException {
    return RpcSupport.call(() -> client.commit(null, CommitRequestProto.newBuilder()
        .setFillId(fillId).setLength(BLOCK).setBlockToken(token).build())).getCached();
  }

  private static void abort(ClientSlaveProtocolPB client, long fillId, String token)
      throws IOException {
    RpcSupport.call(() -> client.abort(null, AbortRequestProto.newBuilder().setFillId(fillId)
        .setBlockToken(token).build()));
  }

  private static byte[] read(ClientSlaveProtocolPB client, BlockKey key, String token)
      throws IOException {
    return RpcSupport.call(() -> client.read(null, ReadRequestProto.newBuilder()
        .setBlock(ProtoConverters.toProto(key)).setOffset(0).setLength(BLOCK)
        .setBlockToken(token).build())).getData().toByteArray();
  }

  @Test
  void write_commit_abort_fromAnotherCaller_areRefusedAndTheOwnersFillCommits()
      throws Exception {
    start(BlockAccessChecker.open());
    long id = offerFill(owner, K1, "");
    byte[] evil = bytes();
    assertThrows(IOException.class, () -> write(mallory, id, evil, ""),
        "another caller writes into the fill");
    assertThrows(IOException.class, () -> commit(mallory, id, ""),
        "another caller commits the fill");
    assertThrows(IOException.class, () -> abort(mallory, id, ""),
        "another caller aborts the fill");

    byte[] data = bytes();
    assertTrue(write(owner, id, data, ""), "the owner's write, undisturbed");
    assertTrue(commit(owner, id, ""), "the owner's commit");
    assertArrayEquals(data, read(mallory, K1, ""), "everyone reads the owner's bytes");
  }

  @Test
  void fillIds_guessedByAnotherCaller_openNothing() throws Exception {
    start(BlockAccessChecker.open());
    long id1 = offerFill(owner, K1, "");
    long id2 = offerFill(owner, K2, "");
    assertNotEquals(1, Math.abs(id2 - id1), "fill ids " + id1 + ", " + id2 + " are sequential");
    byte[] evil = bytes();
    for (long guess = id2 - 5; guess <= id2 + 5; guess++) {
      long g = guess;
      try {
        assertFalse(write(mallory, g, evil, ""), "a guessed fill id " + g + " took a write");
      } catch (IOException refused) {
        // Refused outright: as good as not accepted.
      }
    }
    byte[] data = bytes();
    assertTrue(write(owner, id2, data, ""));
    assertTrue(commit(owner, id2, ""));
    assertArrayEquals(data, read(owner, K2, ""));
    assertEquals(1, slave.fillsInProgress(), "the fill of K1 is still open");
  }

  @Test
  void write_commit_withoutAValidToken_areRefused() throws Exception {
    start(TOKEN_PER_BLOCK);
    long id = offerFill(owner, K1, "token-1");
    byte[] data = bytes();
    assertThrows(IOException.class, () -> write(owner, id, data, ""), "a write without token");
    assertThrows(IOException.class, () -> write(owner, id, data, "token-2"),
        "a write with another block's token");
    assertTrue(write(owner, id, data, "token-1"));
    assertThrows(IOException.class, () -> commit(owner, id, ""), "a commit without token");
    assertThrows(IOException.class, () -> abort(owner, id, "token-2"),
        "an abort with another block's token");
    assertTrue(commit(owner, id, "token-1"));
    assertArrayEquals(data, read(owner, K1, "token-1"));

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
