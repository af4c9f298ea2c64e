package org.mpcache.slave;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.slave.SlaveFixture.waitFor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.common.BlockKey;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.common.proto.ClientSlaveProtos.LookupRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.LookupResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReadRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReadResponseProto;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.proto.MpCacheProtos.BlockKeyProto;
import org.mpcache.common.proto.SlaveMasterProtos.BlockReportRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.HeartbeatRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.HitReportRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.RegisterSlaveRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.ReplaceRequestProto;
import org.mpcache.common.protocolPB.ClientSlaveProtocolPB;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.common.protocolPB.RpcSupport;

/**
 * A real slave against a {@link FakeMaster}, fed bad or hostile values through its client
 * protocol: each is refused with an error naming the field, and nothing else changes (cached
 * blocks are still served with the right bytes, no space stays reserved, the slave stays
 * registered). Also: I/O errors that are not corruption keep the block, and two slaves cannot
 * share an SSD directory.
 */
class HostileRequestsTest {
  private static final int BLOCK = 200_000;
  private static final BlockKey K1 = new BlockKey("BP-1", 1, 1);
  private static final BlockKey K2 = new BlockKey("BP-1", 2, 1);
  /** The file a lookup names for the slave to fill a missed block from. */
  private static final String FILE = SlaveFixture.UNREACHABLE_HDFS + "/a/f";

  @TempDir
  Path dir;
  private SlaveFixture fixture;
  private Configuration conf;
  private FakeMaster master;
  private MpCacheSlave slave;
  private ClientSlaveProtocolPB client;
  private final Random random = new Random(11);

  @BeforeEach
  void start() throws Exception {
    fixture = new SlaveFixture(dir);
    conf = fixture.conf();
    master = fixture.master();
    slave = fixture.slave();
    client = fixture.client();
    fixture.awaitRegistration();
  }

  @AfterEach
  void stop() {
    if (fixture != null) {
      fixture.close();
    }
  }

  private static BlockAccessProto.Builder access(BlockKeyProto key) {
    return SlaveFixture.access(key, BLOCK, "/a", 2);
  }

  private static BlockAccessProto.Builder access(BlockKey key) {
    return access(ProtoConverters.toProto(key));
  }

  private LookupResponseProto lookup(BlockAccessProto.Builder access) throws IOException {
    return RpcSupport.call(() -> client.lookup(null, LookupRequestProto.newBuilder()
        .setAccess(access).build()));
  }

  private byte[] cache(BlockKey key) throws IOException {
    byte[] data = new byte[BLOCK];
    random.nextBytes(data);
    assertTrue(fixture.fill(access(key).build(), data));
    return data;
  }

  private ReadResponseProto read(BlockKey key, long offset, int length) throws IOException {
    return RpcSupport.call(() -> client.read(null, ReadRequestProto.newBuilder()
        .setBlock(ProtoConverters.toProto(key)).setOffset(offset).setLength(length).build()));
  }

  /** The block is cached and served with the right bytes. */
  private void assertServed(BlockKey key, byte[] data) throws IOException {
    assertEquals(List.of(key), slave.getStore().cachedBlocks());
    ReadResponseProto r = read(key, 70_000, 1000);
    byte[] got = r.getData().toByteArray();
    byte[] want = new byte[got.length];
    System.arraycopy(data, (int) r.getOffset(), want, 0, got.length);
    assertArrayEquals(want, got);
  }

  private List<BlockKey> reportedRemoved() {
    List<BlockKey> out = new ArrayList<>();
    for (BlockReportRequestProto r : master.received(BlockReportRequestProto.class)) {
      out.addAll(ProtoConverters.fromProtos(r.getRemovedList()));
    }
    return out;
  }

  /** Asserts the call fails with a remote error whose message names {@code field}. */
  private static void assertRefused(String field, RpcSupport.Call<?> call) {
    IOException e = assertThrows(IOException.class, () -> RpcSupport.call(call));
    assertTrue(e.getMessage().contains(field), "the error names " + field + ": " + e);
  }

