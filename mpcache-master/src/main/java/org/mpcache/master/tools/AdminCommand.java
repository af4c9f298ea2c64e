package org.mpcache.master.tools;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.StringUtils;

/**
 * One subcommand of {@code mpcache admin} (as Hadoop's {@code CacheAdmin} commands): its name,
 * short and long usage, and {@link #run} returning 0 when it succeeded, 1 for bad arguments (after
 * printing what was wrong and the usage) and 2 when the master could not be reached or refused
 * or the command's goal was not reached (after printing why). Every subcommand accepts {@code -json} and then prints one JSON document.
 * Subcommands never exit the JVM.
 *
 * <p>Not thread-safe: one invocation at a time.
 */
abstract class AdminCommand {
  /** Exit code: success. */
  static final int OK = 0;
  /** Exit code: bad arguments. */
  static final int USAGE = 1;
  /** Exit code: the master could not be reached or refused the request. */
  static final int REMOTE_FAILURE = 2;

  protected final PrintStream out;
  protected final PrintStream err;

  AdminCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  /** The subcommand's name, as typed after {@code mpcache admin}. */
  abstract String name();

  /** One line: the name and its arguments. */
  abstract String shortUsage();

  /** What it does and what each argument means. */
  abstract String longUsage();

  /**
   * Parses the arguments (without {@code -json}) and returns the work to do; throws before any
   * remote call when they are wrong.
   */
  abstract Action parse(List<String> args) throws UsageException;

  /** The work of one invocation, once its arguments are known good. */
  @FunctionalInterface
  interface Action {
    void execute(AdminClient master, boolean json) throws IOException;
  }

  /** Runs the subcommand: 0 ok, 1 usage, 2 remote failure. */
  final int run(Configuration conf, List<String> argv) {
    List<String> args = new ArrayList<>(argv);
    boolean json = StringUtils.popOption("-json", args);
    Action action;
    AdminClient master;
    try {
      action = parse(args);
      master = AdminClient.create(conf);
    } catch (UsageException | IllegalArgumentException e) {
      err.println("mpcache admin " + name() + ": " + e.getMessage());
      err.println("Usage: mpcache admin " + shortUsage());
      err.println(longUsage());
      return USAGE;
    }
    try {
      action.execute(master, json);
      return OK;
    } catch (IOException e) {
      err.println("mpcache admin " + name() + ": " + master.describe(e));
      return REMOTE_FAILURE;
    } finally {
      master.close();
    }
  }

  /** Takes the value of {@code option}, or null when absent; a missing value is an error. */
  static String option(List<String> args, String option) throws UsageException {
    int i = args.indexOf(option);
    if (i < 0) {
      return null;
    }
    if (i + 1 >= args.size() || args.get(i + 1).startsWith("-")) {
      throw new UsageException(option + " needs a value");
    }
    args.remove(i);
    return args.remove(i);
  }

  /**
   * Checks that exactly {@code names.length} positional arguments remain and no unknown option.
   */
  static List<String> positional(List<String> args, String... names) throws UsageException {
    for (String a : args) {
      if (a.startsWith("-") && a.length() > 1) {
        throw new UsageException("unknown option " + a);
      }
    }
    if (args.size() < names.length) {
      throw new UsageException("missing " + names[args.size()]);
    }
    if (args.size() > names.length) {
      throw new UsageException("unexpected argument " + args.get(names.length));
    }
    return args;
  }
}
