package org.mpcache.slave.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.AccessControlException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.slave.master.DatasetCounters;
import org.mpcache.common.BlockKey;
import org.mpcache.common.domain.DescriptorClient;
import org.mpcache.common.proto.ClientSlaveProtos.DescriptorResponseProto.Status;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.slave.SlaveConfigKeys;
import org.mpcache.slave.security.BlockAccessChecker;
import org.mpcache.slave.space.DynamicSpaceTuner;
import org.mpcache.slave.space.ForegroundActivity;
import org.mpcache.slave.space.SsdVolume;
import org.mpcache.slave.space.TunedInputCacheSpace;
import org.mpcache.slave.store.BlockFill;
import org.mpcache.slave.store.FileBlockStore;
import org.mpcache.slave.store.TestStores;

/** The slave's side of descriptor passing, against the real client over a real socket. */
class DescriptorServerTest {
  private static final int CHUNK = 1024;
  private static final String GOOD_TOKEN = "good";
  private static final BlockKey KEY = new BlockKey("BP-1", 7, 1001);

  @TempDir
  Path dir;
  private FileBlockStore store;
  private final SlaveCounters counters = new SlaveCounters(new DatasetCounters(16, 16, () -> 1L));
  /** On a clock that stands still: it keeps every byte it was told of. */
  private final ForegroundActivity foreground = new ForegroundActivity(1_000, () -> 0L);
  private DescriptorServer server;
  /** The reports to the master; its hits, those of requests that stood for the block's lookup. */
  private final RecordingReports reports = new RecordingReports();
  private final List<BlockAccessProto> hits = reports.hits;
  private Path socket;
  private byte[] data;

  /** Grants what carries the good token, as a block token check would. */
  private static final BlockAccessChecker ACCESS = (block, token) -> {
    if (!GOOD_TOKEN.equals(token)) {
      throw new AccessControlException("Block access token rejected for " + block);
    }
  };

