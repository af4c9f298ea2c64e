package org.mpcache.common.tools;

import java.io.PrintStream;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.util.Tool;

/**
 * The base of mpCache's command-line tools: a Hadoop {@link Tool} whose {@link #run(String[])}
 * parses what ToolRunner leaves of the command line against {@link #options()} and hands the
 * values to {@link #execute}, printing the help for {@code --help} (0) and a usage error with the
 * help for a bad command line (1); see {@link ToolOptions#run}. A tool prints its results and help
 * to {@link #console} and its errors to {@link #errors}: the standard streams from {@code main},
 * others in tests. Its {@code main} is {@code System.exit(ToolRunner.run(conf, new X(), args))}.
 */
public abstract class CommandLineTool extends Configured implements Tool {
  /** Where the tool prints its results and the help. */
  protected final PrintStream console;
  /** Where the tool prints usage errors and failures. */
  protected final PrintStream errors;

  /** A tool printing to the standard streams. */
  protected CommandLineTool() {
    this(System.out, System.err);
  }

  /** A tool printing its results and help to {@code console}, errors to {@code errors}. */
  protected CommandLineTool(PrintStream console, PrintStream errors) {
    this.console = console;
    this.errors = errors;
  }

  /** The tool's options and arguments, with their defaults. */
  public abstract ToolOptions options();

  /**
   * Reads {@code values} (a bad one throws {@link ToolOptions.UsageException}), then does the
   * tool's work.
   *
   * @return the exit status: 0 when done, 2 for a failure the tool reports itself
   */
  protected abstract int execute(ToolOptions.Values values) throws Exception;

  @Override
  public final int run(String[] args) throws Exception {
    return options().run(args, getConf(), console, errors, this::execute);
  }
}
