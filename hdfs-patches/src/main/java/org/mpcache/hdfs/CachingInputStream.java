package org.mpcache.hdfs;

import io.netty.util.concurrent.Future;
import java.io.EOFException;
import java.io.IOException;
import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.zip.CRC32C;
import javax.annotation.concurrent.GuardedBy;
import org.apache.hadoop.fs.ByteBufferPositionedReadable;
import org.apache.hadoop.fs.ByteBufferReadable;
import org.apache.hadoop.fs.CanUnbuffer;
import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.thirdparty.com.google.common.util.concurrent.ThreadFactoryBuilder;
import org.mpcache.common.BlockKey;
import org.mpcache.common.domain.DescriptorClient;
import org.mpcache.common.proto.ClientSlaveProtos.FollowingBlockProto;
import org.mpcache.common.proto.ClientSlaveProtos.LookupRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.LookupResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReadRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReadResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReportCorruptRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReportReadRequestProto;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.common.protocolPB.RequestChecks;
import org.mpcache.common.protocolPB.RpcSupport;
import org.mpcache.common.stream.BlockStreamConnection;

/**
 * An HDFS input stream that reads each block from the SSD cache of the slave chosen for it when
 * the block is cached there, and from HDFS otherwise. However a reader enters a missed block, the
 * block is cached once: its one lookup of the block (one RPC before the reader goes to HDFS) names
 * the block's file and offset, and a sequential reader entering the block at its start also offers
 * to write what it reads through to the slave ({@link WriteThrough}: no second HDD read); any other
 * reader (sequential from elsewhere, positional, ByteBuffer or vectored) leaves the slave to read
 * the block from HDFS itself in the background, and so does an abandoned write-through. Bytes from
 * a slave are checked against the checksums the slave stored when the block was filled; any
 * cache-side fault (slave down, block gone, short read, checksum mismatch) moves the rest of that
 * block to HDFS, is counted and logged once, and a checksum mismatch is reported so the slave
 * drops the block. A hit on a slave of this host that offers descriptors is read from the block's
 * file itself ({@link LocalBlockReader}, once per block per stream for sequential and for
 * positional reads, closed when the stream leaves the block, is unbuffered or closed), with the
 * same checks; a hit without a descriptor reads the slave's block stream
 * ({@link StreamBlockReader}, with read-ahead for the sequential reader, one per block for the
 * positional ones), with the same checks; a fault of either path other than a checksum mismatch
 * moves the block to the slave's RPC. The stream's behaviour (positions, EOF, exceptions,
 * positional and ByteBuffer reads, unbuffer) is that of the HDFS stream it wraps.
 *
 * <p>Thread-safe as HDFS's stream is: sequential reads, seeks and close are serialized on the
 * stream's monitor; positional reads take no stream-wide lock and may run beside them and each
 * other, so a positional read waiting for a slave never holds up the sequential reader. Fills
 * run beside the read on {@link BackgroundCalls}' threads.
 *
 * <p>A sequential reader of cached blocks does not wait for the next block's lookup and
 * descriptor: once it reads on past its first read of a cached block, the next block is looked
 * up and its file asked for on a background thread ({@link LookAhead}); a miss found that way is
 * neither counted nor filled there (the reader looks the block up again when it enters it). A
 * block file found ahead that the reader never enters is released when the reader goes
 * elsewhere, unbuffers or closes, or when the stream is dropped unclosed. A sequential reader
 * of missed blocks reads each from HDFS at once and looks it up off its thread; the blocks it
 * enters within {@link ClientConfigKeys#MISS_LOOKUP_INTERVAL_MS_KEY} of its last lookup are
 * looked up together by its next one, so that a fast reader makes a lookup per interval rather
 * than per block (each such call wakes threads on both sides, which a reader and its DataNode
 * keeping the node's cores busy pay for). Block files the
 * sequential reader leaves are released without waiting for the slave; closing waits for those
 * releases, so the slave's counters hold the stream's reads when close returns.
 */
