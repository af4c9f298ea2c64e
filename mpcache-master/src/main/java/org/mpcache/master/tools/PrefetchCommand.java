package org.mpcache.master.tools;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintStream;
import java.util.List;
import org.apache.hadoop.util.StringUtils;
import org.apache.hadoop.util.Time;
import org.mpcache.common.proto.AdminProtos.DatasetStatusProto;
import org.mpcache.common.proto.AdminProtos.DatasetsRequestProto;
import org.mpcache.common.proto.AdminProtos.PrefetchRequestProto;
import org.mpcache.common.proto.AdminProtos.PrefetchResponseProto;
import org.mpcache.common.proto.AdminProtos.SlaveBlocksProto;
import org.mpcache.common.protocolPB.RpcSupport;

/** {@code mpcache admin prefetch}: warm a dataset into the cache. Not thread-safe. */
final class PrefetchCommand extends AdminCommand {

  PrefetchCommand(PrintStream out, PrintStream err) {
    super(out, err);
  }

  @Override
  String name() {
    return "prefetch";
  }

  @Override
  String shortUsage() {
    return "prefetch <path> [-force] [-wait <seconds>] [-json]";
  }

  @Override
  String longUsage() {
    return "  Warms an HDFS file or directory (its files, recursively) into the cache as one\n"
        + "  dataset named by its qualified path. The master gives each block not yet cached to\n"
        + "  a slave (the one beside a DataNode holding a replica when there is one); the slave\n"
        + "  asks for admission as for any miss, reads the block from HDFS and caches it.\n"
        + "  -force          skip the admission test (room is still made by eviction)\n"
        + "  -wait <seconds> wait until the blocks are cached; exit 2 if they are not in time";
  }

  @Override
  Action parse(List<String> args) throws UsageException {
    boolean force = StringUtils.popOption("-force", args);
    String wait = option(args, "-wait");
    long waitMs;
    try {
      waitMs = wait == null ? 0 : Math.multiplyExact(Long.parseLong(wait), 1000L);
    } catch (NumberFormatException | ArithmeticException e) {
      throw new UsageException("-wait needs a whole number of seconds, not '" + wait + "'");
    }
    if (waitMs < 0) {
      throw new UsageException("-wait needs a whole number of seconds, not '" + wait + "'");
    }
    String path = positional(args, "<path>").get(0);
    return (master, json) -> {
      PrefetchResponseProto r = RpcSupport.call(() -> master.proxy().prefetch(null,
          PrefetchRequestProto.newBuilder().setPath(path).setForce(force).build()));
      int cached = wait == null ? -1 : await(master, r, waitMs);
      if (json) {
        ObjectNode o = ProtoJson.toJson(r);
        if (cached >= 0) {
          o.put("cachedAfterWait", cached);
        }
        out.println(ProtoJson.print(o));
      } else {
        out.println("Prefetching " + r.getDatasetId() + ": " + r.getFiles() + " file(s), "
            + r.getBlocks() + " block(s): " + r.getQueued() + " queued, "
            + r.getAlreadyCached() + " already cached, " + r.getUnplaced()
            + " without a slave to take them.");
        for (SlaveBlocksProto s : r.getAssignedList()) {
          out.println("  " + s.getSlaveId() + ": " + s.getBlocks() + " block(s), "
              + Table.bytes(s.getBytes()));
        }
        if (cached >= 0) {
          out.println(cached + " of " + r.getBlocks() + " block(s) cached.");
        }
      }
      int want = r.getBlocks() - r.getUnplaced();
      if (cached >= 0 && cached < want) {
        throw new CommandFailedException("only " + cached + " of " + want + " block(s) of "
            + r.getDatasetId() + " were cached within " + wait + " s; run mpcache admin "
            + "explain " + path + " to see why");
      }
    };
  }

  /** Polls the dataset until its placed blocks are cached or the time is up. */
  private static int await(AdminClient master, PrefetchResponseProto r, long waitMs)
      throws IOException {
    long deadline = Time.monotonicNow() + waitMs;
    int want = r.getBlocks() - r.getUnplaced();
    while (true) {
      int cached = 0;
      for (DatasetStatusProto d : RpcSupport.call(() -> master.proxy().datasets(null,
          DatasetsRequestProto.newBuilder().setPathFilter(r.getDatasetId()).build()))
          .getDatasetsList()) {
        if (d.getDatasetId().equals(r.getDatasetId())) {
          cached = d.getCachedBlocks();
        }
      }
      if (cached >= want || Time.monotonicNow() >= deadline) {
        return cached;
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted waiting for the prefetch");
      }
    }
  }
}
