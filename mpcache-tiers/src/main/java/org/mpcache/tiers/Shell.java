package org.mpcache.tiers;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the system commands of the kernel mechanism (losetup, mkfs.ext4, mount, umount, sync)
 * with a time limit, and turns a failure into an IOException that quotes the command, its exit
 * status and its output. Stateless and thread-safe.
 */
final class Shell {
  static final long TIMEOUT_SECONDS = 120;

  private Shell() {
  }

  /** Runs {@code cmd}; returns its output (stdout and stderr merged), trimmed. */
  static String run(String... cmd) throws IOException {
    List<String> command = new ArrayList<>(Arrays.asList(cmd));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Thread drain = new Thread(() -> {
      try (InputStream in = p.getInputStream()) {
        in.transferTo(out);
      } catch (IOException ignored) {
        // the process died; what was read so far is reported
      }
    }, "shell-output");
    drain.setDaemon(true);
    drain.start();
    try {
      if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException("'" + String.join(" ", command) + "' did not finish in "
            + TIMEOUT_SECONDS + " s");
      }
      drain.join(5_000);
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted running " + String.join(" ", command));
    }
    String text = out.toString(StandardCharsets.UTF_8).trim();
    if (p.exitValue() != 0) {
      throw new IOException("'" + String.join(" ", command) + "' failed with exit status "
          + p.exitValue() + (text.isEmpty() ? "" : ": " + text));
    }
    return text;
  }
}
