package org.mpcache.hdfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.mpcache.common.proto.ClientSlaveProtos.ReportReadRequestProto;
import org.mpcache.common.proto.MpCacheProtos.BlockKeyProto;

/** When a sequential reader's miss lookups go out and what they name and carry, by the ticker. */
class MissLookupsTest {
  private static final long INTERVAL = TimeUnit.MILLISECONDS.toNanos(200);

  private final AtomicLong now = new AtomicLong(1_000);
  private final MissLookups lookups = new MissLookups(INTERVAL, 4, now::get);
  private final SlaveDirectory.Slave a = slave("a");
  private final SlaveDirectory.Slave b = slave("b");

  private static SlaveDirectory.Slave slave(String id) {
    return new SlaveDirectory.Slave(id, null, false, "h", 0, new HashMap<>());
  }

  private static ReportReadRequestProto report(long block) {
    return ReportReadRequestProto.newBuilder().setBlock(BlockKeyProto.newBuilder()
        .setBlockPoolId("BP-1").setBlockId(block).setGenerationStamp(1)).setBytesFromHdfs(1)
        .build();
  }

  @Test
  void defers_withinTheIntervalOfTheLastLookup_onlyThen() {
    assertFalse(lookups.defers(a, false), "no lookup yet");
    lookups.lookedUp();
    now.addAndGet(INTERVAL - 1);
    assertTrue(lookups.defers(a, false));
    now.addAndGet(1);
    assertFalse(lookups.defers(a, false), "the interval has passed");
    assertTrue(lookups.defers(a, true), "the last lookup is unanswered");
  }

  @Test
  void defers_intervalZero_never() {
    MissLookups every = new MissLookups(0, 4, now::get);
    every.lookedUp();
    assertFalse(every.defers(a, true));
  }

  @Test
  void defers_anotherSlavesBlocksOrAFullBatch_no() {
    lookups.lookedUp();
    lookups.defer(1, a);
    assertFalse(lookups.defers(b, false), "one slave's blocks at a time");
    lookups.defer(2, a);
    lookups.defer(3, a);
    assertFalse(lookups.defers(a, false), "the next lookup names its own block and three more");
  }

  @Test
  void named_theSlavesDeferredBlocksInOrderThenItsOwn() {
    lookups.defer(1, a);
    lookups.defer(2, a);
    assertEquals(List.of(7), lookups.named(7, b), "another slave's lookup names only its own");
    assertEquals(List.of(1, 2, 3), lookups.named(3, a));
    assertNull(lookups.takeDeferred(), "named once");
  }

  @Test
  void takeDeferred_handsThemOverOnce() {
    lookups.defer(5, a);
    MissLookups.Batch<Integer> batch = lookups.takeDeferred();
    assertEquals(a, batch.slave());
    assertEquals(List.of(5), batch.items());
    assertNull(lookups.takeDeferred());
  }

  @Test
  void hold_reportsOfOneSlaveRideItsNextLookup() {
    assertNull(lookups.hold(a, report(1)));
    assertNull(lookups.hold(a, report(2)));
    assertEquals(List.of(), lookups.carried(b), "not another slave's lookup");
    assertEquals(List.of(report(1), report(2)), lookups.carried(a));
    assertEquals(List.of(), lookups.carried(a), "carried once");
  }

  @Test
  void hold_anotherSlaveOrAFullBatch_handsTheHeldBackToSend() {
    lookups.hold(a, report(1));
    MissLookups.Batch<ReportReadRequestProto> out = lookups.hold(b, report(2));
    assertEquals(a, out.slave());
    assertEquals(List.of(report(1)), out.items());
    for (int i = 3; i < 6; i++) {
      assertNull(lookups.hold(b, report(i)));
    }
    assertEquals(4, lookups.hold(b, report(6)).items().size(), "a batch holds 4");
  }

  @Test
  void reportsWaitIn_onlyADeferredLookupOfTheirSlave() {
    assertTrue(lookups.reportsWaitIn(null, false), "none held");
    lookups.hold(a, report(1));
    assertTrue(lookups.reportsWaitIn(a, true));
    assertFalse(lookups.reportsWaitIn(a, false), "a lookup already sent will not carry them");
    assertFalse(lookups.reportsWaitIn(b, true));
    assertFalse(lookups.reportsWaitIn(null, false));
  }
}
