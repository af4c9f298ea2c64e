package org.mpcache.slave.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.mpcache.common.BlockKey;

/** Which corruption reports have a block re-read: once per block and a few per caller a minute. */
class CorruptReportLimiterTest {
  private static final long INTERVAL = 1_000;

  /** A report of block {@code id} by {@code caller} at {@code now}. */
  private record Report(long id, String caller, long now) {
  }

  private static Report report(long id, String caller, long now) {
    return new Report(id, caller, now);
  }

  /** Whether each report, in order, may have its block verified. */
  private static List<Boolean> allowed(CorruptReportLimiter l, Report... reports) {
    List<Boolean> out = new ArrayList<>();
    for (Report r : reports) {
      out.add(l.allow(new BlockKey("BP-1", r.id(), 1), r.caller(), r.now()));
    }
    return out;
  }

  @Test
  void allow_sameBlockWithinTheInterval_onlyTheFirstWhoeverReports() {
    assertEquals(List.of(true, false, true), allowed(new CorruptReportLimiter(INTERVAL, 8, 100),
        report(1, "a", 0), report(1, "b", INTERVAL - 1), report(1, "b", INTERVAL)));
  }

  @Test
  void allow_oneCallerOverManyBlocks_itsShareThenNoneUntilTheIntervalPasses() {
    // Caller b has a share of its own; a's comes back once the interval has passed.
    assertEquals(List.of(true, true, false, true, true),
        allowed(new CorruptReportLimiter(INTERVAL, 2, 100), report(1, "a", 0),
            report(2, "a", 1), report(3, "a", 2), report(3, "b", 3), report(4, "a", INTERVAL)));
  }

  @Test
  void allow_moreCallersThanTracked_refusesNewOnesUntilOldRecordsExpire() {
    assertEquals(List.of(true, true, false, true),
        allowed(new CorruptReportLimiter(INTERVAL, 8, 2), report(1, "a", 0), report(2, "b", 0),
            report(3, "c", 1), report(3, "c", INTERVAL)));
  }
}
