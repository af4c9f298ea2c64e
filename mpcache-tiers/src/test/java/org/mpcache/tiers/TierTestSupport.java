package org.mpcache.tiers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** What the tier tests share: the kernel-mechanism assumption, leftover removal, timed HDFS I/O. */
final class TierTestSupport {
  private TierTestSupport() {
  }

  /** This machine, or skips the test where it does not allow the kernel mechanism. */
  static HostProbe assumeKernelAllowed() {
    HostProbe host = HostProbe.probe();
    assumeTrue(host.kernelObstacles().isEmpty(),
        "kernel tiers not allowed here: " + host.kernelObstacles());
    return host;
  }

  /** Removes whatever a failed test left attached below {@code dir}, so the folder can go. */
  static void removeKernelLeftovers(java.nio.file.Path dir) throws IOException {
    if (HostProbe.probe().kernelObstacles().isEmpty()) {
      KernelLeftovers.clean(dir.resolve("images"));
    }
  }

  /** Writes {@code bytes} zero bytes (a multiple of 1 MiB) to a new HDFS file. */
  static void write(FileSystem fs, Path file, long bytes) throws IOException {
    byte[] chunk = new byte[1 << 20];
    try (OutputStream out = fs.create(file)) {
      for (long done = 0; done < bytes; done += chunk.length) {
        out.write(chunk);
      }
    }
  }

  /** Reads a whole HDFS file, checks its length and returns the seconds it took. */
  static double readSeconds(FileSystem fs, Path file, long expected) throws IOException {
    byte[] buf = new byte[1 << 20];
    long start = System.nanoTime();
    long read = 0;
    try (InputStream in = fs.open(file)) {
      int n;
      while ((n = in.read(buf)) > 0) {
        read += n;
      }
    }
    assertThat(read).isEqualTo(expected);
    return (System.nanoTime() - start) / 1e9;
  }
}
