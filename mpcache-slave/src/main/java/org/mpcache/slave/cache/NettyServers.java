package org.mpcache.slave.cache;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutorGroup;
import java.util.concurrent.TimeUnit;

/**
 * What the slave's Netty servers (the descriptor server, the block stream server) share: how
 * they stop. Stateless; thread-safe.
 */
final class NettyServers {
  private NettyServers() {
  }

  /**
   * Closes {@code server}, then shuts its event loop and its request workers down, waiting at
   * most a second for each; any of them may be null (a server that never started).
   */
  static void stop(Channel server, EventLoopGroup loop, EventExecutorGroup workers) {
    if (server != null) {
      server.close().awaitUninterruptibly();
    }
    if (loop != null) {
      loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
    }
    if (workers != null) {
      workers.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
    }
  }
}