final class CachingInputStream extends FSInputStream
    implements ByteBufferReadable, ByteBufferPositionedReadable, CanUnbuffer, StreamCapabilities {

  /** A block's key, its access as calls to slaves name it, and its encoded block token. */
  private record BlockRef(BlockKey key, BlockAccessProto access, String token) {
  }

  private BlockRef ref(int index) {
    BlockRef r = refs[index];
    if (r == null) {
      LocatedBlock b = blocks.get(index);
      BlockKey key = MpCacheFileSystem.keyOf(b);
      r = new BlockRef(key, BlockAccessProto.newBuilder().setBlock(ProtoConverters.toProto(key))
          .setBlockBytes(b.getBlockSize()).setDatasetId(dataset.id)
          .setDatasetBlocks(dataset.blocks).setJobId(ctx.conf().jobId).build(), encodedToken(b));
      refs[index] = r;
    }
    return r;
  }

  /** The block the stream is in, and where its bytes come from. */
  private final class Cursor {
    final int index;
    final LocatedBlock located;
    final BlockKey key;
    final long start;
    final long length;
    final BlockAccessProto access;
    final String token;
    SlaveDirectory.Slave slave;
    boolean fromCache;
    /** The block's fill, kept after it ends: the block's read report follows its calls. */
    WriteThrough fill;
    boolean fillAbandoned;
    long bytesFromHdfs;
    FallbackCause fallbackCause;
    /** The block's file, when the slave passed its descriptor; null reads through RPC. */
    LocalBlockReader local;
    /** The slave's stream of the block, once opened; read when there is no descriptor. */
    StreamBlockReader stream;
    /** The block's stream faulted (or the slave has none): the rest goes through RPC. */
    boolean streamDone;
    /** Verified bytes of the block from {@code bufStart}: the first {@code bufLen} of buf. */
    byte[] buf;
    int bufLen;
    long bufStart;
    /** Time this block's calls to its slave took so far, against the cache deadline. */
    long cacheNanos;
    /** The slave did not answer (in time): it gets no further call for this block. */
    boolean slaveGivenUp;
    /** The next block was looked up ahead, or is not to be. */
    boolean aheadAsked;
    /** The block's lookup, under way off the reader's thread while it reads HDFS; or null. */
    CompletableFuture<LookupResponseProto> lookup;
    /** The block's lookup is deferred: a later lookup of the reader's names it. */
    boolean deferred;

    Cursor(int index) {
      this.index = index;
      this.located = blocks.get(index);
      this.start = located.getStartOffset();
      this.length = located.getBlockSize();
      BlockRef ref = ref(index);
      this.key = ref.key();
      this.access = ref.access();
      this.token = ref.token();
    }

    long end() {
      return start + length;
    }
  }

  /** Releases the block files that streams dropped unclosed held. */
  private static final Cleaner CLEANER = Cleaner.create(new ThreadFactoryBuilder()
      .setDaemon(true).setNameFormat("mpcache-client-cleaner").build());

  private final DFSInputStream hdfs;
  /** The file, a qualified URI, for the slave to fill missed blocks from. */
  private final String path;
  private final List<LocatedBlock> blocks;
  /**
   * Each block's names in calls to slaves, made once per stream rather than at every entry and
   * look-ahead of the block (encoding the token took most of a cursor's making); filled lazily,
   * by any reader thread: a racing write stores an equal immutable value.
   */
  private final BlockRef[] refs;
  private final int cacheableBlocks;
  private final long fileLength;
  private final ClientContext ctx;
  private final Dataset dataset;
  private final ClientCounters counters = ClientCounters.get();
  /** Bytes positional reads took from HDFS, by block index; reported at close. */
  private final Map<Integer, Long> preadHdfsBytes = new ConcurrentHashMap<>();
  /** Blocks whose positional reads go to HDFS: no slave has them, or the cache faulted. */
  private final Set<Integer> preadMisses = ConcurrentHashMap.newKeySet();
  /** Blocks positional reads found cached at their lookup, and read from the slave since. */
  private final Set<Integer> preadHits = ConcurrentHashMap.newKeySet();
  /** The files of blocks positional reads found cached on this host, by block index. */
  private final Map<Integer, LocalBlockReader> preadLocal = new ConcurrentHashMap<>();
  /** The slaves' streams of blocks positional reads found cached, by block index. */
  private final Map<Integer, StreamBlockReader> preadStreams = new ConcurrentHashMap<>();
  /** Blocks whose stream faulted: their positional reads use RPC. */
  private final Set<Integer> preadStreamDone = ConcurrentHashMap.newKeySet();
  @GuardedBy("this")
  private long pos;
  @GuardedBy("this")
  private Cursor cur;
  /** The current block's file and the next block's lookup, made ahead of the reader. */
  private final LookAhead.HeldFiles held = new LookAhead.HeldFiles();
  private final Cleaner.Cleanable cleanable;
  /** Releases of the block files the sequential reader left, until the slave settles them. */
  @GuardedBy("this")
  private final List<Future<?>> releases = new ArrayList<>();
  /**
   * Reports of the blocks the sequential reader read from HDFS, sent off its thread: on their
   * own, or carried by the next block's lookup.
   */
  @GuardedBy("this")
  private final List<CompletableFuture<?>> reports = new ArrayList<>();
  /**
   * The reports of the blocks the sequential reader left, all of blocks it read from HDFS beside
   * one slave ({@link #heldReportsSlave}), held for that slave's next lookup to carry; sent on
   * their own otherwise ({@link #sendHeldReports}).
   */
  @GuardedBy("this")
  private final List<ReportReadRequestProto> heldReports = new ArrayList<>();
  @GuardedBy("this")
  private SlaveDirectory.Slave heldReportsSlave;
  /**
   * The blocks, in order, the sequential reader of missed blocks entered too soon after its last
   * lookup ({@link ClientConfigKeys#MISS_LOOKUP_INTERVAL_MS_KEY}), all of
   * {@link #deferredSlave}'s; its next lookup names them, or {@link #flushDeferred} does. A
   * stream dropped unclosed never looks them up: their misses are not counted, nor filled then.
   */
  @GuardedBy("this")
  private final List<Integer> deferred = new ArrayList<>();
  @GuardedBy("this")
  private SlaveDirectory.Slave deferredSlave;
  /** When the sequential reader's last lookup went out, on its thread or off it. */
  @GuardedBy("this")
  private long lastLookupNanos;
  /**
   * The last block the sequential reader entered was not cached. Datasets are cached whole or
   * not at all, so the next block is most likely not cached either: it is looked up at once,
   * without first asking the slave's descriptor socket for its file.
   */
  @GuardedBy("this")
  private boolean lastMissed;
  /**
   * The last lookup sent off the reader's thread; until it is answered, missed blocks the reader
   * enters are deferred.
   */
  @GuardedBy("this")
  private CompletableFuture<LookupResponseProto> lastLookup;
  /** The sequential reader's buffer of verified bytes of block files, kept across blocks. */
  @GuardedBy("this")
  private byte[] localBuf;
  private volatile boolean closed;

  /**
   * @param path the file, a qualified URI
   * @param cacheableBlocks how many leading blocks may be cached: all of them, or all but the
   *     last for a file still being written
   */
  CachingInputStream(DFSInputStream hdfs, String path, List<LocatedBlock> blocks,
      int cacheableBlocks, ClientContext ctx, Dataset dataset) {
    this.hdfs = hdfs;
    this.path = path;
    this.blocks = blocks;
    this.refs = new BlockRef[blocks.size()];
    this.cacheableBlocks = cacheableBlocks;
    this.fileLength = hdfs.getFileLength();
    this.ctx = ctx;
    this.dataset = dataset;
    this.cleanable = CLEANER.register(this, held);
  }

  /** A call to a slave. */
  private interface SlaveCall<T> {
    T call() throws IOException;
  }

  /**
   * Makes a call to block {@code c}'s slave on the block's time budget: the call's time is added
   * to the block's, and once the block's calls took longer than the cache deadline together the
   * slave is given up for the rest of the block.
   */
  private <T> T timed(Cursor c, SlaveCall<T> call) throws IOException {
    long start = System.nanoTime();
    try {
      return call.call();
    } finally {
      c.cacheNanos += System.nanoTime() - start;
      if (c.cacheNanos > ctx.conf().deadlineNanos) {
        throw new DeadlineExceededException("calls to slave " + c.slave.id + " for " + c.key
            + " took " + TimeUnit.NANOSECONDS.toMillis(c.cacheNanos) + " ms, over the cache"
            + " deadline of " + TimeUnit.NANOSECONDS.toMillis(ctx.conf().deadlineNanos) + " ms");
      }
    }
  }

  private void checkOpen() throws IOException {
    if (closed) {
      throw new IOException(FSExceptionMessages.STREAM_IS_CLOSED);
    }
  }

  @Override
  public synchronized int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n <= 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public synchronized int read(byte[] b, int off, int len) throws IOException {
    checkOpen();
    validatePositionedReadArgs(pos, b, off, len);
    if (len == 0) {
      return 0;
    }
    if (pos >= fileLength) {
      return -1;
    }
    Cursor c = cursorAt(pos);
    if (c == null) {
      return readHdfs(null, b, off, len);
    }
    if (c.lookup != null && c.lookup.isDone()) {
      settleLookup(c, true);
    }
    int want = (int) Math.min(len, c.end() - pos);
    if (c.fromCache) {
      try {
        int n = readCached(c, b, off, want);
        pos += n;
        return n;
      } catch (IOException e) {
        fallback(c, e);
      }
    }
    return readHdfs(c, b, off, want);
  }

  private int readHdfs(Cursor c, byte[] b, int off, int len) throws IOException {
    if (hdfs.getPos() != pos) {
      hdfs.seek(pos);
    }
    int n = hdfs.read(b, off, len);
    if (n <= 0) {
      return n;
    }
    if (c != null) {
      c.bytesFromHdfs += n;
      if (c.fill != null && !c.fillAbandoned && !readsBlockOf(c)) {
        counters.fallback(FallbackCause.BLOCK_CHANGED, "HDFS now reads another block than " + c.key
            + " at offset " + pos + "; its fill is abandoned", null);
        c.fill.abandon();
        c.fillAbandoned = true;
      }
      if (c.fill != null && !c.fillAbandoned) {
        c.fill.offer(pos - c.start, b, off, n);
      }
    }
    counters.readFromHdfs(n);
    pos += n;
    return n;
  }

  /**
   * Whether the HDFS stream's current block is the cursor's: the stream fetches block locations
   * again by path when they expire, and a path replaced since the open would then give it another
   * file's block, whose bytes must not be written through under the cursor's key.
   */
  private boolean readsBlockOf(Cursor c) {
    ExtendedBlock now = hdfs.getCurrentBlock();
    return now != null && now.getBlockPoolId().equals(c.key.getBlockPoolId())
        && now.getBlockId() == c.key.getBlockId()
        && now.getGenerationStamp() == c.key.getGenerationStamp();
  }

  /** The cursor for the block holding {@code p}, entering that block if needed. */
  private Cursor cursorAt(long p) throws IOException {
    if (cur != null && p >= cur.start && p < cur.end()) {
      return cur;
    }
    try {
      return enterBlockAt(p);
    } finally {
      // Not named by the new block's lookup (another slave, a hit, no block), unless that was
      // deferred too: the next lookup names them then.
      if (cur == null || !cur.deferred) {
        flushDeferred();
      }
      // Not carried by the new block's lookup (another slave, a hit found ahead, no block),
      // unless that was deferred: the slave's next lookup carries them then.
      if (heldReportsSlave != null && (cur == null || !cur.deferred
          || !cur.slave.id.equals(heldReportsSlave.id))) {
        sendHeldReports();
      }
    }
  }

  /** Leaves the current block and enters the one holding {@code p}. */
  @GuardedBy("this")
  private Cursor enterBlockAt(long p) throws IOException {
    leaveBlock();
    int i = blockIndex(p);
    if (i < 0 || i >= cacheableBlocks || blocks.get(i).getBlockSize() == 0) {
      return null;
    }
    Cursor c = new Cursor(i);
    cur = c;
    LookAhead a = held.takeAhead();
    if (a != null && a.index != i) {
      a.discard();
      a = null;
    }
    Optional<SlaveDirectory.Slave> slave = ctx.directory().choose(c.located);
    if (slave.isEmpty() || a != null && !a.slaveId.equals(slave.get().id)) {
      if (a != null) {
        a.discard();
        a = null;
      }
      if (slave.isEmpty()) {
        return c;
      }
    }
    c.slave = slave.get();
    if (a != null) {
      long start = System.nanoTime();
      LookAhead.Found f = a.take(ctx.conf().deadlineNanos);
      c.cacheNanos += System.nanoTime() - start;
      if (f != null) {
        return enterHit(c, f.local);
      }
    } else if (!lastMissed) {
      LocalBlockReader direct = openDirect(c);
      if (direct != null) {
        return enterHit(c, direct);
      }
    }
    // A reader entering at the block's start writes it through, when write-through is on;
    // otherwise the slave fills it.
    boolean offer = ctx.conf().fillEnabled && ctx.conf().writeThrough && p == c.start;
    if (lastMissed && !offer) {
      // Most likely a miss too: the reader reads HDFS at once. The lookup that counts the miss
      // and has the slave fill the block waits while the reader enters blocks faster than the
      // interval; it goes out on a background thread, naming the blocks deferred before it.
      if (defers(c)) {
        counters.miss();
        c.deferred = true;
        deferred.add(c.index);
        deferredSlave = c.slave;
        return c;
      }
      if (lastLookup == null || lastLookup.isDone()) {
        List<Integer> named = new ArrayList<>();
        if (!deferred.isEmpty() && deferredSlave.id.equals(c.slave.id)) {
          named.addAll(deferred);
          deferred.clear();
          deferredSlave = null;
        }
        named.add(c.index);
        CompletableFuture<LookupResponseProto> sent = lookupLater(c.slave, named);
        int k = named.size() - 2;
        c.lookup = k < 0 ? sent : sent.thenApply(r -> following(r, k));
        return c;
      }
    }
    LookupRequestProto req = carryReport(c.slave, lookupRequest(c.index, offer));
    lastLookupNanos = System.nanoTime();
    try {
      LookupResponseProto r = timed(c, () -> call(c.slave, req));
      looked(c, r, offer);
    } catch (IOException e) {
      fallback(c, e);
    }
    return c;
  }

  /** Takes block {@code c}'s lookup's answer: a hit reads the cache from here on. */
  @GuardedBy("this")
  private void looked(Cursor c, LookupResponseProto r, boolean offer) {
    if (r.getStatus() == LookupResponseProto.Status.HIT && r.getLength() == c.length) {
      counters.hit();
      lastMissed = false;
      c.fromCache = true;
      c.local = openLocal(c, r);
      held.current(c.local);
    } else {
      counters.miss();
      lastMissed = true;
      if (offer && r.hasFillId()) {
        c.fill = new WriteThrough(ctx, c.slave, c.key, c.token, replicaAddresses(c.located),
            c.length, r.getFillId());
      }
    }
  }

  /**
   * Takes the answer of block {@code c}'s lookup made off the reader's thread: when
   * {@code readingOn}, a hit moves the rest of the block to the cache. A lookup still under way
   * when the reader leaves the block counts a miss; should it then fail, the slave is left alone
   * as a failed lookup on the reader's thread would have it.
   */
  @GuardedBy("this")
  private void settleLookup(Cursor c, boolean readingOn) {
    CompletableFuture<LookupResponseProto> f = c.lookup;
    c.lookup = null;
    if (!f.isDone()) {
      counters.miss();
      // The callback holds no reference to the stream.
      SlaveDirectory directory = ctx.directory();
      String slave = c.slave.id;
      f.whenComplete((r, e) -> {
        if (e != null && FallbackCause.of(e).slaveFault()) {
          directory.markFaulty(slave);
        }
      });
      return;
    }
    LookupResponseProto r;
    try {
      r = f.join();
    } catch (CompletionException | CancellationException e) {
      Throwable cause = e.getCause();
      fallback(c, cause instanceof IOException ? (IOException) cause
          : new IOException(String.valueOf(cause), cause));
      return;
    }
    if (readingOn) {
      looked(c, r, false);
    } else {
      counters.miss();
      lastMissed = r.getStatus() != LookupResponseProto.Status.HIT;
    }
  }

  /**
   * Whether missed block {@code c}'s lookup waits for a later one: the reader entered it within
   * {@link ClientConf#missLookupIntervalNanos} of its last lookup, or while that is unanswered; no
   * more blocks than one lookup names, all of one slave.
   */
  @GuardedBy("this")
  private boolean defers(Cursor c) {
    return ctx.conf().missLookupIntervalNanos > 0
        && (deferred.isEmpty() || deferredSlave.id.equals(c.slave.id))
        && deferred.size() < RequestChecks.MAX_LOOKUP_BLOCKS - 1
        && (System.nanoTime() - lastLookupNanos < ctx.conf().missLookupIntervalNanos
            || lastLookup != null && !lastLookup.isDone());
  }

  /**
   * Sends the lookup of blocks {@code named} (in order, the first its own, the rest following
   * it) to {@code slave} on a background thread, carrying the held read reports of that slave's
   * blocks; on the reader's thread when the client's background threads are closed. Closing
   * waits for it when it names more than one block or carries reports.
   */
  @GuardedBy("this")
  private CompletableFuture<LookupResponseProto> lookupLater(SlaveDirectory.Slave slave,
      List<Integer> named) {
    LookupRequestProto.Builder b = carryReport(slave, lookupRequest(named.get(0), false))
        .toBuilder();
    for (int i : named.subList(1, named.size())) {
      BlockRef r = ref(i);
      b.addFollowing(FollowingBlockProto.newBuilder().setAccess(r.access())
          .setBlockToken(r.token()).setBlockOffset(blocks.get(i).getStartOffset()));
    }
    LookupRequestProto req = b.build();
    lastLookupNanos = System.nanoTime();
    CompletableFuture<LookupResponseProto> sent = submitLookup(ctx, slave, req);
    if (sent == null) {
      sent = new CompletableFuture<>();
      try {
        sent.complete(call(slave, req));
      } catch (IOException e) {
        sent.completeExceptionally(e);
      }
    }
    lastLookup = sent;
    if (named.size() > 1 || req.getPreviousReadCount() > 0) {
      reports.removeIf(CompletableFuture::isDone);
      reports.add(sent);
    }
    return sent;
  }

  /**
   * Sends {@code req} to {@code slave} on a background thread; null when the client's background
   * threads are closed. Static: the task holds no reference to the stream.
   */
  private static CompletableFuture<LookupResponseProto> submitLookup(ClientContext ctx,
      SlaveDirectory.Slave slave, LookupRequestProto req) {
    return ctx.background().submit(() -> call(slave, req));
  }

  /** The answer to the {@code k}th block lookup {@code r} named after its own. */
  private static LookupResponseProto following(LookupResponseProto r, int k) {
    if (k >= r.getFollowingCount()) {
      throw new CompletionException(new IOException("slave answered " + r.getFollowingCount()
          + " of the blocks a lookup named after its own, not the " + (k + 1) + "th"));
    }
    return r.getFollowing(k);
  }

  /**
   * Looks up the blocks whose lookups were deferred, off the reader's thread: the reader left
   * its run of missed blocks, unbuffers or closes. Should the lookup fail, the slave is left
   * alone as a failed lookup on the reader's thread would have it.
   */
  @GuardedBy("this")
  private void flushDeferred() {
    if (deferred.isEmpty()) {
      return;
    }
    SlaveDirectory.Slave slave = deferredSlave;
    List<Integer> named = new ArrayList<>(deferred);
    deferred.clear();
    deferredSlave = null;
    // The callback holds no reference to the stream.
    SlaveDirectory directory = ctx.directory();
    String id = slave.id;
    lookupLater(slave, named).whenComplete((r, e) -> {
      if (e != null && FallbackCause.of(e).slaveFault()) {
        directory.markFaulty(id);
      }
    });
  }

  /** Enters cached block {@code c}, read through {@code local} when not null, else the slave. */
  @GuardedBy("this")
  private Cursor enterHit(Cursor c, LocalBlockReader local) {
    counters.hit();
    lastMissed = false;
    countHit(local);
    c.fromCache = true;
    c.local = local;
    held.current(local);
    return c;
  }

  /**
   * The block's one lookup: with fills on it names the block's file and offset, so that the
   * slave caches a missed block however it is read, and {@code offerWriteThrough} offers the
   * reader's bytes for it.
   */
  private LookupRequestProto lookupRequest(int index, boolean offerWriteThrough) {
    BlockRef r = ref(index);
    LookupRequestProto.Builder req = LookupRequestProto.newBuilder().setAccess(r.access())
        .setBlockToken(r.token());
    if (ctx.conf().fillEnabled) {
      req.setPath(path).setBlockOffset(blocks.get(index).getStartOffset())
          .setOfferFill(offerWriteThrough);
    }
    return req.build();
  }

  /** Sends lookup {@code req} to {@code slave}. */
  private static LookupResponseProto call(SlaveDirectory.Slave slave, LookupRequestProto req)
      throws IOException {
    ClientCounters.get().lookup();
    return RpcSupport.call(() -> slave.proxy.lookup(null, req));
  }

  private int blockIndex(long p) {
    int lo = 0;
    int hi = blocks.size() - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      LocatedBlock b = blocks.get(mid);
      if (p < b.getStartOffset()) {
        hi = mid - 1;
      } else if (p >= b.getStartOffset() + b.getBlockSize()) {
        lo = mid + 1;
      } else {
        return mid;
      }
    }
    return -1;
  }

  /**
   * The block's file through the descriptor the slave passes, when the slave is on this host and
   * offers descriptors (its hit names its socket); null when the hit is read through RPC. Not
   * getting one is said once per JVM, not per block. On the block's time budget, as its calls to
   * the slave are.
   */
  private LocalBlockReader openLocal(Cursor c, LookupResponseProto hit) {
    long start = System.nanoTime();
    try {
      LocalBlockReader r = openLocal(ctx, c.slave, c.key, c.token, c.length, hit,
          ctx.conf().deadlineNanos - c.cacheNanos);
      countHit(r);
      return r;
    } finally {
      c.cacheNanos += System.nanoTime() - start;
    }
  }

  /** As {@link #openLocal(Cursor, LookupResponseProto)}, within {@code budgetNanos}. */
  private static LocalBlockReader openLocal(ClientContext ctx, SlaveDirectory.Slave slave,
      BlockKey key, String token, long length, LookupResponseProto hit, long budgetNanos) {
    slave.descriptorSocket(hit.hasDomainSocketPath() ? hit.getDomainSocketPath() : null);
    if (!ctx.conf().descriptors || !slave.local || !hit.hasDomainSocketPath()) {
      return null;
    }
    ClientCounters counters = ClientCounters.get();
    if (!DescriptorClient.isAvailable()) {
      counters.descriptorFault("descriptor passing unavailable (no native transport here: "
          + DescriptorClient.unavailabilityCause() + ")", null);
      return null;
    }
    return askSocket(ctx, slave, hit.getDomainSocketPath(), key, token, null, length,
        budgetNanos);
  }

  /**
   * Block {@code c}'s file straight from the slave on this host whose descriptor socket an
   * earlier hit named, the request standing for the block's lookup (the slave counts the hit
   * when it grants it): a local hit then costs no lookup call. Null when that socket is not
   * known or the slave answered anything but a grant; the block is then looked up as usual. On
   * the block's time budget, as its calls to the slave are.
   */
  private LocalBlockReader openDirect(Cursor c) {
    long start = System.nanoTime();
    try {
      return openDirect(ctx, c.slave, c.key, c.token, c.access, c.length,
          ctx.conf().deadlineNanos - c.cacheNanos);
    } finally {
      c.cacheNanos += System.nanoTime() - start;
    }
  }

  /** As {@link #openDirect(Cursor)}, within {@code budgetNanos}. */
  private static LocalBlockReader openDirect(ClientContext ctx, SlaveDirectory.Slave slave,
      BlockKey key, String token, BlockAccessProto access, long length, long budgetNanos) {
    String socket = slave.descriptorSocket();
    if (socket == null || !ctx.conf().descriptors || !slave.local || !DescriptorClient.isAvailable()) {
      return null;
    }
    return askSocket(ctx, slave, socket, key, token, access, length, budgetNanos);
  }

  /**
   * Asks {@code slave}'s descriptor socket for block {@code key}'s file within
   * {@code budgetNanos}; null when not granted, or when the socket faulted: that is said once
   * per JVM and the socket forgotten, so that the next hit's lookup says where it is now.
   */
  private static LocalBlockReader askSocket(ClientContext ctx, SlaveDirectory.Slave slave,
      String socket, BlockKey key, String token, BlockAccessProto access, long length,
      long budgetNanos) {
    try {
      return LocalBlockReader.open(socket, key, token, access, length,
          Math.max(1, TimeUnit.NANOSECONDS.toMillis(budgetNanos)),
          TimeUnit.NANOSECONDS.toMillis(ctx.conf().deadlineNanos));
    } catch (IOException e) {
      slave.descriptorSocket(null);
      ClientCounters.get().descriptorFault("descriptor passing unavailable (slave " + slave.id
          + " at " + socket + ": " + e.getMessage() + ")", e);
      return null;
    }
  }

  /** Counts a hit as read through the block's file or through RPC. */
  private void countHit(LocalBlockReader local) {
    if (local != null) {
      counters.hitByDescriptor();
    } else {
      counters.hitByRpc();
    }
  }

  /**
   * Once the reader reads on past its first read of cached block {@code c}, looks the next
   * block up and asks for its file on a background thread ({@link LookAhead}), once per block.
   */
  @GuardedBy("this")
  private void lookAhead(Cursor c, long blockOff) {
    if (blockOff == 0 || c.aheadAsked) {
      return;
    }
    c.aheadAsked = true;
    int next = c.index + 1;
    if (next >= cacheableBlocks || blocks.get(next).getBlockSize() == 0) {
      return;
    }
    Cursor n = new Cursor(next);
    Optional<SlaveDirectory.Slave> slave = ctx.directory().choose(n.located);
    if (slave.isEmpty()) {
      return;
    }
    LookAhead a = new LookAhead(next, slave.get().id);
    if (!held.putAhead(a)) {
      return;
    }
    // The task holds no reference to the stream, whose cleaner must be able to run.
    ClientContext context = ctx;
    SlaveDirectory.Slave to = slave.get();
    LookupRequestProto req = LookupRequestProto.newBuilder().setAccess(n.access)
        .setBlockToken(n.token).setAhead(true).build();
    BlockKey key = n.key;
    String token = n.token;
    long length = n.length;
    if (!ctx.background().execute(() -> a.run(() -> findAhead(context, to, req, key, token,
        length)))) {
      held.dropAhead();
    }
  }

  /** The background lookup of a block ahead of the reader; null unless it is a hit. */
  private static LookAhead.Found findAhead(ClientContext ctx, SlaveDirectory.Slave slave,
      LookupRequestProto req, BlockKey key, String token, long length) throws IOException {
    LocalBlockReader direct = openDirect(ctx, slave, key, token, req.getAccess(), length,
        ctx.conf().deadlineNanos);
    if (direct != null) {
      return new LookAhead.Found(direct);
    }
    LookupResponseProto r = call(slave, req);
    if (r.getStatus() != LookupResponseProto.Status.HIT || r.getLength() != length) {
      return null;
    }
    return new LookAhead.Found(openLocal(ctx, slave, key, token, length, r, ctx.conf().deadlineNanos));
  }

  /**
   * Stops reading block {@code c}'s file through its descriptor; the slave's lease ends off the
   * reader's thread ({@link #close} waits for it).
   */
  @GuardedBy("this")
  private void closeLocal(Cursor c) {
    if (c.local != null) {
      held.current(null);
      releases.removeIf(Future::isDone);
      releases.add(c.local.closeLater());
      c.local = null;
      c.buf = null;
    }
  }

  private int readCached(Cursor c, byte[] b, int off, int len) throws IOException {
    long blockOff = pos - c.start;
    int n = c.local == null ? 0 : readDirect(c, blockOff, b, off, len);
    if (n == 0) {
      if (c.buf == null || blockOff < c.bufStart || blockOff >= c.bufStart + c.bufLen) {
        fetch(c, blockOff);
      }
      int from = (int) (blockOff - c.bufStart);
      n = Math.min(len, c.bufLen - from);
      System.arraycopy(c.buf, from, b, off, n);
    }
    lookAhead(c, blockOff);
    if (c.local != null) {
      c.local.served(n);
    }
    counters.readFromCache(n);
    if (ctx.statistics() != null) {
      ctx.statistics().incrementBytesRead(n);
    }
    return n;
  }

  /**
   * Reads whole chunks of block {@code c} at a chunk-aligned {@code blockOff} from its file
   * straight into the caller's buffer; 0 when the read is not of whole chunks, or when the file
   * faulted other than by a checksum mismatch (it is closed: the block goes on through RPC).
   */
  @GuardedBy("this")
  private int readDirect(Cursor c, long blockOff, byte[] b, int off, int len)
      throws ChecksumException {
    int chunk = c.local.chunkSize();
    if (blockOff % chunk != 0 || len < chunk) {
      return 0;
    }
    try {
      return c.local.read(blockOff, b, off, len);
    } catch (ChecksumException e) {
      throw e;
    } catch (IOException e) {
      counters.descriptorFault(e.getMessage(), e);
      closeLocal(c);
      return 0;
    }
  }

  /**
   * Reads the verified bytes of block {@code c} around {@code blockOff}: from its file when the
   * slave passed its descriptor, else from the slave. A checksum mismatch in the file moves the
   * block to HDFS with the corruption reported, as on the RPC path; any other fault of the file
   * moves the block to the RPC path.
   */
  private void fetch(Cursor c, long blockOff) throws IOException {
    if (c.local != null) {
      int chunk = c.local.chunkSize();
      long start = blockOff - blockOff % chunk;
      // One buffer per stream, reused: a local hit allocates nothing per read or block.
      int size = Math.max(chunk, ctx.conf().readBytes - ctx.conf().readBytes % chunk);
      if (localBuf == null || localBuf.length != size) {
        localBuf = new byte[size];
      }
      byte[] into = localBuf;
      try {
        c.bufLen = c.local.read(start, into);
        c.buf = into;
        c.bufStart = start;
        return;
      } catch (ChecksumException e) {
        throw e;
      } catch (IOException e) {
        counters.descriptorFault(e.getMessage(), e);
        closeLocal(c);
      }
    }
    if (!c.streamDone && streamable(c.slave)) {
      try {
        BlockStreamConnection.Answer a = timed(c, () -> streamRead(c, blockOff));
        c.buf = a.data();
        c.bufLen = a.length();
        c.bufStart = a.offset();
        return;
      } catch (ChecksumException | DeadlineExceededException e) {
        throw e;
      } catch (IOException e) {
        counters.streamFault(c.key + " from slave " + c.slave.id + ": " + e.getMessage(), e);
        closeStream(c);
      }
    }
    int want = (int) Math.min(ctx.conf().readBytes, c.length - blockOff);
    ReadResponseProto r = timed(c, () -> readFromSlave(c, blockOff, want));
    c.buf = verified(c, r, blockOff);
    c.bufLen = c.buf.length;
    c.bufStart = r.getOffset();
  }

  /**
   * Block {@code c}'s bytes around {@code blockOff} from its slave's stream, opened at the first
   * read, reading ahead for a sequential reader; on the block's time budget.
   */
  private BlockStreamConnection.Answer streamRead(Cursor c, long blockOff) throws IOException {
    int budgetMs = (int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(ctx.conf().deadlineNanos
        - c.cacheNanos));
    if (c.stream == null) {
      c.stream = StreamBlockReader.open(c.slave, c.key, c.token, c.length, ctx.conf().readBytes,
          ctx.conf().streamReadahead, budgetMs);
      BlockStreamConnection.Answer a = c.stream.read(blockOff, budgetMs);
      counters.hitByStream();
      return a;
    }
    return c.stream.read(blockOff, budgetMs);
  }

  /** Whether hits on {@code slave} without a descriptor may read its block stream. */
  private boolean streamable(SlaveDirectory.Slave slave) {
    return ctx.conf().streamReadahead >= 0 && slave.streamPort > 0;
  }

  /** Stops reading block {@code c} from its stream; the rest goes through RPC. */
  private static void closeStream(Cursor c) {
    c.streamDone = true;
    if (c.stream != null) {
      c.stream.close();
      c.stream = null;
      c.buf = null;
    }
  }

  private ReadResponseProto readFromSlave(Cursor c, long blockOff, int len) throws IOException {
    return RpcSupport.call(() -> c.slave.proxy.read(null, ReadRequestProto.newBuilder()
        .setBlock(c.access.getBlock()).setOffset(blockOff).setLength(len)
        .setBlockToken(c.token).build()));
  }

  /** The block's access token, URL-safe; empty when HDFS issued none. */
  /** Where the block's replicas are, for the slave to ask one to vouch for a fill. */
  private static List<String> replicaAddresses(LocatedBlock b) {
    List<String> out = new ArrayList<>();
    for (DatanodeInfo dn : b.getLocations()) {
      out.add(dn.getXferAddr());
    }
    return out;
  }

  private static String encodedToken(LocatedBlock b) {
    try {
      return b.getBlockToken() == null ? "" : b.getBlockToken().encodeToUrlString();
    } catch (IOException e) {
      return "";
    }
  }

  /**
   * Checks a slave's answer: it must start at or before {@code blockOff}, cover it, stay inside
   * the block, and every chunk must match its checksum.
   */
  private static byte[] verified(Cursor c, ReadResponseProto r, long blockOff) throws IOException {
    byte[] data = r.getData().toByteArray();
    long start = r.getOffset();
    int chunk = r.getChunkSize();
    if (start > blockOff || start + data.length <= blockOff || start + data.length > c.length
        || chunk <= 0) {
      throw new ShortReadException("short read of " + c.key + " from slave " + c.slave.id + ": "
          + data.length + " bytes at " + start + " do not cover offset " + blockOff);
    }
    int chunks = (data.length + chunk - 1) / chunk;
    if (r.getChecksumsCount() != chunks) {
      throw new ChecksumException("slave " + c.slave.id + " sent " + r.getChecksumsCount()
          + " checksums for " + chunks + " chunks of " + c.key, start);
    }
    CRC32C crc = new CRC32C();
    for (int i = 0; i < chunks; i++) {
      int from = i * chunk;
      crc.reset();
      crc.update(data, from, Math.min(chunk, data.length - from));
      if ((int) crc.getValue() != r.getChecksums(i)) {
        throw new ChecksumException("checksum mismatch in " + c.key + " at offset "
            + (start + from) + " from slave " + c.slave.id, c.start + start + from);
      }
    }
    return data;
  }

  /** Moves the rest of block {@code c} to HDFS after a cache-side fault. */
  private void fallback(Cursor c, IOException e) {
    slaveFault(c, causeOf(c, e), e);
  }

  /**
   * Names the kind of a cache-side fault. A checksum mismatch is reported to the slave so it can
   * verify and drop its copy; an error the slave answered with (the block is gone, its file is
   * unreadable) says nothing about the slave's health; anything else means the slave cannot be
   * reached.
   */
  private static FallbackCause causeOf(Cursor c, IOException e) {
    if (e instanceof ChecksumException) {
      try {
        RpcSupport.call(() -> c.slave.proxy.reportCorrupt(null, ReportCorruptRequestProto
            .newBuilder().setBlock(c.access.getBlock()).setReason(e.getMessage())
            .setBlockToken(c.token).build()));
      } catch (IOException ignored) {
        // The slave verifies the block again when a client next reports it.
      }
    }
    return FallbackCause.of(e);
  }

  /**
   * Moves the rest of block {@code c} to HDFS. A slave that did not answer (in time) is left
   * alone by the whole client for the retry interval and gets no further call from this stream
   * for the block: its fill is dropped without an abort, and no read report follows.
   */
  private void slaveFault(Cursor c, FallbackCause cause, IOException e) {
    closeLocal(c);
    closeStream(c);
    c.fromCache = false;
    c.buf = null;
    c.fallbackCause = cause;
    if (cause.slaveFault()) {
      c.slaveGivenUp = true;
      ctx.directory().markFaulty(c.slave.id);
    }
    if (c.fill != null) {
      // After markFaulty, the fill sends nothing more to the slave.
      c.fill.abandon();
      c.fillAbandoned = true;
    }
    counters.fallback(cause, c.key + " from slave " + c.slave.id + ": " + e.getMessage(), e);
  }

  /**
   * Finishes the current block: abandons a fill the reader did not complete (a complete one goes
   * on in the background) and reports HDFS bytes, after the fill's calls when there is a fill; a
   * faulty slave gets nothing more.
   */
  private void leaveBlock() {
    Cursor c = cur;
    cur = null;
    if (c == null) {
      return;
    }
    if (c.slave == null) {
      return;
    }
    if (c.lookup != null) {
      settleLookup(c, false);
    }
    closeLocal(c);
    closeStream(c);
    if (c.slaveGivenUp || ctx.directory().isFaulty(c.slave.id)) {
      if (c.fill != null) {
        c.fill.abandon();
      }
      return;
    }
    if (c.bytesFromHdfs == 0 && c.fallbackCause == null) {
      if (c.fill != null) {
        c.fill.leave(null);
      }
      return;
    }
    SlaveDirectory.Slave slave = c.slave;
    ReportReadRequestProto report = readReport(c, c.bytesFromHdfs, c.fallbackCause);
    if (c.fill != null) {
      c.fill.leave(() -> reportHdfsRead(slave, report));
    } else {
      if (heldReportsSlave != null && !heldReportsSlave.id.equals(slave.id)
          || heldReports.size() >= RequestChecks.MAX_LOOKUP_BLOCKS) {
        sendHeldReports();
      }
      heldReportsSlave = slave;
      heldReports.add(report);
    }
  }

  /**
   * {@code req}, a lookup to {@code slave}, carrying the held read reports when they are of that
   * slave's blocks: one call for all.
   */
  @GuardedBy("this")
  private LookupRequestProto carryReport(SlaveDirectory.Slave slave, LookupRequestProto req) {
    if (heldReports.isEmpty() || !heldReportsSlave.id.equals(slave.id)) {
      return req;
    }
    LookupRequestProto carrying = req.toBuilder().addAllPreviousRead(heldReports).build();
    heldReports.clear();
    heldReportsSlave = null;
    return carrying;
  }

  /** Sends the held read reports, if any, each on its own (off the reader's thread). */
  @GuardedBy("this")
  private void sendHeldReports() {
    SlaveDirectory.Slave slave = heldReportsSlave;
    for (ReportReadRequestProto r : heldReports) {
      sendLater(() -> reportHdfsRead(slave, r));
    }
    heldReports.clear();
    heldReportsSlave = null;
  }

  /**
   * Sends a block's read report on a background thread, so that leaving a block read from HDFS
   * costs its reader no call; {@link #close} waits for the reports. Sent at once when the
   * client's background threads are closed.
   */
  @GuardedBy("this")
  private void sendLater(Runnable report) {
    reports.removeIf(CompletableFuture::isDone);
    CompletableFuture<Void> sent = ctx.background().submit(() -> {
      report.run();
      return null;
    });
    if (sent != null) {
      reports.add(sent);
    } else {
      report.run();
    }
  }

  /** The report of {@code bytes} of block {@code c} read from HDFS, and why when a fault. */
  private static ReportReadRequestProto readReport(Cursor c, long bytes,
      FallbackCause cause) {
    ReportReadRequestProto.Builder b = ReportReadRequestProto.newBuilder()
        .setBlock(c.access.getBlock()).setBytesFromHdfs(bytes).setBlockToken(c.token)
        .setDatasetId(c.access.getDatasetId());
    if (cause != null) {
      b.setFallbackCause(cause.wireName());
    }
    return b.build();
  }

  private static void reportHdfsRead(SlaveDirectory.Slave slave, ReportReadRequestProto report) {
    try {
      RpcSupport.call(() -> slave.proxy.reportRead(null, report));
    } catch (IOException ignored) {
      // Only a counter is lost.
    }
  }

  @Override
  public synchronized int read(ByteBuffer buf) throws IOException {
    if (buf.hasArray()) {
      int n = read(buf.array(), buf.arrayOffset() + buf.position(), buf.remaining());
      if (n > 0) {
        buf.position(buf.position() + n);
      }
      return n;
    }
    byte[] tmp = new byte[Math.min(buf.remaining(), 64 * 1024)];
    int n = read(tmp, 0, tmp.length);
    if (n > 0) {
      buf.put(tmp, 0, n);
    }
    return n;
  }

  @Override
  public int read(long position, byte[] b, int off, int len) throws IOException {
    validatePositionedReadArgs(position, b, off, len);
    if (len == 0) {
      return 0;
    }
    // No stream monitor here, as in DFSInputStream: a pread waiting for a slow slave must not
    // hold up the sequential reader of the same stream.
    checkOpen();
    if (position >= fileLength) {
      return -1;
    }
    int index = blockIndex(position);
    if (index >= 0 && index < cacheableBlocks && blocks.get(index).getBlockSize() > 0
        && !preadMisses.contains(index)) {
      int n = preadCached(index, position, b, off, len);
      if (n > 0) {
        return n;
      }
    }
    int n = hdfs.read(position, b, off, len);
    if (n > 0 && index >= 0 && index < cacheableBlocks) {
      preadHdfsBytes.merge(index, (long) n, Long::sum);
      counters.readFromHdfs(n);
    }
    return n;
  }

  /**
   * A positional read from the cache; 0 when no slave has the block or the cache faulted, after
   * which this stream reads the block's positional ranges from HDFS. The stream's first positional
   * read of a block looks it up, which has a missed block filled by the slave.
   */
  private int preadCached(int index, long position, byte[] b, int off, int len) {
    Cursor c = new Cursor(index);
    Optional<SlaveDirectory.Slave> slave = ctx.directory().choose(c.located);
    if (slave.isEmpty()) {
      preadMisses.add(index);
      return 0;
    }
    c.slave = slave.get();
    long blockOff = position - c.start;
    int want = (int) Math.min(Math.min(len, ctx.conf().readBytes), c.length - blockOff);
    try {
      if (!preadHits.contains(index)) {
        LocalBlockReader local = openDirect(c);
        if (local != null) {
          countHit(local);
        } else {
          LookupResponseProto found = call(c.slave, lookupRequest(c.index, false));
          if (found.getStatus() != LookupResponseProto.Status.HIT
              || found.getLength() != c.length) {
            counters.miss();
            preadMisses.add(index);
            return 0;
          }
          local = openLocal(c, found);
        }
        counters.hit();
        if (local != null && preadLocal.putIfAbsent(index, local) != null) {
          local.close();
        }
        preadHits.add(index);
      }
      LocalBlockReader local = preadLocal.get(index);
      if (local != null) {
        int n = preadLocal(c, local, blockOff, want, b, off);
        if (n > 0) {
          return n;
        }
      }
      if (local == null && streamable(c.slave) && !preadStreamDone.contains(index)) {
        int n = preadStream(c, blockOff, want, b, off);
        if (n > 0) {
          return n;
        }
      }
      ReadResponseProto r = readFromSlave(c, blockOff, want);
      byte[] data = verified(c, r, blockOff);
      int from = (int) (blockOff - r.getOffset());
      int n = Math.min(want, data.length - from);
      System.arraycopy(data, from, b, off, n);
      counters.readFromCache(n);
      if (ctx.statistics() != null) {
        ctx.statistics().incrementBytesRead(n);
      }
      return n;
    } catch (IOException e) {
      preadMisses.add(index);
      preadHits.remove(index);
      closePreadLocal(index);
      closePreadStream(index);
      FallbackCause cause = causeOf(c, e);
      if (cause.slaveFault()) {
        ctx.directory().markFaulty(c.slave.id);
      }
      if (!(e instanceof RemoteException)) {
        counters.fallback(cause, "positional read of " + c.key + " from slave " + c.slave.id
            + ": " + e.getMessage(), e);
      }
      return 0;
    }
  }

  /**
   * A positional read of block {@code c} through its file's descriptor; 0 when the file faulted
   * other than by a checksum mismatch, after which the block's positional reads use RPC.
   *
   * @throws ChecksumException when a chunk does not match its stored checksum
   */
  private int preadLocal(Cursor c, LocalBlockReader local, long blockOff, int want, byte[] b,
      int off) throws ChecksumException {
    int chunk = local.chunkSize();
    long start = blockOff - blockOff % chunk;
    try {
      int n;
      if (start == blockOff && want >= chunk) {
        // Whole chunks: straight into the caller's buffer.
        n = local.read(blockOff, b, off, want);
      } else {
        long span = blockOff - start + want;
        byte[] tmp = new byte[(int) ((span + chunk - 1) / chunk * chunk)];
        int got = local.read(start, tmp);
        int from = (int) (blockOff - start);
        n = Math.min(want, got - from);
        System.arraycopy(tmp, from, b, off, n);
      }
      local.served(n);
      counters.readFromCache(n);
      if (ctx.statistics() != null) {
        ctx.statistics().incrementBytesRead(n);
      }
      return n;
    } catch (ChecksumException e) {
      throw e;
    } catch (IOException e) {
      counters.descriptorFault("positional read: " + e.getMessage(), e);
      closePreadLocal(c.index);
      return 0;
    }
  }

  /**
   * A positional read of block {@code c} through its slave's stream, one answer at a time; 0
   * when the stream faulted other than by a checksum mismatch, after which the block's
   * positional reads use RPC.
   *
   * @throws ChecksumException when a chunk does not match its stored checksum
   */
  private int preadStream(Cursor c, long blockOff, int want, byte[] b, int off)
      throws ChecksumException {
    int timeoutMs = (int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(ctx.conf().deadlineNanos));
    try {
      StreamBlockReader s = preadStreams.get(c.index);
      if (s == null) {
        StreamBlockReader opened = StreamBlockReader.open(c.slave, c.key, c.token, c.length,
            ctx.conf().readBytes, 0, timeoutMs);
        s = preadStreams.putIfAbsent(c.index, opened);
        if (s == null) {
          s = opened;
          counters.hitByStream();
        } else {
          opened.close();
        }
      }
      int n;
      synchronized (s) {
        BlockStreamConnection.Answer a = s.read(blockOff, timeoutMs);
        int from = (int) (blockOff - a.offset());
        n = Math.min(want, a.length() - from);
        System.arraycopy(a.data(), from, b, off, n);
      }
      counters.readFromCache(n);
      if (ctx.statistics() != null) {
        ctx.statistics().incrementBytesRead(n);
      }
      return n;
    } catch (ChecksumException e) {
      throw e;
    } catch (IOException e) {
      counters.streamFault("positional read of " + c.key + " from slave " + c.slave.id + ": "
          + e.getMessage(), e);
      preadStreamDone.add(c.index);
      closePreadStream(c.index);
      return 0;
    }
  }

  private void closePreadStream(int index) {
    StreamBlockReader r = preadStreams.remove(index);
    if (r != null) {
      r.close();
    }
  }

  private void closePreadLocal(int index) {
    LocalBlockReader r = preadLocal.remove(index);
    if (r != null) {
      r.close();
    }
  }

  /**
   * Closes the block files and streams positional reads hold; later ones look their blocks up
   * again.
   */
  private void closePreadLocals() {
    for (Integer index : preadLocal.keySet()) {
      preadHits.remove(index);
      closePreadLocal(index);
    }
    for (Integer index : preadStreams.keySet()) {
      preadHits.remove(index);
      closePreadStream(index);
    }
  }

  @Override
  public int read(long position, ByteBuffer buf) throws IOException {
    byte[] tmp = new byte[Math.min(buf.remaining(), 1024 * 1024)];
    int n = read(position, tmp, 0, tmp.length);
    if (n > 0) {
      buf.put(tmp, 0, n);
    }
    return n;
  }

  @Override
  public void readFully(long position, ByteBuffer buf) throws IOException {
    while (buf.hasRemaining()) {
      int n = read(position, buf);
      if (n < 0) {
        throw new EOFException(FSExceptionMessages.EOF_IN_READ_FULLY);
      }
      position += n;
    }
  }

  @Override
  public synchronized void seek(long target) throws IOException {
    checkOpen();
    if (target < 0) {
      throw new EOFException(FSExceptionMessages.NEGATIVE_SEEK);
    }
    if (target > fileLength) {
      throw new EOFException(FSExceptionMessages.CANNOT_SEEK_PAST_EOF);
    }
    pos = target;
  }

  @Override
  public synchronized long skip(long n) throws IOException {
    if (n <= 0) {
      return 0;
    }
    long skipped = Math.min(n, fileLength - pos);
    seek(pos + skipped);
    return skipped;
  }

  @Override
  public synchronized long getPos() {
    return pos;
  }

  @Override
  public synchronized boolean seekToNewSource(long target) throws IOException {
    checkOpen();
    if (cur != null && cur.fromCache) {
      slaveFault(cur, FallbackCause.NEW_SOURCE_REQUESTED, new IOException("reader asked for a new source"));
    }
    pos = target;
    hdfs.seek(target);
    return hdfs.seekToNewSource(target);
  }

  @Override
  public synchronized int available() throws IOException {
    checkOpen();
    long remaining = fileLength - pos;
    return remaining <= Integer.MAX_VALUE ? (int) remaining : Integer.MAX_VALUE;
  }

  @Override
  public synchronized void unbuffer() {
    leaveBlock();
    flushDeferred();
    sendHeldReports();
    held.dropAhead();
    closePreadLocals();
    hdfs.unbuffer();
  }

  @Override
  public boolean hasCapability(String capability) {
    switch (capability.toLowerCase(java.util.Locale.ROOT)) {
      case StreamCapabilities.UNBUFFER:
      case StreamCapabilities.READBYTEBUFFER:
      case StreamCapabilities.PREADBYTEBUFFER:
        return true;
      default:
        return false;
    }
  }

  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    leaveBlock();
    flushDeferred();
    sendHeldReports();
    // Releases a block file found ahead; the cleaner has nothing left to do.
    cleanable.clean();
    closePreadLocals();
    long waitMs = TimeUnit.NANOSECONDS.toMillis(ctx.conf().deadlineNanos);
    for (Future<?> f : releases) {
      f.awaitUninterruptibly(waitMs);
    }
    releases.clear();
    for (CompletableFuture<?> f : reports) {
      try {
        f.get(waitMs, TimeUnit.MILLISECONDS);
      } catch (ExecutionException | TimeoutException e) {
        // Only a counter is lost.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    reports.clear();
    for (Map.Entry<Integer, Long> e : preadHdfsBytes.entrySet()) {
      Cursor c = new Cursor(e.getKey());
      ctx.directory().choose(c.located).ifPresent(s ->
          reportHdfsRead(s, readReport(c, e.getValue(), null)));
    }
    preadHdfsBytes.clear();
    hdfs.close();
  }
}
