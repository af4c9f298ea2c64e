package org.mpcache.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import java.util.function.Predicate;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.Time;
import org.apache.hadoop.util.ToolRunner;
import org.mpcache.master.tools.MpCacheAdmin;

/**
 * One run of {@code mpcache admin} through its entry point ({@link MpCacheAdmin} under
 * {@link ToolRunner}), as the calling thread's user or as a given one: its exit code and what it
 * printed. Immutable.
 */
public final class AdminCliRun {
  private static final ObjectMapper JSON = new ObjectMapper();

  public final int code;
  public final String out;
  public final String err;

  private AdminCliRun(int code, String out, String err) {
    this.code = code;
    this.out = out;
    this.err = err;
  }

  /** Runs the CLI with {@code args} and {@code conf}, as the current user. */
  public static AdminCliRun run(Configuration conf, String... args) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code;
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      code = ToolRunner.run(conf, new MpCacheAdmin(o, e), args);
    }
    return new AdminCliRun(code, out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8));
  }

  /**
   * Runs the CLI until it exits 0, for up to 30 s: the first call after a master restart may
   * fail on the pooled connection to the old master.
   */
  public static AdminCliRun runUntilOk(Configuration conf, String... args) throws Exception {
    long deadline = Time.monotonicNow() + 30_000;
    while (true) {
      AdminCliRun r = run(conf, args);
      if (r.code == 0) {
        return r;
      }
      if (Time.monotonicNow() > deadline) {
        throw new AssertionError(String.join(" ", args) + ": " + r);
      }
      Thread.sleep(200);
    }
  }

  /**
   * The dataset of input path {@code path} as {@code datasets -path PATH -json} shows it, or null.
   */
  public static JsonNode dataset(Configuration conf, String path) throws Exception {
    JsonNode all = runUntilOk(conf, "datasets", "-path", path, "-json").json().get("datasets");
    return all.size() == 1 ? all.get(0) : null;
  }

  /**
   * Polls the dataset of {@code path} for up to 30 s until {@code done} accepts it; returns what
   * it accepted, or fails naming {@code what} with every dataset and the report.
   */
  public static JsonNode awaitDataset(Configuration conf, String path, String what,
      Predicate<JsonNode> done) throws Exception {
    long deadline = Time.monotonicNow() + 30_000;
    while (true) {
      JsonNode d = dataset(conf, path);
      if (d != null && done.test(d)) {
        return d;
      }
      if (Time.monotonicNow() > deadline) {
        throw new AssertionError("timed out waiting until " + what + "; last seen " + d
            + "; all: " + runUntilOk(conf, "datasets", "-json").out
            + runUntilOk(conf, "report").out);
      }
      Thread.sleep(200);
    }
  }

  /** Runs the CLI as {@code user}, whose name the master sees on the call. */
  public static AdminCliRun runAs(UserGroupInformation user, Configuration conf, String... args)
      throws Exception {
    return user.doAs((PrivilegedExceptionAction<AdminCliRun>) () -> run(conf, args));
  }

  /** What {@code -json} printed. */
  public JsonNode json() throws IOException {
    return JSON.readTree(out);
  }

  @Override
  public String toString() {
    return "exit " + code + "\n--- out\n" + out + "--- err\n" + err;
  }
}
