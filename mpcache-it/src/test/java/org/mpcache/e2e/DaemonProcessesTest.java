package org.mpcache.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The ports the process-level tests choose for their daemons. */
class DaemonProcessesTest {
  private static final Path RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

  @Test
  void ephemeralLow_isTheKernelsFigure() throws IOException {
    assumeTrue(Files.isReadable(RANGE), "no " + RANGE + " on this system");
    String first = Files.readAllLines(RANGE).get(0).trim().split("\\s+")[0];
    assertEquals(Integer.parseInt(first), DaemonProcesses.ephemeralLow());
  }

  @Test
  void freePorts_lieBelowTheEphemeralRange() throws IOException {
    int low = DaemonProcesses.ephemeralLow();
    assumeTrue(low > 10_100, "the ephemeral range starts at " + low + ": no room below it");
    int[] ports = DaemonProcesses.freePorts(5);
    assertTrue(Arrays.stream(ports).allMatch(p -> p >= 10_000 && p < low),
        Arrays.toString(ports) + " not all in [10000, " + low + ")");
    assertEquals(5, Arrays.stream(ports).distinct().count(), Arrays.toString(ports));
  }
}
