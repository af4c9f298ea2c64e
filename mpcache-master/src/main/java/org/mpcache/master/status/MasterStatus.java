package org.mpcache.master.status;

import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.mpcache.common.proto.AdminProtos.CheckpointStatusProto;
import org.mpcache.common.proto.AdminProtos.DatasetStatusProto;
import org.mpcache.common.proto.AdminProtos.ExplainResponseProto;
import org.mpcache.common.proto.AdminProtos.ReportResponseProto;
import org.mpcache.common.proto.AdminProtos.SlaveReportProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;
import org.mpcache.common.proto.MpCacheProtos.SpaceReportProto;
import org.mpcache.common.protocolPB.SlaveFigures;
import org.mpcache.master.arbitrator.ReplaceArbitrator;
import org.mpcache.master.registry.SlaveRegistry;

/**
 * The master's answers to status queries, as protobuf messages: the cluster report (with the
 * state directory's checkpoints), the datasets
 * it knows, and why a dataset is or is not cached. The admin RPC handler serves them to
 * {@code mpcache admin}; the master's web UI can call them directly.
 *
 * <p>Thread-safe: it holds no mutable state; the registry and the arbitrator lock their own.
 */
public final class MasterStatus {
  private final SlaveRegistry registry;
  private final ReplaceArbitrator arbitrator;
  private final Supplier<CheckpointStatusProto> checkpoints;
  private final LongSupplier monotonicClock;
  private final LongSupplier wallClock;
  private final long startTime;

  /** @param checkpoints the state directory's checkpoints, as the report shows them */
  public MasterStatus(SlaveRegistry registry, ReplaceArbitrator arbitrator,
      Supplier<CheckpointStatusProto> checkpoints, LongSupplier monotonicClock,
      LongSupplier wallClock) {
    this.registry = registry;
    this.arbitrator = arbitrator;
    this.checkpoints = checkpoints;
    this.monotonicClock = monotonicClock;
    this.wallClock = wallClock;
    this.startTime = monotonicClock.getAsLong();
  }

  /** The cluster: every slave (live first, then dead), with totals over the live ones. */
  public ReportResponseProto report() {
    List<SlaveReportProto> slaves = registry.report();
    long now = wallClock.getAsLong();
    SpaceReportProto.Builder space = SlaveFigures.zeroSpace();
    SlaveCountersProto.Builder counters = SlaveFigures.zeroCounters();
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
      SlaveFigures.add(space, s.getSpace());
      SlaveFigures.add(counters, s.getCounters());
    }
    return r.setLiveSlaves(live).setDeadSlaves(slaves.size() - live)
        .setDatasets(arbitrator.datasetCount()).setTotalSpace(space)
        .setTotalCounters(counters).setCachedBlocks(blocks)
        .setCheckpoint(checkpoints.get()).setControls(arbitrator.controls()).build();
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
