package org.mpcache.common.domain;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.channel.unix.DomainSocketReadMode;
import io.netty.channel.unix.FileDescriptor;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.FileChannel;
import java.util.ArrayDeque;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.mpcache.common.proto.ClientSlaveProtos.DescriptorReleaseProto;
import org.mpcache.common.proto.ClientSlaveProtos.DescriptorRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.DescriptorResponseProto;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.proto.MpCacheProtos.BlockKeyProto;

/**
 * The client side of descriptor passing: asks the slave on this host, over its Unix domain
 * socket, for an open descriptor of a cached block's file (the exchange is described in
 * {@code ClientSlaveProtocol.proto}), as HDFS short-circuit readers ask a DataNode. The
 * descriptor arrives through Netty's native epoll transport; it is turned into a
 * {@link FileChannel} by opening {@code /proc/self/fd/<fd>} (which works for a file the slave has
 * unlinked since) and Netty's copy is closed at once.
 *
 * <p>Where the transport is unavailable (not Linux x86-64, no native library), {@link #isAvailable}
 * says so and the caller reads through the slave's RPC instead.
 *
 * <p>Thread-safe: requests share one event loop thread per JVM, a daemon started at the first
 * request; each {@link Lease} is used by one reader at a time.
 */
public final class DescriptorClient {

  /** The event loop, made at first use. */
  private static final class Loop {
    static final EventLoopGroup GROUP = new EpollEventLoopGroup(1,
        new DefaultThreadFactory("mpcache-descriptors", true));
  }

  private DescriptorClient() {
  }

  /** Whether this JVM can receive descriptors (Linux, Netty's native epoll library loaded). */
  public static boolean isAvailable() {
    return Epoll.isAvailable();
  }

  /** Why {@link #isAvailable} is false; null when it is true. */
  public static Throwable unavailabilityCause() {
    return Epoll.unavailabilityCause();
  }

  /**
   * The slave's hold on a lent block for its reader: what a reader of the block file needs of a
   * {@link Lease}, and what tests stand in for.
   */
  public interface Hold {
    /**
     * Whether the slave still holds the block for this reader: granted, not released, not
     * revoked, and the connection open (a slave that restarted, or closed it, no longer does).
     */
    boolean held();

    /**
     * Closes the file and ends the hold, telling the slave how many bytes were read through it;
     * waits up to the request's release timeout for the slave to settle it, so that its counters
     * include this read when the call returns. Idempotent.
     */
    void release(long bytesRead);

    /**
     * As {@link #release}, without waiting: the file is closed and the release sent at once; the
     * returned future is done once the slave has settled it, or the release timeout passed.
     */
    java.util.concurrent.Future<?> releaseLater(long bytesRead);

    /**
     * Runs {@code listener} once the slave revokes the hold (it removed the block), at once if
     * it has: on the descriptor thread, so it must not block. One listener per hold.
     */
    void onRevoked(Runnable listener);

    /**
     * Tells the slave, keeping the hold, how many bytes were read through it since the last
     * report and, when {@code access} is not null, that a new reader (as its lookup names it)
     * reads the block: the slave counts the hit. The future is done once the slave has counted
     * them, or the connection closed.
     */
    java.util.concurrent.Future<?> report(long bytesRead, BlockAccessProto access);
  }

  /**
   * A slave's answer; when granted, the block file opened for reading and the connection that
   * holds the block for the reader until {@link #release}.
   *
   * <p>Thread-safe: its reports may come from any thread; it is released once.
   */
  public static final class Lease implements Hold {
    private final DescriptorResponseProto response;
    private final FileChannel file;
    private final Channel connection;
    private final long timeoutMs;
    private final LeaseEvents events;
    private volatile boolean released;

    private Lease(DescriptorResponseProto response, FileChannel file, Channel connection,
        long timeoutMs, LeaseEvents events) {
      this.response = response;
      this.file = file;
      this.connection = connection;
      this.timeoutMs = timeoutMs;
      this.events = events;
    }

    @Override
    public void onRevoked(Runnable listener) {
      events.listen(listener);
    }

    public DescriptorResponseProto response() {
      return response;
    }

    public boolean granted() {
      return file != null;
    }

