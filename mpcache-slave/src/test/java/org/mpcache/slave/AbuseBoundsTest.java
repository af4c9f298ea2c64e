package org.mpcache.slave;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.ClientSlaveProtos.LookupRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReportCorruptRequestProto;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.common.protocolPB.RpcSupport;
import org.mpcache.slave.store.BlockStorage;
import org.mpcache.slave.store.FaultInjectingBlockStorage;
import org.mpcache.slave.store.FaultInjectingBlockStorage.Injection;
import org.mpcache.slave.store.FaultInjectingBlockStorage.Op;

/**
 * What a client can make a slave spend by repeating cheap calls: reports of an intact cached
 * block re-read it once, not once per report; misses naming ever new files leave the fill
 * hold-off's memory of them bounded by the fill queue.
 */
class AbuseBoundsTest {
  private static final int BLOCK = 10_000;

  @TempDir
  Path dir;
  private final FaultInjectingBlockStorage storage =
      new FaultInjectingBlockStorage(BlockStorage.local());
  private SlaveFixture fx;

  private void start(java.util.function.Consumer<Configuration> adjust) throws Exception {
    fx = new SlaveFixture(dir, adjust, () -> new MpCacheSlave() {
      @Override
      protected BlockStorage createBlockStorage(Configuration conf) {
        return storage;
      }
    });
    fx.awaitRegistration();
  }

  @AfterEach
  void stop() {
    storage.clear();
    if (fx != null) {
      fx.close();
    }
  }

  private void reportCorrupt(BlockKey key) throws Exception {
    RpcSupport.call(() -> fx.client().reportCorrupt(null, ReportCorruptRequestProto.newBuilder()
        .setBlock(ProtoConverters.toProto(key)).setReason("checksum mismatch").build()));
  }

  @Test
  void reportCorrupt_repeatedForAnIntactBlock_readsTheBlockOnce() throws Exception {
    start(c -> { });
    BlockKey key = new BlockKey("BP-1", 1, 1);
    byte[] data = new byte[BLOCK];
    new Random(1).nextBytes(data);
    assertTrue(fx.fill(SlaveFixture.access(key, BLOCK, "/a", 1).build(), data));
    try (Injection reads = storage.delay(Op.READ, 0, key)) {
      reportCorrupt(key);
      long once = reads.hits();
      assertTrue(once > 0, "the first report has the block verified");
      for (int i = 0; i < 20; i++) {
        reportCorrupt(key);
      }
      assertEquals(once, reads.hits(), "reads of the block for 21 reports of it");
    }
    assertEquals(1, fx.slave().getStore().cachedBlocks().size(), "the intact block stays");
  }

  @Test
  void lookup_missesOnEverNewFiles_keepTheHoldOffsRecordsWithinTheFillQueue() throws Exception {
    int queue = 4;
    start(c -> {
      c.setInt(SlaveConfigKeys.SLAVE_FILL_QUEUE_KEY, queue);
      // Longer than the test: no record grows old enough to be pruned by age.
      c.setLong(SlaveConfigKeys.FILL_QUIET_MS_KEY, 600_000);
      c.setLong(SlaveConfigKeys.FILL_MAX_DELAY_MS_KEY, 600_000);
    });
    for (int i = 0; i < 50; i++) {
      int n = i;
      RpcSupport.call(() -> fx.client().lookup(null, LookupRequestProto.newBuilder()
          .setAccess(SlaveFixture.access(new BlockKey("BP-1", 100 + n, 1), BLOCK, "/d", 1))
          .setPath("/file-" + n).setBlockOffset(0).build()));
    }
    int records = fx.slave().getFiller().missRecords();
    assertTrue(records <= queue, "files remembered: " + records + ", fill queue: " + queue);
  }
}
