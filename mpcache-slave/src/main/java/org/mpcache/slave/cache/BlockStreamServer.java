package org.mpcache.slave.cache;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.handler.timeout.ReadTimeoutHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.DefaultEventExecutorGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutorGroup;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.FileChannel;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.service.AbstractService;
import org.mpcache.common.domain.DescriptorFrames;
import org.mpcache.common.proto.ClientSlaveProtos.StreamRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.StreamResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.StreamResponseProto.Status;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.slave.SlaveConfigKeys;
import org.mpcache.slave.security.BlockAccessChecker;
import org.mpcache.slave.space.ForegroundActivity;
import org.mpcache.slave.store.BlockLease;
import org.mpcache.slave.store.FileBlockStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Remote hits and the RPC fallback as a stream: on a TCP port
 * ({@code mpcache.slave.stream.address}), the slave sends a cached block's file to a reader with
 * {@code FileChannel.transferTo} (Netty's {@link DefaultFileRegion}: the bytes go from the page
 * cache to the socket without passing through the JVM) and the chunks' stored CRC32Cs alongside,
 * instead of one protobuf {@code read} message per MiB. The exchange is in
 * {@code ClientSlaveProtocol.proto} ("Block streams"); lookups, fills and reports stay on RPC.
 *
 * <p>Every request is authorized exactly as a {@code lookup} or {@code read} is, by the slave's
 * {@link BlockAccessChecker} (the HDFS block token of the block); a refused, malformed or
 * oversized request, or one for another block than the connection's first, gets an answer with
 * no bytes and the connection is closed. The first granted request leases the block
 * ({@link BlockLender}): an evicted block's file stays readable on this connection to its end,
 * and its space is freed when the connection closes. A granted connection silent for longer
 * than its idle timeout (no request, no byte of an answer taken) is closed, so a reader whose
 * host vanished frees it too; and at most {@code mpcache.slave.stream.max-connections} are open
 * at once ({@link ConnectionCap}): one more is answered with an error naming the key and closed.
 * With {@code mpcache.slave.stream.keepalive} (the default), the kernel also probes every
 * connection with TCP keepalives, so one whose peer is gone fails even while it is not silent
 * long enough for the idle timeout.
 *
 * <p>The stream neither authenticates its caller by SASL nor signs or encrypts: the slave does
 * not serve it under Kerberos or when {@code hadoop.rpc.protection} asks for integrity or privacy
 * (the caller decides, see {@link org.mpcache.common.stream.BlockStreamConnection#allowed}), and
 * readers then read through the protected RPC.
 *
 * <p>Thread-safe: the event loop reads and writes; each connection's requests are checked and
 * its files opened on a small pool of workers, in order, so the loop never waits on a disk or the
 * NameNode. Each connection's state is confined to its handler, which Netty runs on one worker
 * thread at a time. A connection that sends requests faster than its socket drains stops being
 * read until the socket can take more.
 */
public final class BlockStreamServer extends AbstractService {
  private static final Logger LOG = LoggerFactory.getLogger(BlockStreamServer.class);
  /** Threads checking requests and opening files; few, as each answer is quick. */
  private static final int WORKERS = 4;

  private final InetSocketAddress bind;
  private final FileBlockStore store;
  private final SlaveCounters counters;
  /** Hears of the bytes each answer sends from the SSD. */
  private final ForegroundActivity foreground;
  private final BlockLender lender;
  private final int readMaxBytes;
  private final ConnectionLimits limits;
  private final ConnectionCap cap;
  private final boolean keepAlive;
  private EventLoopGroup loop;
  private EventExecutorGroup workers;
  private Channel server;
  /** The port bound at start; 0 before. */
  private volatile int port;

  /**
   * @param cache drops a block found corrupt (its checksum file gone or short)
   * @param readMaxBytes the most bytes one request is answered with
   * @param limits how many connections may be open, how long a connection may take to send its
   *     first request, and how long a granted one may then stay silent
   * @param keepAlive whether connections have TCP keepalive on ({@code SO_KEEPALIVE})
   */
  public BlockStreamServer(InetSocketAddress bind, InputCache cache, BlockAccessChecker access,
      ForegroundActivity foreground, int readMaxBytes, ConnectionLimits limits,
      boolean keepAlive) {
    super(BlockStreamServer.class.getSimpleName());
    this.bind = bind;
    this.store = cache.store();
    this.counters = cache.counters();
    this.foreground = foreground;
    this.lender = new BlockLender(cache, access);
    this.readMaxBytes = readMaxBytes;
    this.limits = limits;
    this.cap = new ConnectionCap(limits.maxConnections(), limits.maxConnectionsKey());
    this.keepAlive = keepAlive;
  }

  @Override
  protected void serviceStart() throws Exception {
    loop = new NioEventLoopGroup(1, new DefaultThreadFactory("mpcache-stream-loop", true));
    workers = new DefaultEventExecutorGroup(WORKERS,
        new DefaultThreadFactory("mpcache-stream-worker", true));
    try {
      server = new ServerBootstrap().group(loop).channel(NioServerSocketChannel.class)
          .option(ChannelOption.RCVBUF_ALLOCATOR, ConnectionCap.acceptor())
          .childOption(ChannelOption.TCP_NODELAY, true)
          .childOption(ChannelOption.SO_KEEPALIVE, keepAlive)
          .childHandler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
              ch.pipeline().addLast(cap)
                  .addLast(new ReadTimeoutHandler(limits.requestTimeoutMs(),
                      TimeUnit.MILLISECONDS))
                  .addLast(DescriptorFrames.decoder(DescriptorFrames.MAX_REQUEST_BYTES))
                  .addLast(workers, new Connection());
            }
          }).bind(bind).sync().channel();
    } catch (Exception e) {
      throw new IOException("Cannot serve block streams on " + bind + " ("
          + SlaveConfigKeys.STREAM_ADDRESS_KEY + "): " + e, e);
    }
    port = ((InetSocketAddress) server.localAddress()).getPort();
    LOG.info("Streaming cached blocks to readers on {}", server.localAddress());
    super.serviceStart();
  }

  @Override
  protected void serviceStop() throws Exception {
    NettyServers.stop(server, loop, workers);
    super.serviceStop();
  }

  /** The port the server listens on; 0 before it started. */
  public int port() {
    return port;
  }

  /** Connections open now, those being refused for the cap included. */
  public int connections() {
    return cap.open();
  }

  /** Connections refused since start because {@link ConnectionLimits#maxConnections} were open. */
  public long connectionsRefused() {
    return cap.refused();
  }

  /**
   * The file's bytes, sent by {@code transferTo}; the connection's file stays open for its next
   * requests, so a region does not close it when it is done.
   */
  private static final class Region extends DefaultFileRegion {
    Region(FileChannel file, long position, long count) {
      super(file, position, count);
    }

    @Override
    protected void deallocate() {
      // The connection closes the file when it ends.
    }
  }

  /** One connection: one block's requests, answered in order. */
  private final class Connection extends ChannelInboundHandlerAdapter {
    private BlockLender.Loan loan;
    private FileChannel file;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      if (!(msg instanceof ByteBuf)) {
        ReferenceCountUtil.release(msg);
        ctx.close();
        return;
      }
      if (ConnectionCap.over(ctx)) {
        ReferenceCountUtil.release(msg);
        refuse(ctx, Status.ERROR, cap.busy());
        return;
      }
      StreamRequestProto req;
      try {
        req = DescriptorFrames.decode((ByteBuf) msg, StreamRequestProto.parser(),
            "stream request");
      } catch (IOException e) {
        refuse(ctx, Status.REFUSED, e.getMessage());
        return;
      }
      if (loan == null) {
        BlockLender.Loan l = lender.lend(req.getBlock(), req.getBlockToken(), peer(ctx));
        if (l.outcome() != BlockLender.Outcome.GRANTED) {
          refuse(ctx, Status.valueOf(l.outcome().name()), l.message());
          return;
        }
        loan = l;
        file = l.file().getChannel();
        // A granted reader may pause between requests, but not for ever: it holds the block's
        // space. An answer the reader is still taking counts as activity.
        ctx.pipeline().replace(ReadTimeoutHandler.class, null, new IdleStateHandler(true, 0, 0,
            limits.idleTimeoutMs(), TimeUnit.MILLISECONDS));
      } else {
        Optional<String> refused = lender.refusal(req.getBlock(), req.getBlockToken());
        if (refused.isEmpty()
            && !loan.lease().key().equals(ProtoConverters.fromProto(req.getBlock()))) {
          refused = Optional.of("a stream carries one block; open another for block "
              + req.getBlock().getBlockId());
        }
        if (refused.isPresent()) {
          refuse(ctx, Status.REFUSED, refused.get());
          return;
        }
      }
      send(ctx, req);
    }

    /** Answers a granted request: the range's checksums, then its bytes from the file. */
    private void send(ChannelHandlerContext ctx, StreamRequestProto req) {
      BlockLease lease = loan.lease();
      long length = lease.length();
      int chunk = lease.chunkSize();
      if (req.getOffset() >= length) {
        refuse(ctx, Status.REFUSED, "offset " + req.getOffset() + " is outside the block's "
            + length + " bytes");
        return;
      }
      long start = req.getOffset() - req.getOffset() % chunk;
      long want = Math.min(Integer.toUnsignedLong(req.getLength()), readMaxBytes);
      long end = Math.min(length, req.getOffset() + Math.max(1, want));
      long alignedEnd = Math.min(length, (end + chunk - 1) / chunk * chunk);
      int n = (int) (alignedEnd - start);
      StreamResponseProto.Builder b = StreamResponseProto.newBuilder().setStatus(Status.GRANTED)
          .setOffset(start).setLength(n).setChunkSize(chunk);
      int[] crcs = lease.checksums();
      for (int i = (int) (start / chunk); i < (alignedEnd + chunk - 1) / chunk; i++) {
        b.addChecksums(crcs[i]);
      }
      // Counted as a read call counts, the bytes from the offset asked for, and before they are
      // sent: a reader that has them finds them counted.
      counters.readFromCache(store.datasetOf(lease.key()), end - req.getOffset());
      foreground.record(n);
      ctx.write(DescriptorFrames.encode(b.build()));
      ctx.writeAndFlush(new Region(file, start, n));
      if (!ctx.channel().isWritable()) {
        // The reader is behind: take no more requests until the socket drains.
        ctx.channel().config().setAutoRead(false);
      }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
      if (ctx.channel().isWritable()) {
        ctx.channel().config().setAutoRead(true);
      }
      super.channelWritabilityChanged(ctx);
    }

    private void refuse(ChannelHandlerContext ctx, Status status, String message) {
      if (status == Status.REFUSED) {
        LOG.debug("Refused a block stream to {}: {}", peer(ctx), message);
      }
      ctx.writeAndFlush(DescriptorFrames.encode(StreamResponseProto.newBuilder()
          .setStatus(status).setMessage(String.valueOf(message)).build()))
          .addListener(ChannelFutureListener.CLOSE);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
      if (loan != null) {
        loan.close();
        loan = null;
      }
      super.channelInactive(ctx);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
      if (evt instanceof IdleStateEvent) {
        LOG.debug("Closing the block stream of {} to {}: silent for {} ms ({})",
            loan == null ? "no block" : loan.lease().key(), peer(ctx), limits.idleTimeoutMs(),
            SlaveConfigKeys.STREAM_IDLE_TIMEOUT_MS_KEY);
        ctx.close();
        return;
      }
      super.userEventTriggered(ctx, evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      LOG.debug("Block stream to {} failed: {}", peer(ctx), cause.toString());
      if (loan != null && cause instanceof IOException io) {
        // transferTo read the SSD: its I/O error counts against the block's directory.
        loan.lease().transferFailed(io);
      }
      ctx.close();
    }
  }

  private static String peer(ChannelHandlerContext ctx) {
    return String.valueOf(ctx.channel().remoteAddress());
  }
}