    @Override
    public boolean held() {
      return file != null && !released && !events.revoked && connection.isOpen();
    }

    /** The block file, read-only; null unless {@link #granted}. */
    public FileChannel file() {
      return file;
    }

    @Override
    public Future<?> report(long bytesRead, BlockAccessProto access) {
      DescriptorReleaseProto.Builder b = DescriptorReleaseProto.newBuilder()
          .setBytesRead(Math.max(0, bytesRead)).setKeep(true);
      if (access != null) {
        b.setAccess(access);
      }
      Promise<Void> counted = connection.eventLoop().newPromise();
      connection.eventLoop().execute(() -> {
        if (released || !connection.isOpen()) {
          counted.trySuccess(null);
          return;
        }
        events.reports.add(counted);
        connection.writeAndFlush(DescriptorFrames.encode(b.build()));
      });
      return counted;
    }

    @Override
    public void release(long bytesRead) {
      releaseLater(bytesRead).awaitUninterruptibly(timeoutMs);
    }

    /**
     * {@inheritDoc} Settled means the slave has closed the connection, or the release timeout
     * closed it from this side. Idempotent.
     */
    @Override
    public Future<?> releaseLater(long bytesRead) {
      if (file != null) {
        try {
          file.close();
        } catch (IOException ignored) {
          // A read-only file: nothing is lost.
        }
      }
      if (!released && connection.isOpen()) {
        released = true;
        connection.writeAndFlush(DescriptorFrames.encode(
            DescriptorReleaseProto.newBuilder().setBytesRead(Math.max(0, bytesRead)).build()));
        ScheduledFuture<?> giveUp = connection.eventLoop().schedule(
            () -> connection.close(), timeoutMs, TimeUnit.MILLISECONDS);
        connection.closeFuture().addListener(f -> giveUp.cancel(false));
      }
      return connection.closeFuture();
    }
  }

