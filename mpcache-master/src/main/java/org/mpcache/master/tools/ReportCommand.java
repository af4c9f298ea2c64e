package org.mpcache.master.tools;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.time.Instant;
import java.util.List;
import org.mpcache.common.proto.AdminProtos.CheckpointStatusProto;
import org.mpcache.common.proto.AdminProtos.AdoptionProto;
import org.mpcache.common.proto.AdminProtos.ReportRequestProto;
import org.mpcache.common.proto.AdminProtos.ReportResponseProto;
import org.mpcache.common.proto.AdminProtos.SlaveReportProto;
import org.mpcache.common.proto.MpCacheProtos.JobSpacePredictionProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;
import org.mpcache.common.proto.MpCacheProtos.SpaceReportProto;
import org.mpcache.common.proto.MpCacheProtos.SsdDirProto;
import org.mpcache.common.protocolPB.RpcSupport;

/** {@code mpcache admin report}: the cluster and each slave. Not thread-safe. */
final class ReportCommand extends AdminCommand {

  ReportCommand(PrintStream out, PrintStream err) {
    super(out, err);
  }

  @Override
  String name() {
    return "report";
  }

  @Override
  String shortUsage() {
    return "report [-json]";
  }

  @Override
  String longUsage() {
    return "  The cluster and each slave: address, state, last heartbeat, SSD capacity, Input\n"
        + "  Cache / Dynamic Pool / Localized Cache use and what the pool lends, cached blocks,\n"
        + "  hits and misses with their bytes, and fallbacks to HDFS. Live slaves first, then\n"
        + "  slaves that stopped heartbeating (with their last figures). Then, per slave, what\n"
        + "  became of the blocks it held when it last registered: adopted (of which some may\n"
        + "  still wait for their check against HDFS), ordered out as stale (HDFS no longer has\n"
        + "  their file or generation stamp), handed back (unknown dataset, over capacity), and\n"
        + "  the blocks its background verification found corrupt and dropped. Then, per live\n"
        + "  slave and running job, the predicted localized bytes its split started from: from\n"
        + "  the Dynamic Space Manager's history, or the cold-start default (the fixed split).\n"
        + "  Also when the master last checkpointed its state directory, or that none is set.";
  }

  @Override
  Action parse(List<String> args) throws UsageException {
    positional(args);
    return (master, json) -> {
      ReportResponseProto r = RpcSupport.call(() -> master.proxy().report(null,
          ReportRequestProto.getDefaultInstance()));
      if (json) {
        ObjectNode o = ProtoJson.toJson(r);
        o.put("master", master.address());
        out.println(ProtoJson.print(o));
      } else {
        print(master.address(), r);
      }
    };
  }

  /** One line: the last checkpoint, or why there is none. */
  static String checkpoint(CheckpointStatusProto c) {
    if (!c.hasStateDir()) {
      return "State: no state dir (mpcache.master.state.dir): a restart relearns frequencies, "
          + "decommissions and queued prefetches";
    }
    String last = c.hasLastMs() ? "last checkpoint " + Instant.ofEpochMilli(c.getLastMs())
        + ", " + Table.bytes(c.getLastBytes()) : "no checkpoint yet";
    return "State: " + c.getStateDir() + "; " + last + "; " + c.getWritten() + " written, "
        + c.getFailed() + " failed" + (c.hasLastError() ? " (last: " + c.getLastError() + ")"
        : "");
  }