  @BeforeEach
  void start() throws IOException {
    assumeTrue(DescriptorClient.isAvailable(), "needs Netty's native epoll transport");
    Path ssd = Files.createDirectory(dir.resolve("ssd"));
    store = TestStores.open(List.of(ssd), new TunedInputCacheSpace(new DynamicSpaceTuner(
        List.of(SsdVolume.split(ssd.toString(), 1 << 20, 1 << 20, 1.0, 0.0)), 0.5),
        new Object()), CHUNK);
    data = new byte[5000];
    new Random(5).nextBytes(data);
    BlockFill f = store.beginFill(KEY, data.length, "/d", 1, "").orElseThrow();
    f.append(0, ByteBuffer.wrap(data));
    f.commit();
    socket = dir.resolve("s.socket");
    server = new DescriptorServer(socket, new InputCache(store, counters, reports), ACCESS,
        foreground, new ConnectionLimits(16, "max-connections", 10_000, 0));
    server.init(new Configuration(false));
    server.start();
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop();
    }
  }

  private DescriptorClient.Lease request(BlockKey key, String token) throws IOException {
    return request(key, token, null);
  }

  private DescriptorClient.Lease request(BlockKey key, String token, BlockAccessProto access)
      throws IOException {
    return DescriptorClient.request(socket.toString(), ProtoConverters.toProto(key), token,
        access, 10_000, 10_000);
  }

  private static BlockAccessProto accessTo(BlockKey key) {
    return BlockAccessProto.newBuilder().setBlock(ProtoConverters.toProto(key))
        .setBlockBytes(5000).setDatasetId("/d").setDatasetBlocks(1).setJobId("job_1").build();
  }

  private static byte[] readAll(DescriptorClient.Lease l, int n) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(n);
    while (b.hasRemaining() && l.file().read(b, b.position()) > 0) {
      // until full
    }
    return b.array();
  }

  @Test
  void request_grantsTheBlockFileWithItsStoredChecksums() throws IOException {
    assertEquals(socket.toString(), server.advertisedPath());
    DescriptorClient.Lease l = request(KEY, GOOD_TOKEN);
    assertTrue(l.granted());
    assertEquals(Status.GRANTED, l.response().getStatus());
    assertEquals(data.length, l.response().getLength());
    assertEquals(CHUNK, l.response().getChunkSize());
    int[] stored = store.read(KEY, 0, data.length).checksums();
    assertEquals(stored.length, l.response().getChecksumsCount());
    for (int i = 0; i < stored.length; i++) {
      assertEquals(stored[i], l.response().getChecksums(i));
    }
    assertArrayEquals(data, readAll(l, data.length));
    assertEquals(1, store.leasesHeld());
    l.release(3000);
    assertEquals(0, store.leasesHeld(), "the release ended the lease before it returned");
    assertEquals(1, counters.snapshot().getDescriptorsGranted());
    assertEquals(3000, counters.snapshot().getBytesFromCache());
    assertEquals(data.length, foreground.recentBytes(),
        "the SSD's foreground work: the whole block handed out, counted at the grant");
  }

  @Test
  void request_standingForTheLookup_countsItsHitOnAGrantOnly() throws IOException {
    DescriptorClient.Lease l = request(KEY, GOOD_TOKEN, accessTo(KEY));
    assertTrue(l.granted());
    l.release(0);
    assertEquals(List.of(accessTo(KEY)), hits, "the grant counted the lookup's hit");
    BlockKey absent = new BlockKey("BP-1", 9, 1001);
    assertEquals(Status.NOT_CACHED, request(absent, GOOD_TOKEN, accessTo(absent)).response()
        .getStatus());
    assertEquals(Status.REFUSED, request(KEY, "forged", accessTo(KEY)).response().getStatus());
    assertEquals(Status.GRANTED, request(KEY, GOOD_TOKEN).response().getStatus());
    assertEquals(1, hits.size(), "a miss, a refusal and a request without access count none");
  }

  @Test
  void request_whoseAccessNamesAnotherBlock_isRefusedAndCountsNothing() throws IOException {
    DescriptorClient.Lease l = request(KEY, GOOD_TOKEN, accessTo(new BlockKey("BP-1", 8, 1001)));
    assertFalse(l.granted());
    assertEquals(Status.REFUSED, l.response().getStatus());
    assertTrue(l.response().getMessage().contains("another block"), l.response().getMessage());
    assertEquals(List.of(), hits);
    assertEquals(0, store.leasesHeld());
  }

  @Test
  void request_refusedByTheAccessCheckGetsNoDescriptor() throws IOException {
    for (String token : new String[] {"", "forged"}) {
      DescriptorClient.Lease l = request(KEY, token);
      assertFalse(l.granted());
      assertNull(l.file());
      assertEquals(Status.REFUSED, l.response().getStatus());
      assertTrue(l.response().getMessage().contains("rejected"), l.response().getMessage());
    }
    assertEquals(2, counters.snapshot().getDescriptorsRefused());
    assertEquals(0, counters.snapshot().getDescriptorsGranted());
    assertEquals(0, foreground.recentBytes(), "a refusal hands out nothing to read");
    assertEquals(0, store.leasesHeld());
  }

  @Test
  void request_ofABlockNotCachedOrBeingFilledGetsNoDescriptor() throws IOException {
    BlockKey filling = new BlockKey("BP-1", 8, 1001);
    BlockFill f = store.beginFill(filling, 100, "/d", 1, "").orElseThrow();
    for (BlockKey k : new BlockKey[] {new BlockKey("BP-1", 9, 1001), filling}) {
      DescriptorClient.Lease l = request(k, GOOD_TOKEN);
      assertFalse(l.granted());
      assertEquals(Status.NOT_CACHED, l.response().getStatus());
    }
    f.abort();
    assertEquals(0, counters.snapshot().getDescriptorsGranted());
  }

  @Test
  void request_afterEvictionGetsNoDescriptorWhileAHeldOneReadsToItsEnd() throws IOException {
    DescriptorClient.Lease held = request(KEY, GOOD_TOKEN);
    assertTrue(store.remove(KEY));
    DescriptorClient.Lease after = request(KEY, GOOD_TOKEN);
    assertFalse(after.granted(), "no new descriptor of an evicted block");
    assertEquals(Status.NOT_CACHED, after.response().getStatus());
    assertArrayEquals(data, readAll(held, data.length), "the held descriptor reads to its end");
    assertEquals(data.length, store.space().usedBytes(), "its bytes are still on the SSD");
    held.release(data.length);
    assertEquals(0, store.space().usedBytes(), "freed when the last reader closed");
  }

  @Test
  void remove_ofAHeldBlock_revokesItsLeaseWhichReadsOnUntilReleased() throws Exception {
    DescriptorClient.Lease held = request(KEY, GOOD_TOKEN);
    CountDownLatch revoked = new CountDownLatch(1);
    held.onRevoked(revoked::countDown);
    assertTrue(held.held());

    assertTrue(store.remove(KEY));

    assertTrue(revoked.await(10, TimeUnit.SECONDS), "the holder hears of the removal");
    assertFalse(held.held());
    assertArrayEquals(data, readAll(held, data.length), "the revoked file reads to its end");
    assertEquals(data.length, store.space().usedBytes(), "its space held until the release");
    held.release(data.length);
    assertEquals(0, store.space().usedBytes());
  }

  @Test
  void report_onAKeptLease_countsBytesAndTheNewReadersHitAndKeepsTheLease() throws Exception {
    DescriptorClient.Lease kept = request(KEY, GOOD_TOKEN);

    kept.report(1000, null).get(10, TimeUnit.SECONDS);
    kept.report(500, accessTo(KEY)).get(10, TimeUnit.SECONDS);
    kept.report(0, accessTo(new BlockKey("BP-1", 8, 1001))).get(10, TimeUnit.SECONDS);

    assertEquals(1500, counters.snapshot().getBytesFromCache(), "counted once answered");
    assertEquals(List.of(accessTo(KEY)), hits, "an access naming another block counts nothing");
    assertTrue(kept.held());
    assertEquals(1, store.leasesHeld());
    kept.release(200);
    assertEquals(1700, counters.snapshot().getBytesFromCache());
    assertEquals(0, store.leasesHeld());
  }

  @Test
  void start_refusesASocketDirectoryOthersCanWrite() throws IOException {
    Path open = Files.createDirectory(dir.resolve("open"));
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
    DescriptorServer s = new DescriptorServer(open.resolve("s.socket"),
        new InputCache(store, counters, reports), ACCESS, foreground,
        new ConnectionLimits(16, "max-connections", 10_000, 0));
    s.init(new Configuration(false));
    Exception e = assertThrows(Exception.class, s::start);
    assertTrue(String.valueOf(e.getMessage()).contains(SlaveConfigKeys.DOMAIN_SOCKET_PATH_KEY),
        e.getMessage());
    assertTrue(String.valueOf(e.getMessage()).contains("writable by group or others"),
        e.getMessage());
    s.stop();
  }
  @Test
  void checkDirectory_ancestorOthersCanWriteWithoutStickyBit_refusedNamingIt() throws IOException {
    Path open = Files.createDirectory(dir.resolve("open"));
    Path safe = Files.createDirectory(open.resolve("safe"));
    Files.setPosixFilePermissions(safe, PosixFilePermissions.fromString("rwx------"));
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
    IOException e = assertThrows(IOException.class,
        () -> DescriptorServer.checkDirectory(safe.resolve("s.socket")));
    assertTrue(e.getMessage().contains(SlaveConfigKeys.DOMAIN_SOCKET_PATH_KEY), e.getMessage());
    assertTrue(e.getMessage().contains("its ancestor " + open + " "), e.getMessage());
    assertTrue(e.getMessage().contains("sticky"), e.getMessage());
  }

  @Test
  void checkDirectory_ancestorOthersCanWriteWithStickyBit_accepted() throws IOException {
    Path shared = Files.createDirectory(dir.resolve("shared"));
    Path safe = Files.createDirectory(shared.resolve("safe"));
    Files.setPosixFilePermissions(safe, PosixFilePermissions.fromString("rwx------"));
    Files.setAttribute(shared, "unix:mode", 01777);
    DescriptorServer.checkDirectory(safe.resolve("s.socket"));
  }
}
