package org.mpcache.common.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.BiFunction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.Test;

/**
 * The tests every mpCache command-line tool passes, inherited by one test class per tool: through
 * {@link ToolRunner}, {@code --help} gives 0 and a usage listing every declared option with its
 * argument name and default, and an unknown option gives 1 and a message naming it. A subclass
 * passes the tool's constructor taking the output and error streams; {@link #run} and
 * {@link #assertUsageError} serve its own cases. None of these starts anything: parsing fails
 * first.
 */
public abstract class ToolCommandLineContract {
  private final BiFunction<PrintStream, PrintStream, CommandLineTool> tool;

  /** What one run through ToolRunner gave: the exit status and what it printed. */
  public record Result(int status, String out, String err) {
  }

  protected ToolCommandLineContract(BiFunction<PrintStream, PrintStream, CommandLineTool> tool) {
    this.tool = tool;
  }

  /** Runs a new tool with {@code args} through ToolRunner and captures what it prints. */
  protected Result run(String... args) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status;
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      status = ToolRunner.run(new Configuration(), tool.apply(o, e), args);
    }
    return new Result(status, out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8));
  }

  /** Asserts that {@code args} is a usage error (1) whose message holds every fragment. */
  protected void assertUsageError(String[] args, String... fragments) throws Exception {
    Result r = run(args);
    assertEquals(1, r.status(), r.err());
    String message = r.err().lines().findFirst().orElse("");
    for (String f : fragments) {
      assertTrue(message.contains(f), "'" + f + "' not in: " + message);
    }
    assertTrue(r.err().contains("Options:"), "no usage after the message: " + r.err());
  }

  @Test
  public void help_listsEveryOptionWithArgumentAndDefault() throws Exception {
    for (String help : new String[] {"--help", "-h"}) {
      Result r = run(help);
      assertEquals(0, r.status(), r.err());
      String usage = r.out().replaceAll("\\s+", " ");
      ToolOptions options = tool.apply(System.out, System.err).options();
      for (String name : options.names()) {
        assertTrue(usage.contains(options.label(name)), options.label(name) + " not in " + usage);
        if (options.argName(name) != null) {
          assertTrue(usage.contains(options.argName(name)), options.argName(name) + " of "
              + name + " not in " + usage);
        }
        assertTrue(usage.contains("(default: " + options.shownDefault(name) + ")"),
            "default of " + name + " not in " + usage);
      }
    }
  }

  @Test
  public void run_unknownOption_exits1NamingIt() throws Exception {
    assertUsageError(new String[] {"--bogus", "1"}, "--bogus");
  }
}
