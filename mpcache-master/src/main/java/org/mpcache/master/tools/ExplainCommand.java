package org.mpcache.master.tools;

import java.io.PrintStream;
import java.util.List;
import org.mpcache.common.proto.AdminProtos.ExplainRequestProto;
import org.mpcache.common.proto.AdminProtos.ExplainResponseProto;
import org.mpcache.common.protocolPB.RpcSupport;

/** {@code mpcache admin explain}: why a dataset is or is not cached. Not thread-safe. */
final class ExplainCommand extends AdminCommand {

  ExplainCommand(PrintStream out, PrintStream err) {
    super(out, err);
  }

  @Override
  String name() {
    return "explain";
  }

  @Override
  String shortUsage() {
    return "explain <path> [-json]";
  }

  @Override
  String longUsage() {
    return "  Why the datasets with <path> among their inputs are or are not cached: how much is\n"
        + "  cached and on which slaves, the last admission verdict and why, the last eviction\n"
        + "  and its cause, and how the policy ranks them. <path> is an HDFS path, bare\n"
        + "  (/data/in) or qualified (hdfs://nn:8020/data/in).";
  }

  @Override
  Action parse(List<String> args) throws UsageException {
    String path = positional(args, "<path>").get(0);
    return (master, json) -> {
      ExplainResponseProto r = RpcSupport.call(() -> master.proxy().explain(null,
          ExplainRequestProto.newBuilder().setPath(path).build()));
      if (json) {
        out.println(ProtoJson.print(ProtoJson.toJson(r)));
        return;
      }
      for (String line : r.getReasonsList()) {
        out.println(line);
      }
    };
  }
}
