package org.mpcache.slave.cache;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.channel.unix.FileDescriptor;
import io.netty.handler.timeout.ReadTimeoutHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.DefaultEventExecutorGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutorGroup;
import java.io.FileInputStream;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.service.AbstractService;
import org.mpcache.common.BlockKey;
import org.mpcache.common.domain.DescriptorFrames;
import org.mpcache.common.proto.ClientSlaveProtos.DescriptorReleaseProto;
import org.mpcache.common.proto.ClientSlaveProtos.DescriptorRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.DescriptorResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.DescriptorResponseProto.Status;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.protocolPB.RequestChecks;
import org.mpcache.common.protocolPB.RequestRefusedException;
import org.mpcache.slave.SlaveConfigKeys;
import org.mpcache.slave.security.BlockAccessChecker;
import org.mpcache.slave.space.ForegroundActivity;
import org.mpcache.slave.store.BlockLease;
import org.mpcache.slave.store.FileBlockStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Local hits without the RPC data path: on a Unix domain socket
 * ({@code mpcache.slave.domain.socket.path}), the slave hands readers on its host an open
 * descriptor of a cached block's file, with the block's stored chunk checksums, as a DataNode
 * does for HDFS short-circuit reads. The exchange is in {@code ClientSlaveProtocol.proto}.
 *
 * <p>A request is authorized exactly as a {@code lookup} or {@code read} is, by the slave's
 * {@link BlockAccessChecker} (the HDFS block token of the block); a refused, malformed or
 * unanswerable request gets an answer and no descriptor. Only a CACHED block is lent: a block
 * being filled or removed is "not cached". The connection stays open while the reader holds the
 * descriptor: it is the reader's {@link BlockLease}, so an evicted block's files are unlinked at
 * once (no new descriptor can be had) while its space stays reserved until the last reader
 * closes, as the kernel keeps the unlinked bytes until then; each connection holding it is sent
 * the revocation (an empty frame), so that a client keeping the file open for later readers
 * closes it once its readers are done rather than handing it out again. At most
 * {@code mpcache.slave.domain.socket.max-connections} connections are open at once
 * ({@link ConnectionCap}): one more is answered with an error naming the key and closed.
 *
 * <p>The socket's directory must not be writable by anyone but its owner (the slave's user or
 * root), or another local user could put a socket of their own in the slave's place; the
 * service refuses to start otherwise, naming the key. Without Netty's native epoll library
 * (another OS or architecture) it does not serve and says so once: clients read through RPC.
 *
 * <p>Thread-safe: the event loop reads and writes; the requests' checks, checksum reads and file
 * opens run on a small pool of their own, so the loop never waits on a disk or the NameNode.
 * Each connection's state is confined to its handler, which Netty runs on one thread at a time.
 */
public final class DescriptorServer extends AbstractService {
  private static final Logger LOG = LoggerFactory.getLogger(DescriptorServer.class);
  /** The sticky bit of a file mode: only a file's owner may rename or remove it. */
  private static final int STICKY_BIT = 01000;
  /** Threads checking requests and opening files; few, as each answer is quick. */
  private static final int WORKERS = 4;
  /**
   * The JDK's descriptor number of an open file, to pass it: Netty's own
   * {@code FileDescriptor.from} opens files for writing and truncates them. The slave runs with
   * {@code --add-opens=java.base/java.io=ALL-UNNAMED}, as Hadoop's daemons do; null without.
   */
  private static final Field FD_FIELD;
  private static final String FD_FIELD_PROBLEM;

  static {
    Field f = null;
    String problem = null;
    try {
      f = java.io.FileDescriptor.class.getDeclaredField("fd");
      f.setAccessible(true);
    } catch (ReflectiveOperationException | RuntimeException e) {
      f = null;
      problem = "cannot read a file's descriptor number (run the slave with "
          + "--add-opens=java.base/java.io=ALL-UNNAMED): " + e;
    }
    FD_FIELD = f;
    FD_FIELD_PROBLEM = problem;
  }

  private final Path socketPath;
  private final FileBlockStore store;
  private final SlaveCounters counters;
  /**
   * Hears of each block handed out: its reader reads the file itself, so the whole block is
   * counted when granted, as the SSD work the grant stands for.
   */
  private final ForegroundActivity foreground;
  private final BlockLender lender;
  /** Counts the hit of a grant whose request stands for the block's lookup. */
  private final InputCache cache;
  private final ConnectionLimits limits;
  private final ConnectionCap cap;
  private EventLoopGroup loop;
  private EventExecutorGroup workers;
  private Channel server;
  private volatile boolean serving;
  /** The connections whose descriptor was sent and whose lease is not released, by block. */
  private final Map<BlockKey, Set<Channel>> holders = new ConcurrentHashMap<>();