  @Test
  void read_lengthAtOrAbove2To31_refusedAndTheBlockStaysCached() throws Exception {
    byte[] data = cache(K1);
    assertRefused("length", () -> client.read(null, ReadRequestProto.newBuilder()
        .setBlock(ProtoConverters.toProto(K1)).setOffset(0).setLength(Integer.MIN_VALUE)
        .build()));
    assertServed(K1, data);
    assertEquals(0, slave.getCounters().snapshot().getBlocksCorrupt());
    assertEquals(List.of(), reportedRemoved());
  }

  @Test
  void read_offsetBeyondTheBlockOrNegative_refusedAndTheBlockStaysCached() throws Exception {
    byte[] data = cache(K1);
    for (long offset : new long[] {BLOCK + 1, -1L}) {
      assertRefused("offset", () -> client.read(null, ReadRequestProto.newBuilder()
          .setBlock(ProtoConverters.toProto(K1)).setOffset(offset).setLength(1000).build()));
    }
    assertServed(K1, data);
    assertEquals(0, slave.getCounters().snapshot().getBlocksCorrupt());
  }

  @Test
  void read_ioErrorThatIsNotCorruption_failsTheReadAndKeepsTheBlock() throws Exception {
    byte[] data = cache(K1);
    Path file = slave.getStore().blockFile(K1).orElseThrow();
    Path aside = file.resolveSibling("aside");
    // A directory where the block file was: opening succeeds, reading fails with EISDIR, an
    // I/O error like EIO that says nothing about the block's bytes.
    Files.move(file, aside);
    Files.createDirectory(file);
    assertThrows(IOException.class, () -> read(K1, 0, 1000));
    assertEquals(List.of(K1), slave.getStore().cachedBlocks(), "the block was not dropped");
    assertEquals(0, slave.getCounters().snapshot().getBlocksCorrupt());
    assertEquals(1, slave.getCounters().snapshot().getReadErrors(), "the error is counted");
    Files.delete(file);
    Files.move(aside, file);
    assertServed(K1, data);
  }

