package org.mpcache.slave.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.mpcache.common.proto.SlaveMasterProtos.DatasetCountersProto;

class DatasetCountersTest {
  private final AtomicLong clock = new AtomicLong(1_000);

  @Test
  void changed_reportsCumulativeFiguresOfChangedDatasetsOnly() {
    DatasetCounters d = new DatasetCounters(10, 10, clock::get);
    d.hit("a");
    d.bytesFromCache("a", 100);
    d.miss("b");
    d.bytesFromHdfs("b", 7);
    DatasetCounters.Report first = d.changed();
    assertEquals(2, first.datasets().size());
    first.taken();
    assertTrue(d.changed().datasets().isEmpty(), "nothing changed since the report was taken");
    d.hit("a");
    d.filled("a");
    d.evicted("a");
    List<DatasetCountersProto> second = d.changed().datasets();
    assertEquals(1, second.size());
    DatasetCountersProto a = second.get(0);
    assertEquals("a", a.getDatasetId());
    assertEquals(2, a.getHits());
    assertEquals(100, a.getBytesFromCache());
    assertEquals(1, a.getFills());
    assertEquals(1, a.getEvictions());
  }

  @Test
  void changed_aReportNotTakenIsSentAgain() {
    DatasetCounters d = new DatasetCounters(10, 10, clock::get);
    d.miss("a");
    d.changed();
    assertEquals(1, d.changed().datasets().size(), "a lost heartbeat loses nothing");
  }

  @Test
  void changed_boundedPerReportLeastRecentlyReportedFirst() {
    DatasetCounters d = new DatasetCounters(10, 2, clock::get);
    for (String id : List.of("a", "b", "c")) {
      d.hit(id);
    }
    DatasetCounters.Report first = d.changed();
    assertEquals(2, first.datasets().size());
    first.taken();
    d.hit("a");
    d.hit("b");
    DatasetCounters.Report second = d.changed();
    assertEquals(2, second.datasets().size());
    assertEquals("c", second.datasets().get(0).getDatasetId(),
        "the dataset left out of the last report goes first");
  }

  @Test
  void add_pastTheBoundForgetsTheLeastRecentlyCounted() {
    DatasetCounters d = new DatasetCounters(2, 10, clock::get);
    d.hit("a");
    d.hit("b");
    d.hit("a");
    d.hit("c");
    assertEquals(2, d.size());
    assertNull(d.get("b"));
    assertEquals(1, d.forgotten(), "b was forgotten before a report was taken");
    DatasetCountersProto firstA = d.get("a");
    d.changed().taken();
    d.hit("b");
    assertNull(d.get("a"), "a is now the least recently counted");
    assertEquals(1, d.forgotten(), "a's figures had been reported");
    assertNotEquals(firstA.getSinceMs(), d.get("b").getSinceMs());
  }

  @Test
  void add_runIdsAreUniqueWithinOneMillisecond() {
    DatasetCounters d = new DatasetCounters(1, 10, clock::get);
    d.hit("a");
    long first = d.get("a").getSinceMs();
    d.hit("b");
    d.hit("a");
    assertTrue(d.get("a").getSinceMs() > first, "a counted again starts a new run");
  }

  @Test
  void add_nullDatasetCountsNowhere() {
    DatasetCounters d = new DatasetCounters(10, 10, clock::get);
    d.bytesFromCache(null, 5);
    assertEquals(0, d.size());
  }

  @Test
  void resendAll_reportsEveryDatasetAgain() {
    DatasetCounters d = new DatasetCounters(10, 10, clock::get);
    d.hit("a");
    d.hit("b");
    d.changed().taken();
    d.resendAll();
    assertEquals(2, d.changed().datasets().size());
  }
}