  /**
   * @param cache drops a block found corrupt (its checksum file gone or short), and counts the
   *     hit of a grant whose request carries the reader's access (it stands for the block's
   *     lookup)
   * @param limits how many connections may be open, and how long one may take to send its request
   *     and its ready frame; a granted connection then stays open as long as its reader holds the
   *     block (the idle timeout is not used: the kernel closes a local reader's connection when
   *     its process ends)
   */
  public DescriptorServer(Path socketPath, InputCache cache, BlockAccessChecker access,
      ForegroundActivity foreground, ConnectionLimits limits) {
    super(DescriptorServer.class.getSimpleName());
    this.socketPath = socketPath;
    this.cache = cache;
    this.store = cache.store();
    this.counters = cache.counters();
    this.foreground = foreground;
    this.lender = new BlockLender(cache, access);
    this.limits = limits;
    this.cap = new ConnectionCap(limits.maxConnections(), limits.maxConnectionsKey());
    store.onRemovedWhileLeased(this::revoke);
  }

  /** Tells every client holding block {@code key}'s file that the block was removed. */
  private void revoke(BlockKey key) {
    Set<Channel> held = holders.get(key);
    if (held != null) {
      held.forEach(ch -> ch.writeAndFlush(DescriptorFrames.ready()));
    }
  }

