package org.mpcache.slave.cache;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.ServerChannelRecvByteBufAllocator;
import io.netty.handler.timeout.ReadTimeoutHandler;
import io.netty.util.AttributeKey;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The most connections one of the slave's Netty servers (the block stream server, the descriptor
 * server) keeps open, as a DataNode caps its transfer threads
 * ({@code dfs.datanode.max.transfer.threads}): each connection a reader holds keeps a socket, and
 * for a granted one a block file, open. A connection over the cap is marked when it opens; the
 * server answers its request with an error naming the key ({@link #busy}) and closes it, and it
 * gets only {@link #BUSY_WAIT_MS} to send that request, so that connections past the cap cost
 * little. Readers refused so read the block through RPC or from HDFS. At most
 * {@link #REFUSING_MAX} connections past the cap are open at once: with that many, the server
 * stops accepting until one closes, and further connections wait in the kernel's accept queue
 * (or are not let in when it is full), where they cost the slave no descriptor. So a flood of
 * connections, however many, holds at most the cap plus {@link #REFUSING_MAX} of the slave's
 * descriptors, and its lookups, fills and RPC reads keep theirs. The server channel accepts one
 * connection per read ({@link #acceptor}), so that the count is checked between accepts.
 *
 * <p>The first handler of every connection's pipeline, shared by them all. Thread-safe: the
 * count is atomic; the mark is a channel attribute; whether the server accepts is decided on
 * its event loop, from the count at that moment.
 */
@Sharable
final class ConnectionCap extends ChannelInboundHandlerAdapter {
  /** How long, in milliseconds, a connection over the cap may take to send its request. */
  static final long BUSY_WAIT_MS = 1_000;
  /** The most connections past the cap open at once, each waiting for its refusal. */
  static final int REFUSING_MAX = 16;
  private static final AttributeKey<Boolean> OVER = AttributeKey.valueOf("mpcache.over-cap");

  private final int max;
  private final String key;
  private final AtomicInteger open = new AtomicInteger();
  private final AtomicLong refused = new AtomicLong();

  /**
   * @param max the most connections served at once
   * @param key the configuration key that sets {@code max}, for the refusal's message
   */
  ConnectionCap(int max, String key) {
    this.max = max;
    this.key = key;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) throws Exception {
    int now = open.incrementAndGet();
    if (now >= max + REFUSING_MAX) {
      accepting(ctx.channel().parent());
    }
    if (now > max) {
      ctx.channel().attr(OVER).set(Boolean.TRUE);
      refused.incrementAndGet();
      if (ctx.pipeline().get(ReadTimeoutHandler.class) != null) {
        ctx.pipeline().replace(ReadTimeoutHandler.class, null,
            new ReadTimeoutHandler(BUSY_WAIT_MS, TimeUnit.MILLISECONDS));
      }
    }
    super.channelActive(ctx);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    if (open.decrementAndGet() < max + REFUSING_MAX) {
      accepting(ctx.channel().parent());
    }
    super.channelInactive(ctx);
  }

  /**
   * Has {@code server} accept connections while fewer than the cap plus {@link #REFUSING_MAX} are
   * open, and stop otherwise: decided on its event loop, in the order the counts changed, so the
   * last decision sees the last count.
   */
  private void accepting(Channel server) {
    if (server == null) {
      return;
    }
    Runnable decide = () -> server.config().setAutoRead(open.get() < max + REFUSING_MAX);
    if (server.eventLoop().inEventLoop()) {
      decide.run();
    } else {
      server.eventLoop().execute(decide);
    }
  }

  /**
   * The receive allocator a capped server channel is to have: one connection accepted per read,
   * so that no batch of accepts passes the cap before it is counted.
   */
  static RecvByteBufAllocator acceptor() {
    return new ServerChannelRecvByteBufAllocator().maxMessagesPerRead(1);
  }

  /** Whether the connection of {@code ctx} opened over the cap: it is to be refused. */
  static boolean over(ChannelHandlerContext ctx) {
    return Boolean.TRUE.equals(ctx.channel().attr(OVER).get());
  }

  /** The refusal's message. */
  String busy() {
    return "busy: the slave serves at most " + max + " connections here (" + key + ")";
  }

  /** Connections open now, those over the cap included. */
  int open() {
    return open.get();
  }

  /** Connections refused for the cap since start. */
  long refused() {
    return refused.get();
  }
}
