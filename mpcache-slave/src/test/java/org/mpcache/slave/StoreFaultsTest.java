package org.mpcache.slave;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.ClientSlaveProtos.ReadRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReadResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReportCorruptRequestProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;
import org.mpcache.common.protocolPB.ClientSlaveProtocolPB;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.common.protocolPB.RpcSupport;
import org.mpcache.slave.cache.FillAdmission;
import org.mpcache.slave.cache.FillRequest;
import org.mpcache.slave.cache.MissReason;
import org.mpcache.slave.store.BlockFill;
import org.mpcache.slave.store.BlockStorage;
import org.mpcache.slave.store.FaultInjectingBlockStorage;
import org.mpcache.slave.store.FaultInjectingBlockStorage.Errno;
import org.mpcache.slave.store.FaultInjectingBlockStorage.Injection;
import org.mpcache.slave.store.FaultInjectingBlockStorage.Op;
import org.mpcache.slave.store.FileBlockStore;

/**
 * A real slave whose SSD fails under it ({@link FaultInjectingBlockStorage}), its blocks filled
 * as its filler fills them and read through its client protocol: a full disk costs the fill it hits and nothing else (no space stays reserved,
 * no block stays filling, no partial file stays behind); an I/O error or a lack of descriptors
 * fails the read it hits and keeps the block, which the next read serves.
 */
class StoreFaultsTest {
  private static final int BLOCK = 100_000;
  private static final BlockKey K1 = new BlockKey("BP-1", 1, 1);
  private static final BlockKey K2 = new BlockKey("BP-1", 2, 1);
  private static final BlockKey K3 = new BlockKey("BP-1", 3, 1);

  @TempDir
  Path dir;
  private final FaultInjectingBlockStorage storage =
      new FaultInjectingBlockStorage(BlockStorage.local());
  private SlaveFixture fixture;
  private MpCacheSlave slave;
  private ClientSlaveProtocolPB client;
  private final Random random = new Random(13);

  @BeforeEach
  void start() throws Exception {
    fixture = new SlaveFixture(dir, c -> { }, () -> new MpCacheSlave() {
      @Override
      protected BlockStorage createBlockStorage(Configuration conf) {
        return storage;
      }
    });
    slave = fixture.slave();
    client = fixture.client();
    fixture.awaitRegistration();
  }

  @AfterEach
  void stop() {
    storage.clear();
    if (fixture != null) {
      fixture.close();
    }
  }

  private byte[] bytes() {
    byte[] data = new byte[BLOCK];
    random.nextBytes(data);
    return data;
  }

  private byte[] cache(BlockKey key) throws IOException {
    byte[] data = bytes();
    assertTrue(fixture.fill(SlaveFixture.access(key, BLOCK, "/a", 3).build(), data));
    return data;
  }

  /** A fill of {@code key} as the slave's filler opens it, admitted by the master. */
  private FillAdmission.Result admit(BlockKey key) {
    return fixture.admission().admit(FillRequest.of(SlaveFixture.access(key, BLOCK, "/a", 3)
        .build(), SlaveFixture.UNREACHABLE_HDFS + "/a/f", 0));
  }

  private BlockFill beginFill(BlockKey key) {
    FillAdmission.Result a = admit(key);
    assertTrue(a.admitted(), () -> "admitted: " + a.missReason());
    return a.fill();
  }

  /** Writes bytes as the filler does: false, and the fill aborted, when the store fails it. */
  private static boolean write(BlockFill fill, byte[] data, int from, int to) {
    try {
      fill.append(from, ByteBuffer.wrap(data, from, to - from));
      return true;
    } catch (IOException e) {
      fill.abort();
      return false;
    }
  }

  /** Commits as the filler does: false, and the fill aborted, when the store fails it. */
  private boolean commit(BlockFill fill) {
    try {
      fill.commit();
    } catch (IOException e) {
      fill.abort();
      return false;
    }
    fixture.inputCache().cached(fill.key(), fill.datasetId());
    return true;
  }

  private byte[] read(BlockKey key) throws IOException {
    ReadResponseProto r = RpcSupport.call(() -> client.read(null, ReadRequestProto.newBuilder()
        .setBlock(ProtoConverters.toProto(key)).setOffset(0).setLength(BLOCK).build()));
    return r.getData().toByteArray();
  }

  private FileBlockStore store() {
    return slave.getStore();
  }

  private SlaveCountersProto counters() {
    return slave.getCounters().snapshot();
  }

  /** The files under the SSD dir's {@code tmp}, where fills are written. */
  private List<Path> fillFiles() throws IOException {
    try (Stream<Path> s = Files.list(dir.resolve("ssd").resolve("tmp"))) {
      return s.toList();
    }
  }

  @Test
  void write_noSpaceLeftMidFill_abortsThatFillOnly() throws Exception {
    byte[] cached = cache(K1);
    byte[] other = bytes();
    BlockFill otherFill = beginFill(K3);
    assertTrue(write(otherFill, other, 0, BLOCK / 2));
    byte[] data = bytes();
    BlockFill fill = beginFill(K2);
    assertTrue(write(fill, data, 0, BLOCK / 2));
    long usedBefore = store().space().usedBytes();

    try (Injection full = storage.fail(Op.WRITE, Errno.ENOSPC, K2)) {
      assertFalse(write(fill, data, BLOCK / 2, BLOCK), "a write the disk has no room for");
      assertEquals(1, full.hits());
    }

    assertEquals(Optional.empty(), store().state(K2), "no entry of the failed fill stays");
    assertEquals(usedBefore - BLOCK, store().space().usedBytes(), "its reservation is released");
    assertFalse(commit(fill), "the failed fill is gone");
    assertTrue(write(otherFill, other, BLOCK / 2, BLOCK), "another fill goes on");
    assertTrue(commit(otherFill));
    assertEquals(List.of(), fillFiles(), "no partial file stays behind");
    assertArrayEquals(cached, read(K1));
    assertArrayEquals(other, read(K3));
    assertTrue(fixture.fill(SlaveFixture.access(K2, BLOCK, "/a", 3).build(), data),
        "the block can be filled again");
    assertArrayEquals(data, read(K2));
  }

