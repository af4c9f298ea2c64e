package org.mpcache.minicluster;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for the embedded cluster's daemons that a restart binds again (the master's RPC port, a
 * slave's client and Localized Cache ports): free ports below the kernel's range of ephemeral
 * ports ({@code /proc/sys/net/ipv4/ip_local_port_range}). A port the kernel handed out as "any
 * free port" can be handed to another process's socket while its daemon is down, and the restart
 * then fails with "Address already in use"; a port outside that range is only taken by someone
 * naming it. Where the range cannot be read, any free port (0). Stateless.
 */
final class RebindablePorts {
  /** The lowest port chosen: above the well-known and most registered services' ports. */
  static final int LOWEST = 10_000;
  private static final Path RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
  private static final int TRIES = 200;

  private RebindablePorts() {
  }

  /** A port free on {@code host} now, below the ephemeral range; 0 when none can be chosen. */
  static int pick(String host) {
    int below = ephemeralLow();
    if (below <= LOWEST) {
      return 0;
    }
    for (int i = 0; i < TRIES; i++) {
      int port = ThreadLocalRandom.current().nextInt(LOWEST, below);
      if (free(host, port)) {
        return port;
      }
    }
    return 0;
  }

  /** The low end of the ephemeral range; 0 when it cannot be read. */
  static int ephemeralLow() {
    try {
      // Line by line: a whole-file read trusts the size procfs reports, 0, and reads one byte.
      String[] range = Files.readAllLines(RANGE, StandardCharsets.US_ASCII).get(0).trim()
          .split("\\s+");
      return Integer.parseInt(range[0]);
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  private static boolean free(String host, int port) {
    try (ServerSocket s = new ServerSocket()) {
      s.bind(new InetSocketAddress(host, port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
