package org.mpcache.common;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Test support, shared through the test jar: whether the kernel probes a TCP connection of this
 * host with keepalives, that is whether the socket at one end has {@code SO_KEEPALIVE} set, seen
 * from outside the process that owns it. Linux shows it in {@code /proc/net/tcp} and
 * {@code /proc/net/tcp6}: an established connection's {@code tr} column is 2 while its keepalive
 * timer is pending, and 0 without one (the retransmit timer, 1, runs only while data is
 * unacknowledged). Stateless.
 */
public final class TcpKeepAlive {
  private static final List<Path> TABLES = List.of(Path.of("/proc/net/tcp"),
      Path.of("/proc/net/tcp6"));
  private static final String ESTABLISHED = "01";

  private TcpKeepAlive() {
  }

  /** Whether this host shows its connections' timers (Linux). */
  public static boolean visible() {
    return Files.isReadable(TABLES.get(0));
  }

  /**
   * Whether the established connection from {@code localPort} to {@code remotePort} on this host
   * has its keepalive timer running at the {@code localPort} end.
   *
   * @throws AssertionError when no such connection is established
   */
  public static boolean on(int localPort, int remotePort) throws IOException {
    for (Path table : TABLES) {
      if (!Files.isReadable(table)) {
        continue;
      }
      for (String line : Files.readAllLines(table)) {
        String[] f = line.trim().split("\\s+");
        if (f.length < 6 || !f[3].equals(ESTABLISHED) || port(f[1]) != localPort
            || port(f[2]) != remotePort) {
          continue;
        }
        // tr:tm->when
        return f[5].startsWith("02:");
      }
    }
    throw new AssertionError("no established TCP connection from port " + localPort + " to port "
        + remotePort);
  }

  private static int port(String address) {
    int colon = address.lastIndexOf(':');
    return colon < 0 ? -1 : Integer.parseInt(address.substring(colon + 1), 16);
  }
}
