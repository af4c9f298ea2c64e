package org.mpcache.master.status;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.mpcache.master.arbitrator.CacheDecision;

/**
 * Running totals of the Replace Arbitrator since the master started: replace requests, their
 * verdicts by reason, block replicas ordered out by cause, prefetch commands queued, items of
 * slaves' reports skipped as invalid, and blocks registering slaves held that were adopted or
 * handed back. The
 * master's metrics source reads them.
 *
 * <p>Thread-safe: every figure is a {@link LongAdder}; the maps are filled at construction and
 * never change shape.
 */
public final class ArbitratorStats {
  private final LongAdder replaceRequests = new LongAdder();
  private final LongAdder admitted = new LongAdder();
  private final LongAdder rejected = new LongAdder();
  private final LongAdder prefetchQueued = new LongAdder();
  private final LongAdder invalidReportItems = new LongAdder();
  private final LongAdder blocksAdopted = new LongAdder();
  private final LongAdder blocksNotAdopted = new LongAdder();
  private final Map<CacheDecision.Reason, LongAdder> verdicts =
      new EnumMap<>(CacheDecision.Reason.class);
  private final Map<EvictionCause, LongAdder> evictions = new EnumMap<>(EvictionCause.class);

  public ArbitratorStats() {
    for (CacheDecision.Reason r : CacheDecision.Reason.values()) {
      verdicts.put(r, new LongAdder());
    }
    for (EvictionCause c : EvictionCause.values()) {
      evictions.put(c, new LongAdder());
    }
  }

  void verdict(CacheDecision d) {
    replaceRequests.increment();
    (d.admitted() ? admitted : rejected).increment();
    verdicts.get(d.reason()).increment();
  }

  void evicted(EvictionCause cause, int replicas) {
    evictions.get(cause).add(replicas);
  }

  /** Counts prefetch commands handed to slaves. */
  public void prefetchQueued(int commands) {
    prefetchQueued.add(commands);
  }

  /** Counts items of slaves' reports skipped as invalid. */
  public void invalidReportItems(int items) {
    invalidReportItems.add(items);
  }

  /** Counts the blocks a registering slave held: adopted, and handed back for eviction. */
  public void registered(int adopted, int notAdopted) {
    blocksAdopted.add(adopted);
    blocksNotAdopted.add(notAdopted);
  }

  public long blocksAdopted() {
    return blocksAdopted.sum();
  }

  public long blocksNotAdopted() {
    return blocksNotAdopted.sum();
  }

  public long invalidReportItems() {
    return invalidReportItems.sum();
  }

  public long replaceRequests() {
    return replaceRequests.sum();
  }

  public long admitted() {
    return admitted.sum();
  }

  public long rejected() {
    return rejected.sum();
  }

  public long prefetchQueued() {
    return prefetchQueued.sum();
  }

  /** Verdicts so far for one reason. */
  public long verdicts(CacheDecision.Reason reason) {
    return verdicts.get(reason).sum();
  }

  /** Block replicas ordered out (or found gone) so far for one cause. */
  public long evictions(EvictionCause cause) {
    return evictions.get(cause).sum();
  }
}
