package org.mpcache.master.tools;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.util.List;
import org.mpcache.common.proto.AdminProtos.AdoptionProto;
import org.mpcache.common.proto.AdminProtos.ReportRequestProto;
import org.mpcache.common.proto.AdminProtos.ReportResponseProto;
import org.mpcache.common.proto.AdminProtos.SlaveReportProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;
import org.mpcache.common.proto.MpCacheProtos.SpaceReportProto;
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
        + "  the blocks its background verification found corrupt and dropped.";
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
    out.println();
    Table t = new Table("SLAVE", "STATE", ">HEARTBEAT", ">SSD", ">INPUT USED", ">INPUT CAP",
        ">POOL", ">LENT IN", ">LENT LOC", ">LOCAL USED", ">LOCAL CAP", ">BLOCKS", ">HITS",
        ">HIT BYTES", ">MISSES", ">MISS BYTES", ">FALLBACKS");
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
          sc.getFallbacks());
    }
    t.print(out);
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
  }
}