  @Test
  void read_fileShorterThanRecorded_dropsTheBlock() throws Exception {
    cache(K1);
    Path file = slave.getStore().blockFile(K1).orElseThrow();
    try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(file.toFile(), "rw")) {
      f.setLength(BLOCK / 2);
    }
    assertThrows(IOException.class, () -> read(K1, 150_000, 1000));
    assertEquals(List.of(), slave.getStore().cachedBlocks());
    assertEquals(1, slave.getCounters().snapshot().getBlocksCorrupt());
    waitFor(() -> reportedRemoved().contains(K1), "the removal reported");
  }

  @Test
  void lookup_nulInThePoolId_refusedWithoutReservingSpace() throws Exception {
    byte[] data = cache(K1);
    long free = slave.getStore().space().freeBytes();
    BlockKeyProto bad = BlockKeyProto.newBuilder().setBlockPoolId("BP-\u00001")
        .setBlockId(2).setGenerationStamp(1).build();
    assertRefused("blockPoolId", () -> client.lookup(null, LookupRequestProto.newBuilder()
        .setAccess(access(bad)).setPath(FILE).setBlockOffset(0).build()));
    assertEquals(free, slave.getStore().space().freeBytes(), "no space stays reserved");
    assertEquals(0, slave.getFiller().readerFillsPending(), "no fill queued");
    assertServed(K1, data);
    assertTrue(master.received(ReplaceRequestProto.class).size() == 1,
        "the master was not asked to admit the bad key");
  }

  @Test
  void lookup_overlongPoolId_refusedWithoutReservingSpace() throws Exception {
    long free = slave.getStore().space().freeBytes();
    BlockKeyProto bad = BlockKeyProto.newBuilder().setBlockPoolId("BP-" + "9".repeat(300))
        .setBlockId(2).setGenerationStamp(1).build();
    assertRefused("blockPoolId", () -> client.lookup(null, LookupRequestProto.newBuilder()
        .setAccess(access(bad)).setPath(FILE).setBlockOffset(0).build()));
    assertEquals(free, slave.getStore().space().freeBytes());
    assertEquals(0, slave.getFiller().readerFillsPending(), "no fill queued");
    assertTrue(master.received(ReplaceRequestProto.class).isEmpty());
  }

  @Test
  void lookup_blockBytesZeroOrAbsurd_refusedBeforeAskingTheMaster() throws Exception {
    long free = slave.getStore().space().freeBytes();
    for (long bytes : new long[] {0, -1L, 3L << 30}) {
      assertRefused("blockBytes", () -> client.lookup(null, LookupRequestProto.newBuilder()
          .setAccess(access(K2).setBlockBytes(bytes)).setPath(FILE).setBlockOffset(0).build()));
    }
    assertTrue(master.received(ReplaceRequestProto.class).isEmpty(), "the master was not asked");
    assertEquals(free, slave.getStore().space().freeBytes());
    assertEquals(0, slave.getFiller().readerFillsPending(), "no fill queued");
  }

  @Test
  void lookup_hitWithBadDatasetFields_refusedAndNotReportedToTheMaster() throws Exception {
    byte[] data = cache(K1);
    assertRefused("datasetBlocks", () -> client.lookup(null, LookupRequestProto.newBuilder()
        .setAccess(access(K1).setDatasetBlocks(0)).build()));
    assertRefused("datasetId", () -> client.lookup(null, LookupRequestProto.newBuilder()
        .setAccess(access(K1).setDatasetId("")).build()));
    assertEquals(LookupResponseProto.Status.HIT, lookup(access(K1)).getStatus());
    waitFor(() -> !master.received(HitReportRequestProto.class).isEmpty(), "a hit report");
    List<BlockAccessProto> hits = new ArrayList<>();
    master.received(HitReportRequestProto.class).forEach(h -> hits.addAll(h.getHitsList()));
    assertEquals(List.of(access(K1).build()), hits, "only the valid hit was reported");
    assertServed(K1, data);
  }

  @Test
  void hitReport_refusedByTheMaster_slaveStaysRegisteredAndKeepsItsCache() throws Exception {
    byte[] data = cache(K1);
    master.setFault(HitReportRequestProto.class, FakeMaster.Fault.FAIL);
    assertEquals(LookupResponseProto.Status.HIT, lookup(access(K1)).getStatus());
    waitFor(() -> !master.received(HitReportRequestProto.class).isEmpty(), "a hit report");
    int beats = master.received(HeartbeatRequestProto.class).size();
    waitFor(() -> master.received(HeartbeatRequestProto.class).size() >= beats + 3,
        "three more heartbeats");
    assertEquals(1, master.received(RegisterSlaveRequestProto.class).size(),
        "a refused hit report does not make the slave register again");
    assertServed(K1, data);
  }

  @Test
  void start_secondSlaveOnTheSameDir_failsNamingTheDirAndTheKey() throws Exception {
    byte[] data = cache(K1);
    MpCacheSlave second = new MpCacheSlave();
    try {
      Exception e = assertThrows(Exception.class, () -> {
        second.init(new Configuration(conf));
        second.start();
      });
      String all = String.valueOf(e.getMessage()) + " / " + e.getCause();
      assertTrue(all.contains(dir.resolve("ssd").toString())
          && all.contains(MpCacheConfigKeys.SLAVE_CACHE_DIRS_KEY), all);
    } finally {
      second.stop();
    }
    assertServed(K1, data);
    assertTrue(Files.exists(slave.getStore().blockFile(K1).orElseThrow()));
  }

  @Test
  void stop_releasesTheDirLockForTheNextSlave() throws Exception {
    byte[] data = cache(K1);
    slave.getMasterLink().setUnregisterOnStop(false);
    fixture.restartSlave();
    slave = fixture.slave();
    client = fixture.client();
    assertFalse(slave.getStore().cachedBlocks().isEmpty(), "the restarted slave kept the block");
    assertServed(K1, data);
  }
}
