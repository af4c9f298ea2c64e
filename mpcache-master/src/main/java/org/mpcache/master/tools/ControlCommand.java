package org.mpcache.master.tools;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.util.StringUtils.TraditionalBinaryPrefix;
import org.mpcache.common.proto.AdminProtos.ControlRequestProto;
import org.mpcache.common.proto.AdminProtos.ControlResponseProto;
import org.mpcache.common.proto.AdminProtos.ControlsProto;
import org.mpcache.common.proto.MpCacheProtos.PathTtlProto;
import org.mpcache.common.proto.MpCacheProtos.QuotaProto;
import org.mpcache.common.protocolPB.RpcSupport;

/**
 * {@code mpcache admin pin|unpin|ttl|quota}: the operators' controls over what the Replace
 * Arbitrator may evict and admit (docs/admin.md); one object per subcommand, chosen by its
 * action. Also prints the controls for {@code report}. Not thread-safe.
 */
final class ControlCommand extends AdminCommand {
  private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h|d)");

  private final ControlRequestProto.Action action;

  ControlCommand(ControlRequestProto.Action action, PrintStream out, PrintStream err) {
    super(out, err);
    this.action = action;
  }

  @Override
  String name() {
    return action.name().toLowerCase(Locale.ROOT);
  }

  @Override
  String shortUsage() {
    switch (action) {
      case PIN:
        return "pin <path> [-json]";
      case UNPIN:
        return "unpin <path> [-json]";
      case TTL:
        return "ttl <path> <duration>|none [-json]";
      default:
        return "quota (-user <user> | -dir <path>) <size>|none [-json]";
    }
  }

  @Override
  String longUsage() {
    switch (action) {
      case PIN:
        return "  Pins the datasets with an input path at or under <path>: the policy never evicts\n"
            + "  them to make room (an admission that only their eviction would make room for is\n"
            + "  refused). mpcache admin evict and decommissioning still remove them.";
      case UNPIN:
        return "  Removes a pin set by mpcache admin pin <path>.";
      case TTL:
        return "  Gives the datasets with an input path at or under <path> a time to live: one not\n"
            + "  read for <duration> (or, if read before, since the time to live was set) is\n"
            + "  evicted whole. <duration> is a number with a unit: ms, s, m, h or d (30m, 12h,\n"
            + "  7d). none clears it.";
      default:
        return "  Caps the Input Cache bytes of the datasets under a user's home directory\n"
            + "  (/user/<user>) or under <path>: a dataset is not admitted when its bytes would\n"
            + "  put a quota that charges it past its limit; cached datasets stay. <size> is bytes\n"
            + "  with an optional k, m, g, t suffix (binary: 1g = 2^30). none clears it.";
    }
  }

  @Override
  Action parse(List<String> args) throws UsageException {
    ControlRequestProto.Builder req = ControlRequestProto.newBuilder().setAction(action);
    switch (action) {
      case PIN:
      case UNPIN:
        req.setPath(positional(args, "<path>").get(0));
        break;
      case TTL:
        List<String> a = positional(args, "<path>", "<duration>");
        req.setPath(a.get(0)).setTtlMs(durationMs(a.get(1)));
        break;
      default:
        String user = option(args, "-user");
        String dir = option(args, "-dir");
        if ((user == null) == (dir == null)) {
          throw new UsageException("give one of -user and -dir");
        }
        long limit = size(positional(args, "<size>").get(0));
        req.setQuota(QuotaProto.newBuilder()
            .setKind(user != null ? QuotaProto.Kind.USER : QuotaProto.Kind.DIR)
            .setName(user != null ? user : dir).setLimitBytes(limit));
    }
    ControlRequestProto request = req.build();
    return (master, json) -> {
      ControlResponseProto r = RpcSupport.call(() -> master.proxy().control(null, request));
      if (json) {
        out.println(ProtoJson.print(ProtoJson.toJson(r)));
        return;
      }
      out.println(describe(request) + (r.getChanged() ? "." : " (it was so already)."));
    };
  }

  private static String describe(ControlRequestProto r) {
    switch (r.getAction()) {
      case PIN:
        return "Pinned " + r.getPath();
      case UNPIN:
        return "Unpinned " + r.getPath();
      case TTL:
        return r.getTtlMs() == 0 ? "Cleared the time to live of " + r.getPath()
            : "Time to live of " + r.getPath() + ": " + Table.age(r.getTtlMs());
      default:
        QuotaProto q = r.getQuota();
        String who = (q.getKind() == QuotaProto.Kind.USER ? "user " : "directory ") + q.getName();
        return q.getLimitBytes() == 0 ? "Cleared the quota of " + who
            : "Quota of " + who + ": " + Table.bytes(q.getLimitBytes());
    }
  }

  /**
   * A duration as {@code 30m}, {@code 12h}, {@code 7d} (units ms, s, m, h, d), or {@code none}
   * for 0.
   */
  static long durationMs(String s) throws UsageException {
    if (s.equals("none")) {
      return 0;
    }
    Matcher m = DURATION.matcher(s.trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new UsageException("duration '" + s + "' is not a number with a unit (ms, s, m, h, "
          + "d), such as 30m, 12h or 7d, nor none");
    }
    long n;
    try {
      n = Long.parseLong(m.group(1));
    } catch (NumberFormatException e) {
      throw new UsageException("duration '" + s + "' is too large");
    }
    TimeUnit unit = switch (m.group(2)) {
      case "ms" -> TimeUnit.MILLISECONDS;
      case "s" -> TimeUnit.SECONDS;
      case "m" -> TimeUnit.MINUTES;
      case "h" -> TimeUnit.HOURS;
      default -> TimeUnit.DAYS;
    };
    long ms = unit.toMillis(n);
    if (ms <= 0 || ms == Long.MAX_VALUE) {
      throw new UsageException("duration '" + s + "' must be positive and below 2^63 ms");
    }
    return ms;
  }

  /** A size as bytes with an optional binary k, m, g, t suffix, or {@code none} for 0. */
  static long size(String s) throws UsageException {
    if (s.equals("none")) {
      return 0;
    }
    long n;
    try {
      n = TraditionalBinaryPrefix.string2long(s);
    } catch (IllegalArgumentException e) {
      throw new UsageException("size '" + s + "' is not bytes with an optional k, m, g, t "
          + "suffix, nor none");
    }
    if (n <= 0) {
      throw new UsageException("size '" + s + "' must be positive (none clears a quota)");
    }
    return n;
  }

  /** Prints the controls: pins, times to live, quotas with their usage, admission filters. */
  static void print(PrintStream out, ControlsProto c) {
    out.println("Admission filters: include " + (c.getIncludeCount() == 0 ? "every path"
        : String.join(",", c.getIncludeList())) + "; exclude " + (c.getExcludeCount() == 0
        ? "none" : String.join(",", c.getExcludeList())));
    out.println("Write budget: " + (c.getWriteBudget() == 0 ? "none"
        : Table.bytes(c.getWriteBudget()) + " per slave per hour; backlog "
        + Table.bytes(c.getWriteBacklogPerSlave()) + " per slave"
        + (c.getOverWriteBudget() ? ", over budget: datasets not read in the last hour are not "
        + "cached" : ", under budget")));
    out.println("Pinned: " + (c.getPinsCount() == 0 ? "none" : String.join(", ",
        c.getPinsList())));
    if (c.getTtlsCount() == 0) {
      out.println("Times to live: none");
    } else {
      Table t = new Table("TTL PATH", ">TIME TO LIVE");
      for (PathTtlProto p : c.getTtlsList()) {
        t.row(p.getPath(), Table.age(p.getTtlMs()));
      }
      t.print(out);
    }
    if (c.getQuotasCount() == 0) {
      out.println("Quotas: none");
    } else {
      Table t = new Table("QUOTA", "NAME", ">LIMIT", ">USED");
      for (QuotaProto q : c.getQuotasList()) {
        t.row(q.getKind().name().toLowerCase(Locale.ROOT), q.getName(),
            Table.bytes(q.getLimitBytes()), Table.bytes(q.getUsedBytes()));
      }
      t.print(out);
    }
  }
}
