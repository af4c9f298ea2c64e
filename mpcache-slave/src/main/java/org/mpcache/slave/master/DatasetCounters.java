package org.mpcache.slave.master;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.mpcache.common.proto.SlaveMasterProtos.DatasetCountersProto;

/**
 * The slave's figures per dataset, for the master's per-dataset table ({@code mpcache admin
 * datasets -stats}): lookups that hit and missed, bytes readers read from the SSD and from HDFS,
 * blocks cached and evicted. A hit, its bytes, a fill and an eviction count for the dataset the
 * block was cached for (recorded with the block on the SSD); a miss and its HDFS bytes for the
 * dataset the reader named. Each dataset's figures are cumulative from the moment the slave began
 * counting it ({@code sinceMs}, a run id unique on this slave), so a heartbeat the master missed
 * loses nothing: the next one carries the latest values.
 *
 * <p>Bounded: at most {@code maxDatasets} datasets are counted; a new one past the bound makes
 * room by forgetting the least recently counted dataset (its figures so far stay at the master
 * once reported; a dataset counted again later starts a new run). A heartbeat carries at most
 * {@code maxPerReport} datasets whose figures changed since the last report the master took, the
 * least recently reported first; the others follow in later heartbeats.
 *
 * <p>Thread-safe: counters are atomic and the table concurrent. An event racing with the
 * forgetting of its dataset may be lost to the per-dataset figures (never to the slave's totals).
 */
public final class DatasetCounters {
  private final int maxDatasets;
  private final int maxPerReport;
  private final LongSupplier wallClock;
  private final Map<String, Run> runs = new ConcurrentHashMap<>();
  /** The last run id handed out: run ids are wall-clock stamps made strictly increasing. */
  private final AtomicLong lastSince = new AtomicLong();
  /** Orders events, to find the least recently counted dataset. */
  private final AtomicLong ticks = new AtomicLong();
  private final AtomicLong forgotten = new AtomicLong();

  /** One dataset's figures since {@code since}. */
  static final class Run {
    final String datasetId;
    final long since;
    final AtomicLong hits = new AtomicLong();
    final AtomicLong misses = new AtomicLong();
    final AtomicLong bytesFromCache = new AtomicLong();
    final AtomicLong bytesFromHdfs = new AtomicLong();
    final AtomicLong fills = new AtomicLong();
    final AtomicLong evictions = new AtomicLong();
    /** The tick of the last event; a report of the figures is current while it is unchanged. */
    volatile long lastTick;
    /** The tick the master last took a report at; -1 before the first. */
    volatile long reportedTick = -1;

    Run(String datasetId, long since, long tick) {
      this.datasetId = datasetId;
      this.since = since;
      this.lastTick = tick;
    }

    DatasetCountersProto toProto() {
      return DatasetCountersProto.newBuilder().setDatasetId(datasetId).setSinceMs(since)
          .setHits(hits.get()).setMisses(misses.get()).setBytesFromCache(bytesFromCache.get())
          .setBytesFromHdfs(bytesFromHdfs.get()).setFills(fills.get())
          .setEvictions(evictions.get()).build();
    }
  }

  /**
   * @param maxDatasets the most datasets counted at once, at least 1
   * @param maxPerReport the most datasets one report carries, at least 1
   */
  public DatasetCounters(int maxDatasets, int maxPerReport, LongSupplier wallClock) {
    if (maxDatasets < 1 || maxPerReport < 1) {
      throw new IllegalArgumentException("maxDatasets and maxPerReport must be at least 1: "
          + maxDatasets + ", " + maxPerReport);
    }
    this.maxDatasets = maxDatasets;
    this.maxPerReport = maxPerReport;
    this.wallClock = wallClock;
  }

  /** A lookup of a block of {@code datasetId} found it cached here. */
  public void hit(String datasetId) {
    add(datasetId, r -> r.hits, 1);
  }

  /** A lookup for {@code datasetId} did not find its block cached here. */
  public void miss(String datasetId) {
    add(datasetId, r -> r.misses, 1);
  }

