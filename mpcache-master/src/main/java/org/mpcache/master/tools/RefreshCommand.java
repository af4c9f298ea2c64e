package org.mpcache.master.tools;

import java.io.PrintStream;
import java.util.List;
import org.mpcache.common.proto.AdminProtos.ConfigChangeProto;
import org.mpcache.common.proto.AdminProtos.RefreshRequestProto;
import org.mpcache.common.proto.AdminProtos.RefreshResponseProto;
import org.mpcache.common.protocolPB.RpcSupport;

/** {@code mpcache admin refresh}: reload the master's reloadable keys. Not thread-safe. */
final class RefreshCommand extends AdminCommand {

  RefreshCommand(PrintStream out, PrintStream err) {
    super(out, err);
  }

  @Override
  String name() {
    return "refresh";
  }

  @Override
  String shortUsage() {
    return "refresh [-json]";
  }

  @Override
  String longUsage() {
    return "  Makes the master re-read its configuration files and apply the reloadable keys:\n"
        + "  mpcache.master.slave.expiry.ms, mpcache.master.status.max-datasets and\n"
        + "  mpcache.master.slaves.exclude.file (the file is read again too: slaves newly listed\n"
        + "  start decommissioning, slaves no longer listed return to service). All or nothing:\n"
        + "  an invalid value fails the refresh (exit 2) and changes nothing. Slaves with SSD\n"
        + "  directories out of service (see report) put them back in service, empty, at their\n"
        + "  next heartbeat.";
  }

  @Override
  Action parse(List<String> args) throws UsageException {
    positional(args);
    return (master, json) -> {
      RefreshResponseProto r = RpcSupport.call(() -> master.proxy().refresh(null,
          RefreshRequestProto.getDefaultInstance()));
      if (json) {
        out.println(ProtoJson.print(ProtoJson.toJson(r)));
        return;
      }
      out.println("Reloadable keys: " + String.join(", ", r.getReloadableKeysList()));
      if (r.getChangedCount() == 0) {
        out.println("Nothing changed.");
      }
      for (ConfigChangeProto c : r.getChangedList()) {
        out.println("Changed " + c.getKey() + ": " + c.getOldValue() + " -> " + c.getNewValue());
      }
      out.println("Decommissioning: " + (r.getDecommissionedCount() == 0 ? "none"
          : String.join(", ", r.getDecommissionedList())));
      out.println("SSD directories returned to service on: " + (r.getVolumesReturnedCount() == 0
          ? "none" : String.join(", ", r.getVolumesReturnedList())));
    };
  }
}
