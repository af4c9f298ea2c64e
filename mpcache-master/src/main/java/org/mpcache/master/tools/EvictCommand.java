package org.mpcache.master.tools;

import java.io.PrintStream;
import java.util.List;
import org.mpcache.common.proto.AdminProtos.EvictRequestProto;
import org.mpcache.common.proto.AdminProtos.EvictResponseProto;
import org.mpcache.common.protocolPB.RpcSupport;

/** {@code mpcache admin evict}: drop a dataset from every slave. Not thread-safe. */
final class EvictCommand extends AdminCommand {

  EvictCommand(PrintStream out, PrintStream err) {
    super(out, err);
  }

  @Override
  String name() {
    return "evict";
  }

  @Override
  String shortUsage() {
    return "evict <path> [-json]";
  }

  @Override
  String longUsage() {
    return "  Evicts the datasets with <path> among their inputs from every slave: their cached\n"
        + "  blocks are ordered out with the slaves' next heartbeats, blocks still filling when\n"
        + "  they finish. A later read may cache them again. Fails (exit 2) when the master\n"
        + "  knows no such dataset.";
  }

  @Override
  Action parse(List<String> args) throws UsageException {
    String path = positional(args, "<path>").get(0);
    return (master, json) -> {
      EvictResponseProto r = RpcSupport.call(() -> master.proxy().evict(null,
          EvictRequestProto.newBuilder().setPath(path).build()));
      if (json) {
        out.println(ProtoJson.print(ProtoJson.toJson(r)));
        return;
      }
      out.println("Evicting " + String.join(", ", r.getDatasetIdsList()) + ": " + r.getBlocks()
          + " cached block replica(s) ordered out.");
    };
  }
}
