package org.mpcache.slave;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.ClientSlaveProtos.ReadRequestProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;
import org.mpcache.common.protocolPB.ClientSlaveProtocolPB;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.common.protocolPB.RpcSupport;
import org.mpcache.slave.cache.BlockFileCheck;
import org.mpcache.slave.store.FileBlockStore;
import org.mpcache.slave.verify.BlockChecksumSource;
import org.mpcache.slave.verify.BlockChecksumSource.HdfsBlockCrc;

/**
 * A fill becomes readable only when HDFS vouches for its bytes: a real slave against a
 * {@link FakeMaster}, with a fake {@link BlockChecksumSource} standing in for the DataNodes.
 */
class FillVerificationTest {
  private static final int BLOCK = 100_000;
  private static final BlockKey KEY = new BlockKey("BP-1", 7, 1);

  @TempDir
  Path dir;
  private SlaveFixture fixture;
  private MpCacheSlave slave;
  private final Random random = new Random(5);
  /** What the fake DataNodes answer. */
  private volatile Optional<HdfsBlockCrc> answer = Optional.empty();
  private volatile String askedToken;
  private volatile List<String> askedReplicas;
  /** Runs in the fake DataNode's answer, before it is given. */
  private volatile Runnable whileVerifying = () -> { };

  @BeforeEach
  void start() throws Exception {
    fixture = new SlaveFixture(dir, conf -> conf.setBoolean(SlaveConfigKeys.FILL_VERIFY_KEY, true),
        () -> new MpCacheSlave() {
          @Override
          protected BlockChecksumSource createChecksumSource(Configuration c) {
            return (block, length, token, replicas) -> {
              askedToken = token;
              askedReplicas = replicas;
              whileVerifying.run();
              return answer;
            };
          }

          @Override
          protected BlockFileCheck createBlockFileCheck(Configuration c) {
            // The NameNode has each block in the file named.
            return (key, path, offset, length) -> true;
          }
        });
    fixture.awaitRegistration();
    slave = fixture.slave();
  }

  @AfterEach
  void stop() {
    if (fixture != null) {
      fixture.close();
    }
  }

  private byte[] bytes() {
    byte[] b = new byte[BLOCK];
    random.nextBytes(b);
    return b;
  }

  private static int crc32c(byte[] b) {
    CRC32C c = new CRC32C();
    c.update(b);
    return (int) c.getValue();
  }

  /** Offers, writes and commits {@code data} as KEY; whether the slave cached it. */
  private boolean fill(byte[] data) throws IOException {
    return fixture.fill(SlaveFixture.access(KEY, BLOCK, "/d", 1).build(), data,
        "127.0.0.1:9866", "127.0.0.2:9866");
  }

  @Test
  void commit_mismatch_isNotCommittedReleasesSpaceAndCounts() throws Exception {
    byte[] hdfs = bytes();
    byte[] altered = hdfs.clone();
    altered[BLOCK / 2] ^= 1;
    answer = Optional.of(new HdfsBlockCrc(true, crc32c(hdfs), "dn"));
    long used = slave.getStore().space().usedBytes();

    assertFalse(fill(altered), "altered bytes are not committed");

    assertTrue(slave.getStore().cachedLength(KEY) < 0, "nothing readable");
    assertEquals(used, slave.getStore().space().usedBytes(), "the fill's space is released");
    assertEquals(0, slave.fillsInProgress());
    SlaveCountersProto c = slave.getCounters().snapshot();
    assertEquals(1, c.getFillsRejectedMismatch());
    assertEquals(0, c.getFillsRejectedUnverifiable());
    assertEquals(0, c.getBlocksCached());
    assertEquals("", askedToken, "the client's (empty) token goes to the DataNode");
    assertEquals(List.of("127.0.0.1:9866", "127.0.0.2:9866"), askedReplicas,
        "the client's replicas, in its order");
  }

  @Test
  void commit_unverifiable_isNotCommittedAndCounts() throws Exception {
    answer = Optional.empty();
    long used = slave.getStore().space().usedBytes();

    assertFalse(fill(bytes()), "bytes no DataNode vouches for are not committed");

    assertTrue(slave.getStore().cachedLength(KEY) < 0);
    assertEquals(used, slave.getStore().space().usedBytes());
    SlaveCountersProto c = slave.getCounters().snapshot();
    assertEquals(1, c.getFillsRejectedUnverifiable());
    assertEquals(0, c.getFillsRejectedMismatch());
  }

  @Test
  void commit_match_isCommittedAndServed() throws Exception {
    byte[] data = bytes();
    answer = Optional.of(new HdfsBlockCrc(true, crc32c(data), "dn"));

    assertTrue(fill(data), "bytes HDFS vouches for are committed");

    assertEquals(BLOCK, slave.getStore().cachedLength(KEY));
    ClientSlaveProtocolPB client = fixture.client();
    assertArrayEquals(data, RpcSupport.call(() -> client.read(null, ReadRequestProto.newBuilder()
        .setBlock(ProtoConverters.toProto(KEY)).setOffset(0).setLength(BLOCK).build()))
        .getData().toByteArray());
    assertEquals(1, slave.getCounters().snapshot().getBlocksCached());
  }

  @Test
  void commit_matchOfACrc32DataNode_isCommitted() throws Exception {
    byte[] data = bytes();
    CRC32 crc = new CRC32();
    crc.update(data);
    answer = Optional.of(new HdfsBlockCrc(false, (int) crc.getValue(), "dn"));

    assertTrue(fill(data), "a DataNode keeping CRC32 vouches as well");
  }

  @Test
  void commit_whileVerifying_countsAsAFillInProgress() throws Exception {
    byte[] data = bytes();
    answer = Optional.of(new HdfsBlockCrc(true, crc32c(data), "dn"));
    CountDownLatch asked = new CountDownLatch(1);
    CountDownLatch answered = new CountDownLatch(1);
    whileVerifying = () -> {
      asked.countDown();
      try {
        answered.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    };
    ExecutorService committer = Executors.newSingleThreadExecutor();
    try {
      Future<Boolean> cached = committer.submit(() -> fill(data));
      assertTrue(asked.await(30, TimeUnit.SECONDS), "the slave asked HDFS to vouch");

      assertEquals(1, slave.fillsInProgress(), "a fill being verified is still in progress");
      assertEquals(Optional.of(FileBlockStore.State.FILLING), slave.getStore().state(KEY));

      answered.countDown();
      assertTrue(cached.get(30, TimeUnit.SECONDS));
      assertEquals(0, slave.fillsInProgress());
      assertEquals(Optional.of(FileBlockStore.State.CACHED), slave.getStore().state(KEY));
    } finally {
      answered.countDown();
      committer.shutdownNow();
    }
  }

  @Test
  void commit_verificationFailsUnexpectedly_abortsTheFill() throws Exception {
    long used = slave.getStore().space().usedBytes();
    whileVerifying = () -> {
      throw new IllegalStateException("injected: the checksum source broke");
    };

    assertThrows(IOException.class, () -> fill(bytes()), "the commit fails");

    assertEquals(Optional.empty(), slave.getStore().state(KEY), "no block left FILLING");
    assertEquals(used, slave.getStore().space().usedBytes(), "the fill's space is released");
    assertEquals(0, slave.fillsInProgress());
    assertEquals(0, slave.getCounters().snapshot().getBlocksCached());
  }
}
