package org.mpcache.dist;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One run of an unpacked tarball's {@code bin/mpcache}, as an operator types it: its exit code,
 * what it printed on stdout, and both streams together headed by the command line, for
 * assertion messages. A run that does not end within 120 s is killed and fails the test.
 */
record LauncherRun(int exit, String stdout, String output) {

  /**
   * Runs {@code home/bin/mpcache args} with {@code env} added to the environment; stderr goes
   * through a temporary file in {@code work}.
   */
  static LauncherRun run(Path home, Map<String, String> env, Path work, String... args)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(home.resolve("bin/mpcache").toString());
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().putAll(env);
    Path err = Files.createTempFile(work, "stderr", ".txt");
    pb.redirectError(err.toFile());
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("mpcache " + String.join(" ", args) + " did not finish");
    }
    String stderr = Files.readString(err);
    Files.delete(err);
    return new LauncherRun(p.exitValue(), out, "$ mpcache " + String.join(" ", args) + "\n"
        + out + stderr);
  }
}
