package org.mpcache.minicluster;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/**
 * A port for a daemon that a restart binds again lies below the kernel's ephemeral range, where
 * no socket asking for any free port can be given it, and is free when chosen.
 */
class RebindablePortsTest {

  @Test
  void pick_isAFreePortBelowTheEphemeralRange() throws Exception {
    int low = RebindablePorts.ephemeralLow();
    assumeTrue(low > RebindablePorts.LOWEST, "the kernel's ephemeral range can be read here");
    for (int i = 0; i < 20; i++) {
      int port = RebindablePorts.pick("127.0.0.1");
      assertTrue(port >= RebindablePorts.LOWEST && port < low,
          port + " outside [" + RebindablePorts.LOWEST + ", " + low + ")");
      try (ServerSocket s = new ServerSocket()) {
        s.bind(new InetSocketAddress("127.0.0.1", port));
      }
    }
  }
}
