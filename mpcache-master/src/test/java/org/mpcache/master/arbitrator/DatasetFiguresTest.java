package org.mpcache.master.arbitrator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.mpcache.common.proto.AdminProtos.DatasetStatusProto;
import org.mpcache.common.proto.SlaveMasterProtos.DatasetCountersProto;

class DatasetFiguresTest {

  private static DatasetCountersProto run(long since, long hits, long misses, long fromCache,
      long fromHdfs) {
    return DatasetCountersProto.newBuilder().setDatasetId("d").setSinceMs(since).setHits(hits)
        .setMisses(misses).setBytesFromCache(fromCache).setBytesFromHdfs(fromHdfs).setFills(misses)
        .setEvictions(0).build();
  }

  @Test
  void report_sumsTheLatestReportOfEachSlave() {
    DatasetFigures f = new DatasetFigures();
    f.report("s1", run(1, 1, 2, 100, 200));
    f.report("s2", run(7, 3, 0, 300, 0));
    f.report("s1", run(1, 2, 2, 150, 200));
    DatasetFigures.Totals t = f.totals();
    assertEquals(5, t.hits());
    assertEquals(2, t.misses());
    assertEquals(450, t.bytesFromCache());
    assertEquals(200, t.bytesFromHdfs());
    assertEquals(2, t.fills());
    assertEquals(450 / 650.0, t.byteHitRatio(), 1e-12);
  }

  @Test
  void report_sameReportTwiceDoesNotDoubleCount() {
    DatasetFigures f = new DatasetFigures();
    f.report("s1", run(1, 4, 1, 40, 10));
    f.report("s1", run(1, 4, 1, 40, 10));
    assertEquals(4, f.totals().hits());
    assertEquals(50, f.totals().bytesRead());
  }

  @Test
  void report_slaveRestartWithLowerCountersAddsTheNewRun() {
    DatasetFigures f = new DatasetFigures();
    f.report("s1", run(1, 10, 5, 1000, 500));
    // The slave restarted: a new run, counting from zero.
    f.report("s1", run(2, 3, 1, 300, 100));
    assertEquals(13, f.totals().hits());
    assertEquals(1300, f.totals().bytesFromCache());
    // Its next heartbeat: the new run grew; the old run is counted once.
    f.report("s1", run(2, 5, 1, 500, 100));
    assertEquals(15, f.totals().hits());
    assertEquals(6, f.totals().misses());
    assertEquals(1500, f.totals().bytesFromCache());
    assertEquals(600, f.totals().bytesFromHdfs());
  }

  @Test
  void report_restartedSlaveAheadOfItsOldRunIsStillANewRun() {
    DatasetFigures f = new DatasetFigures();
    f.report("s1", run(1, 2, 0, 20, 0));
    f.report("s1", run(2, 9, 0, 90, 0));
    assertEquals(11, f.totals().hits(), "a new run id is a new run, whatever its figures");
  }

  @Test
  void report_lowerFiguresOfTheSameRunNeverLowerTheTotals() {
    DatasetFigures f = new DatasetFigures();
    f.report("s1", run(1, 8, 2, 80, 20));
    f.report("s1", run(1, 6, 3, 60, 30));
    DatasetFigures.Totals t = f.totals();
    assertEquals(8, t.hits());
    assertEquals(3, t.misses());
    assertEquals(80, t.bytesFromCache());
    assertEquals(30, t.bytesFromHdfs());
  }

  @Test
  void report_totalsSaturateInsteadOfWrapping() {
    DatasetFigures f = new DatasetFigures();
    f.report("s1", run(1, Long.MAX_VALUE, 0, Long.MAX_VALUE, 0));
    f.report("s2", run(1, Long.MAX_VALUE, 0, 1, 0));
    assertEquals(Long.MAX_VALUE, f.totals().hits());
    assertTrue(f.totals().bytesFromCache() > 0);
  }

  @Test
  void describe_setsTheRatioOnlyOnceBytesWereRead() {
    DatasetFigures f = new DatasetFigures();
    f.report("s1", run(1, 0, 1, 0, 0));
    DatasetStatusProto.Builder p = DatasetStatusProto.newBuilder();
    f.describe(p);
    assertEquals(1, p.getMisses());
    assertFalse(p.hasByteHitRatio());
    f.report("s1", run(1, 1, 1, 30, 10));
    f.describe(p);
    assertEquals(0.75, p.getByteHitRatio(), 1e-12);
  }
}
