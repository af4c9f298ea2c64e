package org.mpcache.master.arbitrator;

import java.util.HashMap;
import java.util.Map;
import org.mpcache.common.proto.AdminProtos.DatasetStatusProto;
import org.mpcache.common.proto.SlaveMasterProtos.DatasetCountersProto;

/**
 * What the slaves counted for one dataset, part of its {@link DatasetRecord.History}: block
 * lookups that hit and missed, bytes readers read from the SSDs and from HDFS, blocks cached and
 * evicted. Slaves report cumulative figures per run (a run: a slave counting a dataset from
 * {@code sinceMs}, until the slave restarts or forgets the dataset); the figures keep the latest
 * report of each slave's current run and, settled, what every earlier run reached.
 *
 * <p>The rule, so that totals never go backwards and nothing counts twice: a report of the run
 * the figures hold for that slave replaces it, figure by figure keeping the larger value (a
 * report never lowers a figure; the same report twice changes nothing); a report of another run
 * (another {@code sinceMs}: the slave restarted, or forgot the dataset and counts it anew) first
 * adds the held run to the settled figures, then holds the new one. The total is the settled
 * figures plus every slave's held run. Bounded by one held run per slave.
 *
 * <p>Not thread-safe: guarded as its record is.
 */
public final class DatasetFigures {
  private static final int FIELDS = 6;
  private static final int HITS = 0;
  private static final int MISSES = 1;
  private static final int FROM_CACHE = 2;
  private static final int FROM_HDFS = 3;
  private static final int FILLS = 4;
  private static final int EVICTIONS = 5;

  /** What the runs no longer held reached. */
  private final long[] settled = new long[FIELDS];
  /** Per slave, the run held and its latest figures. */
  private final Map<String, Run> bySlave = new HashMap<>();

  private static final class Run {
    final long since;
    final long[] values;

    Run(long since, long[] values) {
      this.since = since;
      this.values = values;
    }
  }

  /** The totals of a dataset, as operators see them. */
  public record Totals(long hits, long misses, long bytesFromCache, long bytesFromHdfs,
      long fills, long evictions) {
    /** Bytes readers read, from the SSDs and from HDFS. */
    public long bytesRead() {
      return bytesFromCache + bytesFromHdfs;
    }

    /** Bytes from the SSDs over bytes read; NaN before any byte was read. */
    public double byteHitRatio() {
      return bytesRead() == 0 ? Double.NaN : bytesFromCache / (double) bytesRead();
    }
  }

  /** Takes a slave's report of its figures for the dataset (values checked by the caller). */
  public void report(String slaveId, DatasetCountersProto p) {
    long[] v = {p.getHits(), p.getMisses(), p.getBytesFromCache(), p.getBytesFromHdfs(),
        p.getFills(), p.getEvictions()};
    Run held = bySlave.get(slaveId);
    if (held != null && held.since == p.getSinceMs()) {
      for (int i = 0; i < FIELDS; i++) {
        held.values[i] = Math.max(held.values[i], v[i]);
      }
      return;
    }
    if (held != null) {
      for (int i = 0; i < FIELDS; i++) {
        settled[i] = saturatedAdd(settled[i], held.values[i]);
      }
    }
    bySlave.put(slaveId, new Run(p.getSinceMs(), v));
  }

  /** The settled figures plus every slave's held run. */
  public Totals totals() {
    long[] t = settled.clone();
    for (Run r : bySlave.values()) {
      for (int i = 0; i < FIELDS; i++) {
        t[i] = saturatedAdd(t[i], r.values[i]);
      }
    }
    return new Totals(t[HITS], t[MISSES], t[FROM_CACHE], t[FROM_HDFS], t[FILLS], t[EVICTIONS]);
  }

  /** Adds the totals to a dataset's status. */
  void describe(DatasetStatusProto.Builder p) {
    Totals t = totals();
    p.setHits(t.hits()).setMisses(t.misses()).setBytesFromCache(t.bytesFromCache())
        .setBytesFromHdfs(t.bytesFromHdfs()).setFills(t.fills()).setEvictions(t.evictions());
    if (t.bytesRead() > 0) {
      p.setByteHitRatio(t.byteHitRatio());
    }
  }

  /** Sums stay at Long.MAX_VALUE rather than wrap: slaves send figures up to 2^63 - 1 each. */
  private static long saturatedAdd(long a, long b) {
    long s = a + b;
    return s < 0 ? Long.MAX_VALUE : s;
  }
}