  @Test
  void admit_fileSystemFilledFromOutside_startsNoFillAndSaysWhy() throws Exception {
    byte[] cached = cache(K1);
    // Room for the block's bytes but not its checksums: the Input Cache's own accounting has
    // room, the file system has not (something else filled the SSD).
    storage.usableAtMost(BLOCK);
    FillAdmission.Result r = admit(K2);

    assertFalse(r.admitted(), "no fill is started on a file system without room for it");
    assertEquals(MissReason.SSD_ERROR, r.refusal());
    assertTrue(r.missReason().contains("bytes usable"), r.missReason());
    assertEquals(Optional.empty(), store().state(K2), "no entry of the refused fill");
    assertEquals(BLOCK, store().space().usedBytes(), "no space stays reserved for it");
    assertEquals(List.of(), fillFiles(), "no file was created");
    assertArrayEquals(cached, read(K1), "what was cached is still served");

    storage.usableAtMost(Long.MAX_VALUE);
    byte[] data = bytes();
    BlockFill fill = beginFill(K2);
    assertTrue(write(fill, data, 0, BLOCK));
    assertTrue(commit(fill), "once there is room the block fills");
    assertArrayEquals(data, read(K2));
  }

  @Test
  void commit_noSpaceLeftForTheChecksumFile_leavesNoPartialFile() throws Exception {
    byte[] data = bytes();
    BlockFill fill = beginFill(K2);
    assertTrue(write(fill, data, 0, BLOCK));

    try (Injection full = storage.fail(Op.WRITE, Errno.ENOSPC, K2)) {
      assertFalse(commit(fill), "a commit whose checksum file does not fit");
      assertEquals(1, full.hits());
    }

    assertEquals(Optional.empty(), store().state(K2));
    assertEquals(0, store().space().usedBytes());
    assertEquals(List.of(), fillFiles(), "no partial file stays behind");
    assertTrue(fixture.fill(SlaveFixture.access(K2, BLOCK, "/a", 3).build(), data));
    assertArrayEquals(data, read(K2));
  }

  @Test
  void commit_syncFails_theBlockIsNotPublished() throws Exception {
    byte[] data = bytes();
    BlockFill fill = beginFill(K2);
    assertTrue(write(fill, data, 0, BLOCK));

    try (Injection sync = storage.fail(Op.SYNC, Errno.EIO, K2)) {
      assertFalse(commit(fill), "a commit whose bytes cannot be forced to the device");
      assertEquals(1, sync.hits());
    }

    assertEquals(Optional.empty(), store().state(K2));
    assertEquals(List.of(), fillFiles(), "no file stays behind");
  }

  @Test
  void commit_ioErrorOnRenameAndDelete_releasesTheFill() throws Exception {
    byte[] cached = cache(K1);
    byte[] data = bytes();
    BlockFill fill = beginFill(K2);
    assertTrue(write(fill, data, 0, BLOCK));

    try (Injection rename = storage.fail(Op.MOVE, Errno.EIO, K2);
        Injection delete = storage.fail(Op.DELETE, Errno.EIO, K2)) {
      assertFalse(commit(fill), "a commit whose rename fails");
      assertTrue(rename.hits() >= 1 && delete.hits() >= 1, rename + ", " + delete);
    }

    assertEquals(Optional.empty(), store().state(K2), "the block is not left filling");
    assertEquals(BLOCK, store().space().usedBytes(), "only the cached block holds space");
    assertEquals(List.of(K1), store().cachedBlocks());
    assertArrayEquals(cached, read(K1));
  }

  @ParameterizedTest
  @EnumSource(value = Errno.class, names = {"EIO", "EMFILE"})
  void read_errorThatIsNotCorruption_failsThatReadAndKeepsTheBlock(Errno errno)
      throws Exception {
    byte[] data = cache(K1);
    byte[] other = cache(K2);

    try (Injection fault = storage.fail(Op.READ, errno, K1)) {
      IOException e = assertThrows(IOException.class, () -> read(K1));
      assertTrue(e.getMessage().contains(errno.message()), "the client is told why: " + e);
      assertArrayEquals(other, read(K2), "other blocks are served meanwhile");
      RpcSupport.call(() -> client.reportCorrupt(null, ReportCorruptRequestProto.newBuilder()
          .setBlock(ProtoConverters.toProto(K1)).setReason("test").build()));
      assertEquals(2, fault.hits(), "the read, and the verification of the report");
    }

    assertEquals(Arrays.asList(K1, K2), store().cachedBlocks().stream().sorted().toList(),
        "the block was not dropped");
    assertEquals(0, counters().getBlocksCorrupt());
    assertEquals(2, counters().getReadErrors(), "both errors are counted");
    assertArrayEquals(data, read(K1), "a later read is served");
  }
}
