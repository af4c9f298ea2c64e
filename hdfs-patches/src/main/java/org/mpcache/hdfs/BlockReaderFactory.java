package org.mpcache.hdfs;

import java.io.IOException;
import java.util.function.LongSupplier;
import org.mpcache.common.domain.DescriptorClient;
import org.mpcache.common.proto.ClientSlaveProtos.LookupResponseProto;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;

/**
 * The one place that decides how a cached block is read, for sequential and positional readers
 * alike, as HDFS's {@code BlockReaderFactory.build()}: it tries the transports in their order
 * ({@link BlockReader.Transport}), each answering null to fall through to the next.
 *
 * <ol>
 *   <li>DESCRIPTOR: the block's file, when its slave is on this host, offers descriptors,
 *       descriptors can be had here ({@link LocalBlockReader}) and the FileSystem's
 *       {@link DescriptorGate} is open (at first, local hits go through the stream: a JVM that
 *       reads one split does not pay for setting descriptors up). Before a lookup, from the socket
 *       an earlier hit named, the request standing for the lookup ({@link #direct}); after a
 *       hit, from the socket the hit names. A socket that fails is forgotten and said once.
 *       A block file its FileSystem's {@link DescriptorCache} holds open already is taken from
 *       there without an exchange; when that stands for the block's lookup, the reader's access
 *       goes to the slave on the file's lease, one way, so that the slave counts the hit as it
 *       would have counted the grant.
 *   <li>STREAM: the slave's block stream, when streams are on and the slave offers one.
 *   <li>RPC: the slave's {@code read} call; always there.
 * </ol>
 *
 * <p>Stream and RPC readers run on the block's {@link Deadline}; every reader built after a
 * lookup or for {@link #direct} moves on to the next transport when its own faults
 * ({@link FailoverBlockReader}). One per stream: it holds the sequential reader's window.
 * Thread-safe: positional reads and the look-ahead thread build readers beside the sequential
 * reader, whose window only that reader's thread touches.
 *
 * <p>Descriptor passing fails open like any transport: a fault in setting it up (the socket, or
 * Netty's native transport failing to load or link: a {@link LinkageError} such as
 * {@link UnsatisfiedLinkError}, {@link NoClassDefFoundError} or
 * {@link ExceptionInInitializerError}) is counted ({@link ClientCounters#descriptorFaults}) and
 * the block goes on through the next transport. Other errors (out of memory) are not the cache's
 * to hide.
 */
final class BlockReaderFactory {
  /** How a block file is had from a slave's descriptor socket: a seam for tests. */
  @FunctionalInterface
  interface DescriptorOpener {
    /** As {@link LocalBlockReader#open}, for block {@code t}. */
    LocalBlockReader open(String socket, BlockTarget t, BlockAccessProto access, long timeoutMs,
        long releaseTimeoutMs) throws IOException;
  }

  /** Descriptors through Netty's native transport ({@link DescriptorClient}). */
  static final DescriptorOpener NATIVE = (socket, t, access, timeoutMs, releaseTimeoutMs) ->
      LocalBlockReader.open(socket, t.key(), t.token(), access, t.length(), timeoutMs,
          releaseTimeoutMs);

  private final ClientContext ctx;
  private final LongSupplier ticker;
  private final DescriptorOpener descriptors;
  private final DescriptorBlockReader.Window window = new DescriptorBlockReader.Window();

  /** @param ticker the time in nanoseconds, for deadlines */
  BlockReaderFactory(ClientContext ctx, LongSupplier ticker) {
    this(ctx, ticker, NATIVE);
  }

  /** @param descriptors how block files are had from descriptor sockets ({@link #NATIVE}) */
  BlockReaderFactory(ClientContext ctx, LongSupplier ticker, DescriptorOpener descriptors) {
    this.ctx = ctx;
    this.ticker = ticker;
    this.descriptors = descriptors;
  }

  /** A new budget for block {@code t}: shared by its calls when sequential, else per call. */
  Deadline deadline(BlockTarget t, boolean sequential) {
    long limit = ctx.conf().deadlineNanos;
    return sequential ? Deadline.perBlock(limit, ticker, t.describe())
        : Deadline.perCall(limit, ticker, t.describe());
  }

  /**
   * Block {@code t}'s file from the descriptor socket a hit of its slave named, the request
   * standing for the block's lookup (the slave counts the hit when it grants it); null when
   * there is no such socket or the slave answered anything but a grant: the block is then
   * looked up.
   */
  BlockReader direct(BlockTarget t, Deadline d, boolean sequential) {
    String socket = t.slave().descriptorSocket();
    if (socket == null || !descriptorsUsable(t.slave()) || unavailability() != null) {
      return null;
    }
    return descriptor(t, socket, true, d, sequential);
  }

  /**
   * The reader of block {@code t} that lookup answer {@code r} names, from the first transport
   * that answers; null when {@code r} is a miss or, {@code descriptorOnly}, names no file.
   */
  BlockReader looked(BlockTarget t, LookupResponseProto r, Deadline d, boolean sequential,
      boolean descriptorOnly) {
    if (!t.hitBy(r)) {
      // The slave no longer caches the block: a file of it held open is not to be reused.
      ctx.descriptors().drop(t.key());
      return null;
    }
    t.slave().descriptorSocket(r.hasDomainSocketPath() ? r.getDomainSocketPath() : null);
    BlockReader.Transport last = descriptorOnly ? BlockReader.Transport.DESCRIPTOR
        : BlockReader.Transport.RPC;
    return build(t, r, BlockReader.Transport.DESCRIPTOR, last, d, sequential);
  }