  private void print(String address, ReportResponseProto r) {
    SpaceReportProto s = r.getTotalSpace();
    SlaveCountersProto c = r.getTotalCounters();
    out.println("mpCache master " + address + ": policy " + r.getPolicy() + ", up "
        + Table.age(r.getMasterUptimeMs()));
    out.println("Slaves: " + r.getLiveSlaves() + " live, " + r.getDeadSlaves() + " dead; "
        + r.getDatasets() + " datasets known; " + r.getCachedBlocks() + " blocks cached");
    out.println("SSD: " + Table.bytes(s.getCapacity()) + "; Input Cache "
        + Table.bytes(s.getInputCacheUsed()) + " used of " + Table.bytes(s.getInputCacheCapacity())
        + "; Dynamic Pool " + Table.bytes(s.getDynamicPoolCapacity()) + " (lent "
        + Table.bytes(s.getPoolLentToInput()) + " to input, "
        + Table.bytes(s.getPoolLentToLocalized()) + " to localized); Localized Cache "
        + Table.bytes(s.getLocalizedCacheUsed()) + " used of "
        + Table.bytes(s.getLocalizedCacheCapacity()));
    out.println("Reads: " + c.getHits() + " hits (" + Table.bytes(c.getBytesFromCache())
        + " from SSD), " + c.getMisses() + " misses (" + Table.bytes(c.getBytesFromHdfs())
        + " from HDFS), " + c.getFallbacks() + " fallbacks");
    out.println("SSD writes: " + Table.bytes(c.getSsdBytesWritten()) + " for the Input Cache; "
        + Table.bytes(c.getLocalizedBytesGranted()) + " granted to tasks' localized data");
    long dirsOut = r.getSlavesList().stream().filter(SlaveReportProto::getLive)
        .flatMap(sl -> sl.getSpace().getDirsList().stream()).filter(d -> !d.getInService())
        .count();
    out.println("SSD directories out of service: " + dirsOut + " (taken out "
        + c.getVolumeFailures() + " times)");
    out.println(checkpoint(r.getCheckpoint()));
    ControlCommand.print(out, r.getControls());
    out.println();
    Table t = new Table("SLAVE", "STATE", ">HEARTBEAT", ">SSD", ">INPUT USED", ">INPUT CAP",
        ">POOL", ">LENT IN", ">LENT LOC", ">LOCAL USED", ">LOCAL CAP", ">BLOCKS", ">HITS",
        ">HIT BYTES", ">MISSES", ">MISS BYTES", ">FALLBACKS", ">SSD WRITTEN");
    for (SlaveReportProto sl : r.getSlavesList()) {
      SpaceReportProto sp = sl.getSpace();
      SlaveCountersProto sc = sl.getCounters();
      t.row(sl.getSlave().getSlaveId(), !sl.getLive() ? "dead"
          : sl.getDecommissioning() ? "decommissioning" : "live",
          Table.age(sl.getLastHeartbeatAgeMs()) + " ago", Table.bytes(sp.getCapacity()),
          Table.bytes(sp.getInputCacheUsed()), Table.bytes(sp.getInputCacheCapacity()),
          Table.bytes(sp.getDynamicPoolCapacity()), Table.bytes(sp.getPoolLentToInput()),
          Table.bytes(sp.getPoolLentToLocalized()), Table.bytes(sp.getLocalizedCacheUsed()),
          Table.bytes(sp.getLocalizedCacheCapacity()), sl.getCachedBlocks(), sc.getHits(),
          Table.bytes(sc.getBytesFromCache()), sc.getMisses(), Table.bytes(sc.getBytesFromHdfs()),
          sc.getFallbacks(), Table.bytes(sc.getSsdBytesWritten()));
    }
    t.print(out);
    printDirs(r);
    out.println();
    out.println("Blocks held at registration (dropped since: stale by the HDFS check, failed by the "
        + "slave's verification):");
    Table a = new Table("SLAVE", ">ADOPTED", ">CHECKS PENDING", ">STALE", ">UNKNOWN DATASET",
        ">OVER CAPACITY", ">FAILED VERIFICATION");
    for (SlaveReportProto sl : r.getSlavesList()) {
      AdoptionProto ad = sl.getAdoption();
      a.row(sl.getSlave().getSlaveId(), ad.getAdopted(), ad.getChecksPending(), ad.getStale(),
          ad.getUnknownDataset(), ad.getOverCapacity(),
          sl.getCounters().getBlocksFailedVerification());
    }
    a.print(out);
    printPredictions(r);
  }

  /**
   * Each slave's SSD directories: in service (with the faults of the current window), or out of
   * service since when and why.
   */
  private void printDirs(ReportResponseProto r) {
    out.println();
    out.println("SSD directories (out of service after repeated faults until refresh or restart):");
    Table t = new Table("SLAVE", "DIRECTORY", "STATE", ">FAULTS", "SINCE", "CAUSE");
    for (SlaveReportProto sl : r.getSlavesList()) {
      for (SsdDirProto d : sl.getSpace().getDirsList()) {
        t.row(sl.getSlave().getSlaveId(), d.getDir(),
            d.getInService() ? "in service" : "out of service", d.getRecentFaults(),
            d.getInService() ? "-" : Instant.ofEpochMilli(d.getOutSinceMs()).toString(),
            d.getInService() ? "-" : d.getCause());
      }
    }
    t.print(out);
  }

  /** The prediction each running job's split started from, per slave; nothing when none runs. */
  private void printPredictions(ReportResponseProto r) {
    Table t = new Table("SLAVE", "JOB TYPE", ">JOB INPUT", ">PREDICTED LOCALIZED", "BASIS");
    boolean any = false;
    for (SlaveReportProto sl : r.getSlavesList()) {
      for (JobSpacePredictionProto p : sl.getPredictionsList()) {
        t.row(sl.getSlave().getSlaveId(), p.getJobType(), Table.bytes(p.getInputBytes()),
            Table.bytes(p.getLocalizedBytes()), p.getFromHistory() ? "history" : "cold-start");
        any = true;
      }
    }
    if (any) {
      out.println();
      out.println("Space predictions in use:");
      t.print(out);
    }
  }
}
