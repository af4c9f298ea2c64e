package org.mpcache.master.tools;

import java.io.PrintStream;
import java.util.List;
import org.apache.hadoop.util.StringUtils;
import org.mpcache.common.proto.AdminProtos.DecommissionRequestProto;
import org.mpcache.common.proto.AdminProtos.DecommissionResponseProto;
import org.mpcache.common.protocolPB.RpcSupport;

/** {@code mpcache admin decommission}: drain a slave. Not thread-safe. */
final class DecommissionCommand extends AdminCommand {

  DecommissionCommand(PrintStream out, PrintStream err) {
    super(out, err);
  }

  @Override
  String name() {
    return "decommission";
  }

  @Override
  String shortUsage() {
    return "decommission <slave> [-cancel] [-json]";
  }

  @Override
  String longUsage() {
    return "  Drains a slave: the master stops admitting blocks to it, stops listing it to\n"
        + "  clients, and orders every block it holds out. <slave> is a slave id (host:port, as\n"
        + "  report lists it) or a host running one slave. The state survives the slave's\n"
        + "  restarts; -cancel ends it. Slaves listed in mpcache.master.slaves.exclude.file are\n"
        + "  decommissioned by mpcache admin refresh instead.";
  }

  @Override
  Action parse(List<String> args) throws UsageException {
    boolean cancel = StringUtils.popOption("-cancel", args);
    String slave = positional(args, "<slave>").get(0);
    return (master, json) -> {
      DecommissionResponseProto r = RpcSupport.call(() -> master.proxy().decommission(null,
          DecommissionRequestProto.newBuilder().setSlave(slave).setCancel(cancel).build()));
      if (json) {
        out.println(ProtoJson.print(ProtoJson.toJson(r)));
        return;
      }
      if (r.getDecommissioning()) {
        out.println("Slave " + r.getSlaveId() + " is decommissioning"
            + (cancel ? " (it is listed in the exclude file)" : "") + ": "
            + r.getBlocksToEvict() + " cached block(s) ordered out.");
      } else {
        out.println("Slave " + r.getSlaveId() + " is in service.");
      }
    };
  }
}
