package org.mpcache.slave.cache;

/**
 * What bounds the connections of one of the slave's Netty servers (the block stream server, the
 * descriptor server), read once from the configuration: how many may be open at once
 * ({@link ConnectionCap}), how long a new one may take to send its request, and how long a
 * granted one may stay silent before it is closed (0: as long as its reader keeps it, for the
 * descriptor server, whose readers are local processes the kernel closes for when they end).
 * Immutable.
 *
 * @param maxConnections the most connections open at once, at least 1
 * @param maxConnectionsKey the key that set {@code maxConnections}, for refusals' messages
 * @param requestTimeoutMs how long a connection may take to send its request
 * @param idleTimeoutMs how long a granted connection may stay silent; 0 for no limit
 */
public record ConnectionLimits(int maxConnections, String maxConnectionsKey,
    long requestTimeoutMs, long idleTimeoutMs) {
  public ConnectionLimits {
    if (maxConnections < 1 || requestTimeoutMs < 1 || idleTimeoutMs < 0) {
      throw new IllegalArgumentException("connection limits must be positive: "
          + maxConnections + " connections (" + maxConnectionsKey + "), request timeout "
          + requestTimeoutMs + " ms, idle timeout " + idleTimeoutMs + " ms");
    }
  }
}
