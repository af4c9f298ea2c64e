package org.mpcache.master.status;

import java.util.List;
import java.util.function.LongSupplier;
import org.mpcache.common.proto.AdminProtos.DatasetStatusProto;
import org.mpcache.common.proto.AdminProtos.ExplainResponseProto;
import org.mpcache.common.proto.AdminProtos.ReportResponseProto;
import org.mpcache.common.proto.AdminProtos.SlaveReportProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;
import org.mpcache.common.proto.MpCacheProtos.SpaceReportProto;
import org.mpcache.master.arbitrator.ReplaceArbitrator;
import org.mpcache.master.registry.SlaveRegistry;

/**
 * The master's answers to status queries, as protobuf messages: the cluster report, the datasets
 * it knows, and why a dataset is or is not cached. The admin RPC handler serves them to
 * {@code mpcache admin}; the master's web UI can call them directly.
 *
 * <p>Thread-safe: it holds no mutable state; the registry and the arbitrator lock their own.
 */
public final class MasterStatus {
  private final SlaveRegistry registry;
  private final ReplaceArbitrator arbitrator;
  private final LongSupplier monotonicClock;
  private final LongSupplier wallClock;
  private final long startTime;

  public MasterStatus(SlaveRegistry registry, ReplaceArbitrator arbitrator,
      LongSupplier monotonicClock, LongSupplier wallClock) {
    this.registry = registry;
    this.arbitrator = arbitrator;
    this.monotonicClock = monotonicClock;
    this.wallClock = wallClock;
    this.startTime = monotonicClock.getAsLong();
  }

  /** The cluster: every slave (live first, then dead), with totals over the live ones. */
  public ReportResponseProto report() {
    List<SlaveReportProto> slaves = registry.report();
    long now = wallClock.getAsLong();
    SpaceReportProto.Builder space = SpaceReportProto.newBuilder().setCapacity(0)
        .setInputCacheCapacity(0).setInputCacheUsed(0).setDynamicPoolCapacity(0)
        .setPoolLentToInput(0).setPoolLentToLocalized(0).setLocalizedCacheCapacity(0)
        .setLocalizedCacheUsed(0);
    SlaveCountersProto.Builder counters = SlaveCountersProto.newBuilder().setHits(0)
        .setMisses(0).setBytesFromCache(0).setBytesFromHdfs(0).setFallbacks(0)
        .setBlocksCached(0).setBlocksEvicted(0).setBlocksCorrupt(0);
    long blocks = 0;
    int live = 0;
    ReportResponseProto.Builder r = ReportResponseProto.newBuilder()
        .setPolicy(arbitrator.policyName())
        .setMasterUptimeMs(monotonicClock.getAsLong() - startTime);
    for (SlaveReportProto s : slaves) {
      r.addSlaves(s.toBuilder().setLastHeartbeatMs(now - s.getLastHeartbeatAgeMs()));
      if (!s.getLive()) {
        continue;
      }
      live++;
      blocks += s.getCachedBlocks();
      add(space, s.getSpace());
      add(counters, s.getCounters());
    }
    return r.setLiveSlaves(live).setDeadSlaves(slaves.size() - live)
        .setDatasets(arbitrator.datasetCount()).setTotalSpace(space)
        .setTotalCounters(counters).setCachedBlocks(blocks).build();
  }

  private static void add(SpaceReportProto.Builder t, SpaceReportProto s) {
    t.setCapacity(t.getCapacity() + s.getCapacity())
        .setInputCacheCapacity(t.getInputCacheCapacity() + s.getInputCacheCapacity())
        .setInputCacheUsed(t.getInputCacheUsed() + s.getInputCacheUsed())
        .setDynamicPoolCapacity(t.getDynamicPoolCapacity() + s.getDynamicPoolCapacity())
        .setPoolLentToInput(t.getPoolLentToInput() + s.getPoolLentToInput())
        .setPoolLentToLocalized(t.getPoolLentToLocalized() + s.getPoolLentToLocalized())
        .setLocalizedCacheCapacity(t.getLocalizedCacheCapacity() + s.getLocalizedCacheCapacity())
        .setLocalizedCacheUsed(t.getLocalizedCacheUsed() + s.getLocalizedCacheUsed());
  }

  private static void add(SlaveCountersProto.Builder t, SlaveCountersProto c) {
    t.setHits(t.getHits() + c.getHits()).setMisses(t.getMisses() + c.getMisses())
        .setBytesFromCache(t.getBytesFromCache() + c.getBytesFromCache())
        .setBytesFromHdfs(t.getBytesFromHdfs() + c.getBytesFromHdfs())
        .setFallbacks(t.getFallbacks() + c.getFallbacks())
        .setBlocksCached(t.getBlocksCached() + c.getBlocksCached())
        .setBlocksEvicted(t.getBlocksEvicted() + c.getBlocksEvicted())
        .setBlocksCorrupt(t.getBlocksCorrupt() + c.getBlocksCorrupt());
  }

  /**
   * Every dataset the master keeps a record of, ordered by id; with a non-empty
   * {@code pathFilter}, only those with an input path equal to it or under it.
   */
  public List<DatasetStatusProto> datasets(String pathFilter) {
    if (pathFilter == null || pathFilter.isEmpty()) {
      return arbitrator.datasets(id -> true);
    }
    return arbitrator.datasets(id -> DatasetPaths.matches(id, pathFilter, true));
  }

  /** Why the datasets with {@code path} among their inputs are or are not cached. */
  public ExplainResponseProto explain(String path) {
    List<DatasetStatusProto> exact = arbitrator.datasets(id -> DatasetPaths.matches(id, path,
        false));
    ExplainResponseProto.Builder r = ExplainResponseProto.newBuilder().setPath(path)
        .addAllDatasets(exact);
    if (exact.isEmpty()) {
      r.addReasons("The master has no record of a dataset with input path " + path + ": no job "
          + "or prefetch has read it since the master started, or its record was dropped (the "
          + "master keeps the most recently read datasets with nothing cached, up to "
          + "mpcache.master.status.max-datasets).");
      List<DatasetStatusProto> under = datasets(path);
      if (!under.isEmpty()) {
        r.addReasons(under.size() + " dataset(s) with inputs under " + path + " are known; "
            + "run mpcache admin datasets -path " + path + ".");
      }
      return r.build();
    }
    for (DatasetStatusProto d : exact) {
      r.addAllReasons(Explanations.of(d, registry.decommissioning()));
    }
    return r.build();
  }
}
