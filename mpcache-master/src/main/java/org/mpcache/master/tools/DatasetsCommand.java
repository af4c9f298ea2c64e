package org.mpcache.master.tools;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.mpcache.common.proto.AdminProtos.DatasetStatusProto;
import org.mpcache.common.proto.AdminProtos.DatasetsRequestProto;
import org.mpcache.common.proto.AdminProtos.DatasetsResponseProto;
import org.apache.hadoop.util.StringUtils;
import org.mpcache.common.protocolPB.RpcSupport;

/**
 * {@code mpcache admin datasets}: every dataset the master knows, with its standing and placement
 * or, with {@code -stats}, with the figures slaves counted for it. Not thread-safe.
 */
final class DatasetsCommand extends AdminCommand {
  /** The sort fields, each with its order (largest first, but for the id and Full first). */
  private static final Map<String, Comparator<DatasetStatusProto>> SORTS = new LinkedHashMap<>();

  static {
    SORTS.put("id", Comparator.comparing(DatasetStatusProto::getDatasetId));
    SORTS.put("priority", Comparator.comparingDouble((DatasetStatusProto d) ->
        d.hasPriority() ? d.getPriority() : Double.NEGATIVE_INFINITY).reversed());
    SORTS.put("fr", Comparator.comparingDouble(DatasetStatusProto::getFrequency).reversed());
    SORTS.put("size", Comparator.comparingInt(DatasetStatusProto::getSizeBlocks).reversed());
    SORTS.put("cached", Comparator.comparingInt(DatasetStatusProto::getCachedBlocks).reversed());
    SORTS.put("full", Comparator.comparing(DatasetStatusProto::getFull).reversed());
    SORTS.put("access", Comparator.comparingLong(DatasetStatusProto::getLastAccessMs).reversed());
    SORTS.put("hits", Comparator.comparingLong(DatasetStatusProto::getHits).reversed());
    SORTS.put("saved", Comparator.comparingLong(DatasetStatusProto::getBytesFromCache)
        .reversed());
    SORTS.put("read", Comparator.comparingLong((DatasetStatusProto d) -> d.getBytesFromCache()
        + d.getBytesFromHdfs()).reversed());
  }

  DatasetsCommand(PrintStream out, PrintStream err) {
    super(out, err);
  }

  @Override
  String name() {
    return "datasets";
  }

  @Override
  String shortUsage() {
    return "datasets [-stats] [-path <path>] [-sort <field>] [-json]";
  }

  @Override
  String longUsage() {
    return "  Every dataset the master knows: priority Pr and frequency Fr (as the policy ranks\n"
        + "  it), size in blocks, cached blocks, the Full flag, and the last access.\n"
        + "  -stats         the figures slaves counted instead: block lookups that hit and\n"
        + "                 missed, the byte hit ratio (bytes from the SSDs over bytes read),\n"
        + "                 bytes saved (read from the SSDs instead of HDFS's disks), bytes\n"
        + "                 read from HDFS, blocks cached (fills) and evicted; -json prints\n"
        + "                 every field as plain numbers\n"
        + "  -path <path>   only datasets with an input path equal to <path> or under it\n"
        + "  -sort <field>  one of " + String.join(", ", SORTS.keySet()) + " (default id;\n"
        + "                 numbers and times largest first, Full datasets first)";
  }

  @Override
  Action parse(List<String> args) throws UsageException {
    boolean stats = StringUtils.popOption("-stats", args);
    String path = option(args, "-path");
    String sort = option(args, "-sort");
    Comparator<DatasetStatusProto> order = SORTS.get(sort == null ? "id"
        : sort.toLowerCase(Locale.ROOT));
    if (order == null) {
      throw new UsageException("unknown sort field '" + sort + "'; use one of "
          + String.join(", ", SORTS.keySet()));
    }
    positional(args);
    return (master, json) -> {
      DatasetsRequestProto.Builder req = DatasetsRequestProto.newBuilder();
      if (path != null) {
        req.setPathFilter(path);
      }
      DatasetsResponseProto r = RpcSupport.call(() -> master.proxy().datasets(null,
          req.build()));
      List<DatasetStatusProto> sorted = new ArrayList<>(r.getDatasetsList());
      sorted.sort(order.thenComparing(DatasetStatusProto::getDatasetId));
      if (json) {
        ObjectNode o = ProtoJson.toJson(DatasetsResponseProto.newBuilder()
            .addAllDatasets(sorted).build());
        if (!o.has("datasets")) {
          o.putArray("datasets");
        }
        out.println(ProtoJson.print(o));
        return;
      }
      if (stats) {
        printStats(sorted);
        return;
      }
      Table t = new Table("DATASET", ">PRIORITY", ">FR", ">SIZE", ">CACHED", ">CACHED BYTES",
          "FULL", "LAST ACCESS");
      for (DatasetStatusProto d : sorted) {
        t.row(d.getDatasetId(), d.hasPriority() ? String.format(Locale.ROOT, "%.4g",
            d.getPriority()) : "-", String.format(Locale.ROOT, "%.4g", d.getFrequency()),
            d.getSizeBlocks(), d.getCachedBlocks(), Table.bytes(d.getCachedBytes()),
            d.getFull() ? "yes" : "no", d.getLastAccessMs() == 0 ? "-"
            : Instant.ofEpochMilli(d.getLastAccessMs()).toString());
      }
      t.print(out);
      out.println(sorted.size() + " dataset(s)");
    };
  }

  /** The figures table: one row per dataset. */
  private void printStats(List<DatasetStatusProto> sorted) {
    Table t = new Table("DATASET", ">HITS", ">MISSES", ">HIT RATIO", ">SAVED (SSD)",
        ">FROM HDFS", ">FILLS", ">EVICTIONS");
    for (DatasetStatusProto d : sorted) {
      t.row(d.getDatasetId(), d.getHits(), d.getMisses(), d.hasByteHitRatio()
          ? String.format(Locale.ROOT, "%.1f%%", 100 * d.getByteHitRatio()) : "-",
          Table.bytes(d.getBytesFromCache()), Table.bytes(d.getBytesFromHdfs()), d.getFills(),
          d.getEvictions());
    }
    t.print(out);
    out.println(sorted.size() + " dataset(s)");
  }
}