  /**
   * Counts the hit that {@code raw} reads, and wraps it to move to the next transport when it
   * faults and to fall back to HDFS when the cache does.
   */
  FailOpenBlockReader hit(BlockTarget t, BlockReader raw, Deadline d, boolean sequential) {
    ClientCounters.get().hit(raw.transport());
    return new FailOpenBlockReader(new FailoverBlockReader(this, t, raw, d, sequential), t,
        ctx.directory());
  }

  /** The reader of a hit whose own reader faulted on {@code failed}: the next transport. */
  BlockReader after(BlockReader.Transport failed, BlockTarget t, Deadline d, boolean sequential) {
    BlockReader.Transport next = BlockReader.Transport.values()[failed.ordinal() + 1];
    return build(t, null, next, BlockReader.Transport.RPC, d, sequential);
  }

  /** Tries the transports from {@code first} to {@code last}, in order; null when none answers. */
  private BlockReader build(BlockTarget t, LookupResponseProto hit, BlockReader.Transport first,
      BlockReader.Transport last, Deadline d, boolean sequential) {
    for (BlockReader.Transport tr : BlockReader.Transport.values()) {
      if (tr.compareTo(first) < 0 || tr.compareTo(last) > 0) {
        continue;
      }
      BlockReader r = switch (tr) {
        case DESCRIPTOR -> descriptorOfHit(t, hit, d, sequential);
        case STREAM -> stream(t, d, sequential);
        case RPC -> new DeadlineBlockReader(new RpcBlockReader(t, ctx.conf().readBytes,
            sequential), d);
      };
      if (r != null) {
        return r;
      }
    }
    return null;
  }

  private boolean descriptorsUsable(SlaveDirectory.Slave slave) {
    return ctx.conf().descriptors && slave.local() && ctx.descriptorGate().open();
  }

  /** The block file from the socket {@code hit} names; null when none can be had. */
  private BlockReader descriptorOfHit(BlockTarget t, LookupResponseProto hit, Deadline d,
      boolean sequential) {
    if (hit == null || !descriptorsUsable(t.slave()) || !hit.hasDomainSocketPath()) {
      return null;
    }
    Throwable unavailable = unavailability();
    if (unavailable != null) {
      ClientCounters.get().descriptorFault("descriptor passing unavailable (no native transport"
          + " here: " + unavailable + ")", null);
      return null;
    }
    return descriptor(t, hit.getDomainSocketPath(), false, d, sequential);
  }

  /**
   * Why descriptors cannot be had in this JVM, null when they can: Netty's native transport is
   * missing, or cannot even be loaded.
   */
  private static Throwable unavailability() {
    try {
      return DescriptorClient.isAvailable() ? null : DescriptorClient.unavailabilityCause();
    } catch (LinkageError e) {
      return e;
    }
  }

  /**
   * Block {@code t}'s file from the FileSystem's descriptor cache or, when it holds none, from
   * {@code socket} within what is left of {@code d}, charged to it; null when not granted, or
   * when the socket or the transport faulted: that is counted, said once per JVM and the socket
   * forgotten, so that the next hit's lookup says where it is now.
   *
   * @param standsForLookup whether the request carries the reader's access, as a lookup would
   */
  private BlockReader descriptor(BlockTarget t, String socket, boolean standsForLookup,
      Deadline d, boolean sequential) {
    DescriptorCache.Ref cached = ctx.descriptors().acquire(t.key(), t.length());
    if (cached != null) {
      if (standsForLookup) {
        // On the lease's open connection, one way: the slave counts the hit as a grant's.
        cached.file().report(t.access());
      }
      return reader(cached, sequential);
    }
    long start = d.now();
    try {
      LocalBlockReader file = descriptors.open(socket, t, standsForLookup ? t.access() : null,
          d.remainingMillis(), d.limitMillis());
      return file == null ? null : reader(ctx.descriptors().insert(file), sequential);
    } catch (IOException | RuntimeException | LinkageError e) {
      t.slave().descriptorSocket(null);
      ClientCounters.get().descriptorFault("descriptor passing unavailable (slave "
          + t.slave().id() + " at " + socket + ": " + e.getMessage() + ")", e);
      return null;
    } finally {
      d.charge(start);
    }
  }

  private BlockReader reader(DescriptorCache.Ref ref, boolean sequential) {
    return new DescriptorBlockReader(ref, sequential ? window : null, ctx.conf().readBytes);
  }

  /** The slave's block stream of {@code t}; null when there is none or it cannot be opened. */
  private BlockReader stream(BlockTarget t, Deadline d, boolean sequential) {
    if (ctx.conf().streamReadahead < 0 || t.slave().streamPort() <= 0) {
      return null;
    }
    long start = d.now();
    try {
      BlockReader r = new DeadlineBlockReader(StreamBlockReader.open(t, ctx.conf().readBytes,
          sequential ? ctx.conf().streamReadahead : 0, d), d);
      ClientCounters.get().hitByStream();
      return r;
    } catch (IOException e) {
      ClientCounters.get().streamFault(t.describe() + ": " + e.getMessage(), e);
      return null;
    } finally {
      d.charge(start);
    }
  }
}