  /**
   * Asks the slave listening on {@code socketPath} for block {@code block}'s file.
   *
   * @param token the block's access token, URL-safe; empty when HDFS issued none
   * @param access the reader's access to the block, when the request stands for its lookup
   *     (a grant counts the hit); null when the block was looked up already
   * @param timeoutMs the limit of the whole exchange
   * @param releaseTimeoutMs how long the lease's release waits for the slave to settle it (its
   *     own limit, not what is left of the exchange's: a slow exchange must not leave the slave's
   *     counters behind the read)
   * @return the slave's answer; a granted one holds the file open until it is released
   * @throws IOException when the socket cannot be reached, the slave broke the protocol, or the
   *     exchange took longer than {@code timeoutMs}
   */
  public static Lease request(String socketPath, BlockKeyProto block, String token,
      BlockAccessProto access, long timeoutMs, long releaseTimeoutMs) throws IOException {
    if (!isAvailable()) {
      throw new IOException("descriptor passing is unavailable: " + unavailabilityCause());
    }
    DescriptorRequestProto.Builder b = DescriptorRequestProto.newBuilder().setBlock(block)
        .setBlockToken(token);
    if (access != null) {
      b.setAccess(access);
    }
    DescriptorRequestProto req = b.build();
    CompletableFuture<Received> done = new CompletableFuture<>();
    LeaseEvents events = new LeaseEvents();
    Bootstrap boot = new Bootstrap().group(Loop.GROUP).channel(EpollDomainSocketChannel.class)
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, timeoutMs))
        .handler(new ChannelInitializer<EpollDomainSocketChannel>() {
          @Override
          protected void initChannel(EpollDomainSocketChannel ch) {
            ch.pipeline().addLast(DescriptorFrames.decoder(DescriptorFrames.MAX_RESPONSE_BYTES),
                new Exchange(req, done, events));
          }
        });
    Channel ch = boot.connect(new DomainSocketAddress(socketPath)).channel();
    Received r;
    try {
      r = done.get(timeoutMs, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      ch.close();
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted asking " + socketPath + " for a descriptor");
    } catch (TimeoutException e) {
      ch.close();
      // A descriptor arriving from now on is closed by the exchange.
      done.cancel(false);
      throw new IOException("no answer from " + socketPath + " in " + timeoutMs + " ms");
    } catch (ExecutionException e) {
      ch.close();
      Throwable cause = e.getCause();
      throw new IOException("descriptor request to " + socketPath + " failed: " + cause, cause);
    }
    if (r.fd == null) {
      ch.close();
      return new Lease(r.response, null, ch, releaseTimeoutMs, events);
    }
    FileChannel file;
    try {
      file = FileChannel.open(Path.of("/proc/self/fd/" + r.fd.intValue()),
          StandardOpenOption.READ);
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw new IOException("cannot open the descriptor " + socketPath + " passed: " + e, e);
    } finally {
      r.fd.close();
    }
    return new Lease(r.response, file, ch, releaseTimeoutMs, events);
  }

  /**
   * What the slave says on a lease's connection after the descriptor: the revocation, and
   * whoever hears of it; the answers to the reports of a kept file, in order.
   */
  private static final class LeaseEvents {
    private volatile boolean revoked;
    private volatile Runnable listener;
    /** Reports awaiting their answer; touched on the event loop only. */
    private final ArrayDeque<Promise<Void>> reports = new ArrayDeque<>();

    void answered() {
      Promise<Void> p = reports.poll();
      if (p != null) {
        p.trySuccess(null);
      }
    }

    void closed() {
      reports.forEach(p -> p.trySuccess(null));
      reports.clear();
    }

    void revoke() {
      revoked = true;
      Runnable l = listener;
      if (l != null) {
        l.run();
      }
    }

    void listen(Runnable l) {
      listener = l;
      if (revoked) {
        l.run();
      }
    }
  }

  /** What the exchange received: the answer, and the descriptor when granted. */
  private static final class Received {
    final DescriptorResponseProto response;
    final FileDescriptor fd;

    Received(DescriptorResponseProto response, FileDescriptor fd) {
      this.response = response;
      this.fd = fd;
    }
  }

  /**
   * One connection's exchange, on the event loop: sends the request, reads the answer, and for a
   * grant switches the socket to reading descriptors before saying it is ready (a descriptor
   * read as bytes would be lost).
   */
  private static final class Exchange extends ChannelInboundHandlerAdapter {
    private final DescriptorRequestProto request;
    private final CompletableFuture<Received> done;
    private final LeaseEvents events;
    private DescriptorResponseProto response;

    Exchange(DescriptorRequestProto request, CompletableFuture<Received> done,
        LeaseEvents events) {
      this.request = request;
      this.done = done;
      this.events = events;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
      ctx.writeAndFlush(DescriptorFrames.encode(request));
      super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
      if (msg instanceof FileDescriptor) {
        FileDescriptor fd = (FileDescriptor) msg;
        if (response == null || !done.complete(new Received(response, fd))) {
          fd.close();
        }
        // Back to frames: the slave's revocation, if it comes, is one.
        ((EpollDomainSocketChannel) ctx.channel()).config()
            .setReadMode(DomainSocketReadMode.BYTES);
        return;
      }
      if (msg instanceof ByteBuf && response != null && done.isDone()) {
        boolean revoked = ((ByteBuf) msg).readableBytes() == 0;
        ((ByteBuf) msg).release();
        if (revoked) {
          events.revoke();
        } else {
          events.answered();
        }
        return;
      }
      if (!(msg instanceof ByteBuf) || response != null) {
        ReferenceCountUtil.release(msg);
        fail(ctx, new IOException("unexpected message from the slave after its answer"));
        return;
      }
      response = DescriptorFrames.decode((ByteBuf) msg, DescriptorResponseProto.parser(),
          "descriptor answer");
      if (response.getStatus() != DescriptorResponseProto.Status.GRANTED) {
        done.complete(new Received(response, null));
        ctx.close();
        return;
      }
      ((EpollDomainSocketChannel) ctx.channel()).config()
          .setReadMode(DomainSocketReadMode.FILE_DESCRIPTORS);
      ctx.writeAndFlush(DescriptorFrames.ready());
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      fail(ctx, cause);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
      events.closed();
      done.completeExceptionally(new EOFException("the slave closed the connection"
          + (response == null ? " without an answer" : " before sending the descriptor")));
      super.channelInactive(ctx);
    }

    private void fail(ChannelHandlerContext ctx, Throwable cause) {
      done.completeExceptionally(cause);
      ctx.close();
    }
  }
}
