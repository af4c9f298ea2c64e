package org.mpcache.slave;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.apache.hadoop.ipc.RemoteException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.ClientSlaveProtos.FollowingBlockProto;
import org.mpcache.common.proto.ClientSlaveProtos.LookupRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.LookupResponseProto;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;
import org.mpcache.common.protocolPB.RequestChecks;
import org.mpcache.common.protocolPB.RpcSupport;
import org.mpcache.slave.cache.FillFailure;

/**
 * A missed block's one lookup, on a slave whose HDFS is unreachable: naming the block's file has
 * the slave fill it itself (answered at once, the fill in the background), a fill that cannot
 * read its file is counted as failed, a lookup ahead of the reader that misses is neither counted nor filled, and a bad path is refused; blocks a
 * lookup names after its own are each looked up as its own block is, a bad one refused alone.
 */
class SlaveFillTest {
  /** On the fixture's unreachable HDFS: the slave's fill of it fails at once. */
  private static final String UNREACHABLE = SlaveFixture.UNREACHABLE_HDFS + "/no-such-file";

  @TempDir
  Path dir;
  private SlaveFixture fx;

  @BeforeEach
  void start() throws Exception {
    fx = new SlaveFixture(dir);
    fx.awaitRegistration();
  }

  @AfterEach
  void stop() {
    fx.close();
  }

  private static BlockAccessProto access(long id) {
    return SlaveFixture.access(new BlockKey("BP-1", id, 1), 1000, "/d", 1).build();
  }

  private LookupResponseProto lookup(LookupRequestProto.Builder r) throws Exception {
    return RpcSupport.call(() -> fx.client().lookup(null, r.build()));
  }

  private SlaveCountersProto counters() {
    return fx.slave().getCounters().snapshot();
  }

  @Test
  void lookup_namingTheFile_queuesASlaveFillAndAnswersAtOnce() throws Exception {
    LookupResponseProto r = lookup(LookupRequestProto.newBuilder().setAccess(access(1))
        .setPath(UNREACHABLE).setBlockOffset(0));
    assertEquals(LookupResponseProto.Status.MISS, r.getStatus());
    assertTrue(r.getSlaveFills(), r.getMissReason());
    SlaveFixture.waitFor(() -> counters().getFillsBySlaveFailed() == 1, "the fill to fail");
    assertEquals(0, counters().getFillsBySlave());
    assertEquals(1, counters().getMisses());
    // Admitted (the fixture takes files on the reader's word), then HDFS cannot be reached.
    assertEquals(1L,
        fx.slave().getCounters().fillsBySlaveFailed().get(FillFailure.HDFS_READ_FAILED));
  }

  @Test
  void lookup_withoutTheFile_fillsNothing() throws Exception {
    LookupResponseProto r = lookup(LookupRequestProto.newBuilder().setAccess(access(2)));
    assertEquals(LookupResponseProto.Status.MISS, r.getStatus());
    assertFalse(r.getSlaveFills());
    Thread.sleep(200);
    assertEquals(0, counters().getFillsBySlaveFailed() + counters().getFillsBySlave());
  }

  @Test
  void lookup_aheadOfTheReaderMisses_isNeitherCountedNorFilled() throws Exception {
    LookupResponseProto r = lookup(LookupRequestProto.newBuilder().setAccess(access(5))
        .setAhead(true).setPath(UNREACHABLE).setBlockOffset(0));
    assertEquals(LookupResponseProto.Status.MISS, r.getStatus());
    assertFalse(r.getSlaveFills());
    assertEquals(0, counters().getMisses(), "the reader's own lookup counts the miss");
    Thread.sleep(200);
    assertEquals(0, counters().getFillsBySlaveFailed() + counters().getFillsBySlave());
  }

  @Test
  void lookup_pathWithAControlCharacter_isRefusedNamingTheField() {
    RemoteException e = assertThrows(RemoteException.class, () -> lookup(LookupRequestProto
        .newBuilder().setAccess(access(4)).setPath("hdfs://nn/a\nb").setBlockOffset(0)));
    assertTrue(e.getMessage().contains("path"), e.getMessage());
  }

  private static FollowingBlockProto.Builder following(BlockAccessProto access, long offset) {
    return FollowingBlockProto.newBuilder().setAccess(access).setBlockOffset(offset);
  }

  @Test
  void lookup_namingBlocksAhead_looksEachUpInOrderAndFillsIt() throws Exception {
    LookupResponseProto r = lookup(LookupRequestProto.newBuilder().setAccess(access(10))
        .setPath(UNREACHABLE).setBlockOffset(0).addFollowing(following(access(11), 1000))
        .addFollowing(following(access(12), 2000)));
    assertEquals(LookupResponseProto.Status.MISS, r.getStatus());
    assertTrue(r.getSlaveFills(), r.getMissReason());
    assertEquals(2, r.getFollowingCount(), "one answer per following block");
    for (LookupResponseProto f : r.getFollowingList()) {
      assertEquals(LookupResponseProto.Status.MISS, f.getStatus());
      assertTrue(f.getSlaveFills(), f.getMissReason());
      assertEquals(0, f.getFollowingCount());
    }
    assertEquals(3, counters().getMisses(), "each block's miss counted at the lookup");
    SlaveFixture.waitFor(() -> counters().getFillsBySlaveFailed() == 3,
        "the three fills to be tried");
  }

  @Test
  void lookup_namingABadBlockAhead_answersItMissAndDoesNothingForIt() throws Exception {
    BlockAccessProto bad = access(14).toBuilder().setBlockBytes(0).build();
    LookupResponseProto r = lookup(LookupRequestProto.newBuilder().setAccess(access(13))
        .setPath(UNREACHABLE).setBlockOffset(0).addFollowing(following(bad, 1000))
        .addFollowing(following(access(15), 2000)));
    assertEquals(2, r.getFollowingCount());
    LookupResponseProto refused = r.getFollowing(0);
    assertEquals(LookupResponseProto.Status.MISS, refused.getStatus());
    assertFalse(refused.getSlaveFills());
    assertTrue(refused.getMissReason().startsWith("refused: ")
        && refused.getMissReason().contains("blockBytes"), refused.getMissReason());
    assertTrue(r.getFollowing(1).getSlaveFills(), "the blocks after it are looked up");
    assertEquals(2, counters().getMisses(), "no miss counted for the refused block");
    SlaveFixture.waitFor(() -> counters().getFillsBySlaveFailed() == 2, "the two fills");
    Thread.sleep(200);
    assertEquals(2, counters().getFillsBySlaveFailed(), "no fill for the refused block");
  }

  @Test
  void lookup_namingMoreBlocksAheadThanAllowed_isRefusedNamingTheFieldAndCountsNothing() {
    LookupRequestProto.Builder req = LookupRequestProto.newBuilder().setAccess(access(16))
        .setPath(UNREACHABLE).setBlockOffset(0);
    for (int i = 0; i < RequestChecks.MAX_LOOKUP_BLOCKS; i++) {
      req.addFollowing(following(access(17 + i), 1000L * (i + 1)));
    }
    RemoteException e = assertThrows(RemoteException.class, () -> lookup(req));
    assertTrue(e.getMessage().contains("following"), e.getMessage());
    assertEquals(0, counters().getMisses());
  }
}
