package org.mpcache.benchmarks.readpath;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The host's busy share between two reads of {@code /proc/stat}. */
class HostCpuTest {
  @TempDir
  Path dir;

  @Test
  void busyShare_betweenTwoReadsCountsIdleAndIoWaitAsFree() throws Exception {
    Path stat = dir.resolve("stat");
    // user nice system idle iowait irq softirq steal guest guest_nice
    write(stat, "cpu  100 0 100 500 300 0 0 0 0 0");
    HostCpu cpu = new HostCpu(stat);
    assertTrue(cpu.busyShare() < 0, "no previous read");
    write(stat, "cpu  160 0 120 510 310 0 0 0 0 0");
    assertEquals(0.8, cpu.busyShare());
    write(stat, "cpu  160 0 120 510 310 0 0 0 0 0");
    assertTrue(cpu.busyShare() < 0, "no time passed");
    write(stat, "cpu  oops");
    assertTrue(cpu.busyShare() < 0, "a malformed line");
    assertTrue(new HostCpu(dir.resolve("missing")).busyShare() < 0);
  }

  private static void write(Path stat, String cpuLine) throws Exception {
    Files.writeString(stat, cpuLine + "\ncpu0 1 2 3 4 5 6 7 8 9 10\n", StandardCharsets.US_ASCII);
  }
}