  @Override
  protected void serviceStart() throws Exception {
    checkDirectory(socketPath);
    if (!Epoll.isAvailable() || FD_FIELD == null) {
      LOG.warn("Descriptor passing unavailable ({}): local readers read cached blocks through "
          + "RPC", FD_FIELD == null ? FD_FIELD_PROBLEM : Epoll.unavailabilityCause());
      super.serviceStart();
      return;
    }
    // A socket left by a previous run would make the bind fail.
    if (Files.exists(socketPath, LinkOption.NOFOLLOW_LINKS)) {
      if (!Files.readAttributes(socketPath, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
          .isOther()) {
        throw new IOException(SlaveConfigKeys.DOMAIN_SOCKET_PATH_KEY + "=" + socketPath
            + " names an existing file that is not a socket; remove it or choose another path");
      }
      Files.delete(socketPath);
    }
    loop = new EpollEventLoopGroup(1, new DefaultThreadFactory("mpcache-descriptor-loop", true));
    workers = new DefaultEventExecutorGroup(WORKERS,
        new DefaultThreadFactory("mpcache-descriptor-worker", true));
    server = new ServerBootstrap().group(loop).channel(EpollServerDomainSocketChannel.class)
        .option(ChannelOption.RCVBUF_ALLOCATOR, ConnectionCap.acceptor())
        .childHandler(new ChannelInitializer<EpollDomainSocketChannel>() {
          @Override
          protected void initChannel(EpollDomainSocketChannel ch) {
            ch.pipeline().addLast(cap)
                .addLast(new ReadTimeoutHandler(limits.requestTimeoutMs(),
                    TimeUnit.MILLISECONDS))
                .addLast(DescriptorFrames.decoder(DescriptorFrames.MAX_REQUEST_BYTES))
                .addLast(workers, new Connection());
          }
        }).bind(new DomainSocketAddress(socketPath.toFile())).sync().channel();
    serving = true;
    LOG.info("Passing cached block descriptors to local readers on {}", socketPath);
    super.serviceStart();
  }

  @Override
  protected void serviceStop() throws Exception {
    serving = false;
    NettyServers.stop(server, loop, workers);
    if (server != null) {
      Files.deleteIfExists(socketPath);
    }
    super.serviceStop();
  }

  /** Connections open now, those being refused for the cap included. */
  public int connections() {
    return cap.open();
  }

  /** Connections refused since start because {@link ConnectionLimits#maxConnections} were open. */
  public long connectionsRefused() {
    return cap.refused();
  }

  /** The socket clients should ask, or empty when the slave does not pass descriptors. */
  public String advertisedPath() {
    return serving ? socketPath.toString() : "";
  }

  /**
   * Refuses a socket path whose directory is missing, not owned by this process's user or root,
   * or writable by group or others; or one with an ancestor directory not owned by this user or
   * root, or writable by group or others without the sticky bit (as {@code /tmp} has it): its
   * owner, or anyone who may write it, could rename the socket's directory away and put one of
   * their own in its place. As HDFS checks {@code dfs.domain.socket.path}
   * ({@code DomainSocket.validateSocketPathSecurity0}).
   */
  static void checkDirectory(Path socket) throws IOException {
    String key = SlaveConfigKeys.DOMAIN_SOCKET_PATH_KEY;
    Path dir = socket.toAbsolutePath().normalize().getParent();
    if (dir == null || !Files.isDirectory(dir)) {
      throw new IOException(key + "=" + socket + ": its directory " + dir
          + " does not exist; create it, writable by the slave's user only");
    }
    String me = System.getProperty("user.name");
    for (Path d = dir; d != null; d = d.getParent()) {
      String which = d == dir ? "its directory " : "its ancestor ";
      PosixFileAttributes a = Files.readAttributes(d, PosixFileAttributes.class);
      String owner = a.owner().getName();
      if (!owner.equals(me) && !owner.equals("root")) {
        throw new IOException(key + "=" + socket + ": " + which + d + " is owned by " + owner
            + ", not by the slave's user " + me + " or root; another user could replace the "
            + "socket");
      }
      Set<PosixFilePermission> p = a.permissions();
      if (!p.contains(PosixFilePermission.GROUP_WRITE)
          && !p.contains(PosixFilePermission.OTHERS_WRITE)) {
        continue;
      }
      String mode = PosixFilePermissions.toString(p);
      if (d == dir) {
        throw new IOException(key + "=" + socket + ": its directory " + dir + " is writable by "
            + "group or others (" + mode + "); make it writable by its owner only (chmod go-w)");
      }
      if ((((Integer) Files.getAttribute(d, "unix:mode")) & STICKY_BIT) == 0) {
        throw new IOException(key + "=" + socket + ": its ancestor " + d + " is writable by "
            + "group or others (" + mode + ") without the sticky bit; another user could "
            + "replace the socket's directory. Make it writable by its owner only (chmod go-w "
            + d + ") or set its sticky bit (chmod +t " + d + ")");
      }
    }
  }

  /**
   * One connection: request, answer, and for a grant the ready frame, the descriptor and, at the
   * end, the reader's release. Runs on one worker thread at a time.
   */
  private final class Connection extends ChannelInboundHandlerAdapter {
    private BlockLease lease;
    /** The block file, opened read-only for a grant, until its descriptor is sent. */
    private FileInputStream file;
    private boolean answered;
    private boolean sent;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      if (!(msg instanceof ByteBuf)) {
        ReferenceCountUtil.release(msg);
        ctx.close();
        return;
      }
      ByteBuf frame = (ByteBuf) msg;
      if (!answered && ConnectionCap.over(ctx)) {
        answered = true;
        frame.release();
        ctx.writeAndFlush(DescriptorFrames.encode(reply(Status.ERROR, cap.busy())))
            .addListener(ChannelFutureListener.CLOSE);
      } else if (!answered) {
        answered = true;
        answer(ctx, frame);
      } else if (!sent && file != null) {
        boolean ready = frame.readableBytes() == 0;
        frame.release();
        if (!ready) {
          ctx.close();
          return;
        }
        sent = true;
        FileInputStream passed = file;
        file = null;
        ctx.pipeline().remove(ReadTimeoutHandler.class);
        FileDescriptor fd;
        try {
          fd = new FileDescriptor(FD_FIELD.getInt(passed.getFD()));
        } catch (IOException | IllegalAccessException e) {
          closeQuietly(passed);
          ctx.close();
          return;
        }
        // The kernel duplicates the descriptor into the reader's process as it is sent.
        ctx.writeAndFlush(fd).addListener((ChannelFutureListener) f -> closeQuietly(passed));
        holders.computeIfAbsent(lease.key(), k -> ConcurrentHashMap.newKeySet())
            .add(ctx.channel());
        // Removed before this connection was listed: no revocation reached it.
        if (store.cachedLength(lease.key()) < 0) {
          ctx.writeAndFlush(DescriptorFrames.ready());
        }
      } else if (sent) {
        DescriptorReleaseProto r = released(frame);
        if (r != null && r.getKeep()) {
          reused(r);
          ctx.writeAndFlush(DescriptorFrames.encode(COUNTED));
          return;
        }
        // Before the close the reader waits for: its counters and space are settled by then.
        lease.close();
        ctx.close();
      } else {
        frame.release();
        ctx.close();
      }
    }

    private void answer(ChannelHandlerContext ctx, ByteBuf frame) {
      DescriptorResponseProto r = grant(ctx, frame);
      if (r.getStatus() == Status.GRANTED) {
        ctx.writeAndFlush(DescriptorFrames.encode(r));
      } else {
        ctx.writeAndFlush(DescriptorFrames.encode(r)).addListener(ChannelFutureListener.CLOSE);
      }
    }

    /** Checks the request and, when it may be granted, leases the block and opens its file. */
    private DescriptorResponseProto grant(ChannelHandlerContext ctx, ByteBuf frame) {
      BlockLender.Loan loan;
      BlockAccessProto lookup = null;
      try {
        DescriptorRequestProto req = DescriptorFrames.decode(frame,
            DescriptorRequestProto.parser(), "descriptor request");
        if (req.hasAccess()) {
          lookup = req.getAccess();
          if (!RequestChecks.access(lookup).equals(RequestChecks.blockKey("block",
              req.getBlock()))) {
            throw new RequestRefusedException("access names another block than block");
          }
        }
        loan = lender.lend(req.getBlock(), req.getBlockToken(), peer(ctx));
      } catch (IOException e) {
        loan = new BlockLender.Loan(BlockLender.Outcome.REFUSED, e.getMessage(), null, null);
      }
      switch (loan.outcome()) {
        case REFUSED:
          counters.descriptorsRefused.incrementAndGet();
          return reply(Status.REFUSED, loan.message());
        case NOT_CACHED:
          return reply(Status.NOT_CACHED, loan.message());
        case ERROR:
          return reply(Status.ERROR, loan.message());
        default:
          break;
      }
      lease = loan.lease();
      file = loan.file();
      counters.descriptorsGranted.incrementAndGet();
      foreground.record(lease.length());
      if (lookup != null) {
        cache.hit(lookup);
      }
      DescriptorResponseProto.Builder b = DescriptorResponseProto.newBuilder()
          .setStatus(Status.GRANTED).setLength(lease.length()).setChunkSize(lease.chunkSize());
      for (int crc : lease.checksums()) {
        b.addChecksums(crc);
      }
      return b.build();
    }

    /**
     * Counts what the reader read through its descriptor (at most the block); the release, null
     * when malformed.
     */
    private DescriptorReleaseProto released(ByteBuf frame) {
      try {
        DescriptorReleaseProto r = DescriptorFrames.decode(frame,
            DescriptorReleaseProto.parser(), "descriptor release");
        counters.readFromCache(store.datasetOf(lease.key()),
            Math.min(Math.max(0, r.getBytesRead()), lease.length()));
        return r;
      } catch (IOException e) {
        LOG.debug("Ignored a malformed release: {}", e.getMessage());
        return null;
      }
    }

    /** Counts the hit of a new reader of the file its client keeps, when {@code r} names one. */
    private void reused(DescriptorReleaseProto r) {
      if (!r.hasAccess()) {
        return;
      }
      try {
        if (RequestChecks.access(r.getAccess()).equals(lease.key())) {
          cache.hit(r.getAccess());
        }
      } catch (IOException e) {
        LOG.debug("Ignored a malformed access of a kept file: {}", e.getMessage());
      }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
      if (file != null) {
        closeQuietly(file);
        file = null;
      }
      if (lease != null) {
        holders.computeIfPresent(lease.key(), (k, held) -> {
          held.remove(ctx.channel());
          return held.isEmpty() ? null : held;
        });
        lease.close();
      }
      super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      LOG.debug("Descriptor connection from {} failed: {}", peer(ctx), cause.toString());
      ctx.close();
    }
  }

  /** The answer to a report of a kept file: any non-empty frame (an empty one revokes). */
  private static final DescriptorResponseProto COUNTED = DescriptorResponseProto.newBuilder()
      .setStatus(Status.GRANTED).build();

  private static DescriptorResponseProto reply(Status s, String message) {
    return DescriptorResponseProto.newBuilder().setStatus(s)
        .setMessage(String.valueOf(message)).build();
  }

  private static String peer(ChannelHandlerContext ctx) {
    try {
      return "pid/uid " + ((EpollDomainSocketChannel) ctx.channel()).peerCredentials();
    } catch (IOException | RuntimeException e) {
      return "an unknown peer";
    }
  }

  private static void closeQuietly(FileInputStream in) {
    try {
      in.close();
    } catch (IOException ignored) {
      // A read-only file: nothing is lost.
    }
  }
}