  public void bytesFromCache(String datasetId, long n) {
    add(datasetId, r -> r.bytesFromCache, n);
  }

  public void bytesFromHdfs(String datasetId, long n) {
    add(datasetId, r -> r.bytesFromHdfs, n);
  }

  /** A block cached for {@code datasetId}. */
  public void filled(String datasetId) {
    add(datasetId, r -> r.fills, 1);
  }

  /** A block of {@code datasetId} removed on the master's order. */
  public void evicted(String datasetId) {
    add(datasetId, r -> r.evictions, 1);
  }

  /**
   * Adds {@code n} to one counter of the dataset's run, then stamps the run with a new tick (after
   * the add, so that a report taken at that tick includes it); a null id (a block whose dataset is
   * no longer known) counts nowhere.
   */
  private void add(String datasetId, Function<Run, AtomicLong> counter, long n) {
    if (datasetId == null || datasetId.isEmpty()) {
      return;
    }
    Run r = runs.get(datasetId);
    if (r == null) {
      if (runs.size() >= maxDatasets) {
        forgetLeastRecent();
      }
      r = runs.computeIfAbsent(datasetId, id -> new Run(id, nextSince(), ticks.incrementAndGet()));
    }
    counter.apply(r).addAndGet(n);
    r.lastTick = ticks.incrementAndGet();
  }

  private long nextSince() {
    long now = wallClock.getAsLong();
    return lastSince.updateAndGet(last -> Math.max(last + 1, now));
  }

  /** Forgets the dataset counted least recently: a scan, made only when the table is full. */
  private void forgetLeastRecent() {
    Run oldest = null;
    for (Run r : runs.values()) {
      if (oldest == null || r.lastTick < oldest.lastTick) {
        oldest = r;
      }
    }
    if (oldest != null && runs.remove(oldest.datasetId, oldest)
        && oldest.reportedTick != oldest.lastTick) {
      forgotten.incrementAndGet();
    }
  }

  /**
   * The figures of the datasets that changed since their last report the master took, at most
   * {@code maxPerReport}, the least recently reported first; {@link Report#taken} marks them
   * reported once the master has them.
   */
  public Report changed() {
    List<Run> due = new ArrayList<>();
    for (Run r : runs.values()) {
      if (r.lastTick != r.reportedTick) {
        due.add(r);
      }
    }
    due.sort(Comparator.comparingLong((Run r) -> r.reportedTick).thenComparingLong(r -> r.since));
    Report report = new Report(Math.min(due.size(), maxPerReport));
    for (Run r : due.subList(0, report.ticks.length)) {
      // The tick before the figures: an event between the two is reported again next time.
      report.ticks[report.protos.size()] = r.lastTick;
      report.runs.add(r);
      report.protos.add(r.toProto());
    }
    return report;
  }

  /** Every dataset is reported again, as if never reported (a master that restarted). */
  public void resendAll() {
    for (Run r : runs.values()) {
      r.reportedTick = -1;
    }
  }

  /** Datasets counted now. */
  public int size() {
    return runs.size();
  }

  /** Datasets forgotten to make room before the master had their latest figures. */
  public long forgotten() {
    return forgotten.get();
  }

  /** The figures of one dataset (for tests and diagnostics); null when it is not counted. */
  public DatasetCountersProto get(String datasetId) {
    Run r = runs.get(datasetId);
    return r == null ? null : r.toProto();
  }

  /** One heartbeat's per-dataset figures. Not thread-safe: one report per heartbeat. */
  public static final class Report {
    private final long[] ticks;
    private final List<Run> runs = new ArrayList<>();
    private final List<DatasetCountersProto> protos = new ArrayList<>();

    private Report(int size) {
      this.ticks = new long[size];
    }

    /** The figures to send. */
    public List<DatasetCountersProto> datasets() {
      return protos;
    }

    /** The master took the report: its datasets are reported as of then. */
    public void taken() {
      for (int i = 0; i < ticks.length; i++) {
        runs.get(i).reportedTick = ticks[i];
      }
    }
  }
}
