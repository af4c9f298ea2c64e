package org.mpcache.master.tools;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.util.ExitUtil;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.mpcache.common.MpCacheConfiguration;
import org.mpcache.common.proto.AdminProtos.ControlRequestProto;

/**
 * {@code mpcache admin}: the operators' command line for a running mpCache cluster, a Hadoop
 * {@link Tool} run through {@link ToolRunner} (so {@code -D key=value} and {@code -conf file}
 * work). The first argument names the subcommand; see {@code docs/admin.md}. Exit codes: 0 ok,
 * 1 bad arguments (the usage is printed), 2 the master could not be reached or refused.
 *
 * <p>Not thread-safe: one run at a time.
 */
public class MpCacheAdmin extends Configured implements Tool {
  private final PrintStream out;
  private final PrintStream err;

  public MpCacheAdmin() {
    this(System.out, System.err);
  }

  /** A CLI printing to the given streams (for tests and embedding). */
  public MpCacheAdmin(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  private Map<String, AdminCommand> commands() {
    Map<String, AdminCommand> m = new LinkedHashMap<>();
    for (AdminCommand c : List.of(new ReportCommand(out, err), new DatasetsCommand(out, err),
        new ExplainCommand(out, err), new EvictCommand(out, err), new PrefetchCommand(out, err),
        new DecommissionCommand(out, err), new RefreshCommand(out, err),
        new ControlCommand(ControlRequestProto.Action.PIN, out, err),
        new ControlCommand(ControlRequestProto.Action.UNPIN, out, err),
        new ControlCommand(ControlRequestProto.Action.TTL, out, err),
        new ControlCommand(ControlRequestProto.Action.QUOTA, out, err))) {
      m.put(c.name(), c);
    }
    return m;
  }

  @Override
  public int run(String[] args) {
    Map<String, AdminCommand> commands = commands();
    if (args.length == 0) {
      err.println("mpcache admin: name a subcommand.");
      usage(err, commands);
      return AdminCommand.USAGE;
    }
    String name = args[0].startsWith("-") ? args[0].substring(1) : args[0];
    if (name.equals("help") || name.equals("h")) {
      AdminCommand c = args.length > 1 ? commands.get(args[1].replaceFirst("^-", "")) : null;
      if (c == null) {
        usage(out, commands);
      } else {
        out.println("Usage: mpcache admin " + c.shortUsage());
        out.println(c.longUsage());
      }
      return AdminCommand.OK;
    }
    AdminCommand c = commands.get(name);
    if (c == null) {
      err.println("mpcache admin: unknown subcommand '" + args[0] + "'.");
      usage(err, commands);
      return AdminCommand.USAGE;
    }
    return c.run(getConf(), Arrays.asList(args).subList(1, args.length));
  }

  private static void usage(PrintStream s, Map<String, AdminCommand> commands) {
    s.println("Usage: mpcache admin <subcommand> [options]   (every subcommand takes -json)");
    for (AdminCommand c : commands.values()) {
      s.println("  " + c.shortUsage());
    }
    s.println("mpcache admin help <subcommand> describes one. Exit codes: 0 ok, 1 bad "
        + "arguments, 2 master unreachable or refused.");
  }

  /** Runs the CLI with mpcache-site.xml from the classpath and exits with its code. */
  public static void main(String[] args) throws Exception {
    ExitUtil.terminate(ToolRunner.run(MpCacheConfiguration.create(), new MpCacheAdmin(), args));
  }
}
