package org.mpcache.hdfs;

import java.io.EOFException;
import java.io.IOException;
import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import javax.annotation.concurrent.GuardedBy;
import org.apache.hadoop.fs.ByteBufferPositionedReadable;
import org.apache.hadoop.fs.ByteBufferReadable;
import org.apache.hadoop.fs.CanUnbuffer;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.ClientSlaveProtos.LookupRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.LookupResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReportReadRequestProto;
import org.mpcache.common.protocolPB.RequestChecks;
import org.mpcache.common.protocolPB.RpcSupport;

/**
 * An HDFS input stream that reads each block from the SSD cache of the slave chosen for it when
 * the block is cached there, and from HDFS otherwise. It knows positions and blocks; how a cached
 * block is read is decided by {@link BlockReaderFactory} (descriptor, block stream, RPC), with
 * deadlines, failing over between transports and falling back to HDFS as decorators of the
 * {@link BlockReader}s it builds: any cache-side fault moves the rest of that block to HDFS,
 * counted by {@link FallbackCause}. However a reader enters a missed block, the block is cached
 * once: its one lookup names the block's file and offset, and the slave fills it (or, with
 * write-through on, a sequential reader entering it at its start writes it through:
 * {@link WriteThrough}). The stream's behaviour (positions, EOF, exceptions, positional and
 * ByteBuffer reads, unbuffer) is that of the HDFS stream it wraps. docs/architecture.md walks
 * through a hit and a miss.
 *
 * <p>Thread-safe as HDFS's stream is: sequential reads, seeks and close are serialized on the
 * stream's monitor; positional reads take no stream-wide lock and may run beside them and each
 * other (each block's first positional read looks it up under that block's monitor), so a
 * positional read waiting for a slave never holds up the sequential reader. Fills run beside the
 * read on {@link BackgroundCalls}' threads.
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
 * keeping the node's cores busy pay for). Block readers the stream leaves are released without
 * waiting for the slave; closing waits for those releases, so the slave's counters hold the
 * stream's reads when close returns. Positional reads keep the readers of a bounded number of
 * blocks ({@link PositionalReads}); every reader the stream holds is released when it closes or
 * unbuffers, when it is dropped unclosed, or when its FileSystem closes ({@link OpenStreams}).
 */
final class CachingInputStream extends FSInputStream
    implements ByteBufferReadable, ByteBufferPositionedReadable, CanUnbuffer, StreamCapabilities {

  /**
   * The block the sequential reader is in, and where its bytes come from: its cache reader
   * while it reads the cache, else HDFS.
   */
  private final class Cursor {
    final int index;
    final LocatedBlock located;
    final long start;
    final long length;
    /** Null when no slave was chosen: the block is read from HDFS alone. */
    SlaveDirectory.Slave slave;
    BlockTarget target;
    Deadline deadline;
    /** Reads the block from the cache; null while (or once) it is read from HDFS. */
    FailOpenBlockReader reader;
    /** The block's fill, kept after it ends: the block's read report follows its calls. */
    WriteThrough fill;
    boolean fillAbandoned;
    long bytesFromHdfs;
    /** Why the block left the cache; null unless it did. */
    FallbackCause fallbackCause;
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
    }

    void choose(SlaveDirectory.Slave s) {
      slave = s;
      target = blocks.target(index, s);
      deadline = factory.deadline(target, true);
    }

    long end() {
      return start + length;
    }

    /** Whether the slave failed itself: it gets no further call for this block. */
    boolean slaveGivenUp() {
      return fallbackCause != null && fallbackCause.slaveFault();
    }
  }

  private final DFSInputStream hdfs;
  private final FileBlocks blocks;
  private final long fileLength;
  private final ClientContext ctx;
  private final BlockReaderFactory factory;
  private final ClientCounters counters = ClientCounters.get();
  private final PositionalReads preads;
  @GuardedBy("this")
  private long pos;
  @GuardedBy("this")
  private Cursor cur;
  /** The current block's reader and the next block's lookup, made ahead of the reader. */
  private final LookAhead.HeldFiles held = new LookAhead.HeldFiles();
  private final Cleaner.Cleanable cleanable;
  /** Releases of the block readers the stream left, until the slave settles them. */
  @GuardedBy("this")
  private final List<Future<?>> releases = new ArrayList<>();
  /**
   * Reports of the blocks the sequential reader read from HDFS, sent off its thread: on their
   * own, or carried by the next block's lookup.
   */
  @GuardedBy("this")
  private final List<CompletableFuture<?>> reports = new ArrayList<>();
  /**
   * The missed blocks whose lookups wait for the sequential reader's next one, and the read
   * reports it carries ({@link ClientConfigKeys#MISS_LOOKUP_INTERVAL_MS_KEY}). A stream dropped
   * unclosed never looks the deferred blocks up: their misses are not counted, nor filled then.
   */
  @GuardedBy("this")
  private final MissLookups misses;
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
  private final LongSupplier ticker;
  private volatile boolean closed;

  /**
   * @param path the file, a qualified URI
   * @param cacheableBlocks how many leading blocks may be cached: all of them, or all but the
   *     last for a file still being written
   * @param ticker the time in nanoseconds ({@link System#nanoTime} but in tests)
   */
  CachingInputStream(DFSInputStream hdfs, String path, List<LocatedBlock> blocks,
      int cacheableBlocks, ClientContext ctx, Dataset dataset, LongSupplier ticker) {
    this.hdfs = hdfs;
    this.blocks = new FileBlocks(blocks, cacheableBlocks, path, dataset, ctx.conf());
    this.fileLength = hdfs.getFileLength();
    this.ctx = ctx;
    this.ticker = ticker;
    this.factory = new BlockReaderFactory(ctx, ticker);
    this.preads = new PositionalReads(this.blocks, ctx, factory, hdfs);
    this.misses = new MissLookups(ctx.conf().missLookupIntervalNanos,
        RequestChecks.MAX_LOOKUP_BLOCKS, ticker);
    // Neither reaches the stream, which must be collectable while they are registered.
    LookAhead.HeldFiles sequential = held;
    PositionalReads positional = preads;
    this.cleanable = ctx.openStreams().register(this, () -> {
      sequential.run();
      positional.releaseAll();
    });
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
    if (c.reader != null) {
      long blockOff = pos - c.start;
      int n = c.reader.read(blockOff, b, off, want);
      if (n > 0) {
        lookAhead(c, blockOff);
        ctx.readFromCache(n);
        pos += n;
        return n;
      }
      leaveCache(c, c.reader.failure());
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
        counters.fallback(FallbackCause.BLOCK_CHANGED, "HDFS now reads another block than "
            + c.target.key() + " at offset " + pos + "; its fill is abandoned", null);
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
    BlockKey key = c.target.key();
    return now != null && now.getBlockPoolId().equals(key.getBlockPoolId())
        && now.getBlockId() == key.getBlockId()
        && now.getGenerationStamp() == key.getGenerationStamp();
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
      if (!misses.reportsWaitIn(cur == null ? null : cur.slave, cur != null && cur.deferred)) {
        sendReports(misses.takeReports());
      }
    }
  }

  /** Leaves the current block and enters the one holding {@code p}. */
  @GuardedBy("this")
  private Cursor enterBlockAt(long p) throws IOException {
    leaveBlock();
    int i = blocks.indexOf(p);
    if (!blocks.cacheable(i)) {
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
    c.choose(slave.get());
    if (a != null) {
      long start = c.deadline.now();
      LookAhead.Found f = a.take(c.deadline.remainingNanos());
      c.deadline.charge(start);
      if (f != null) {
        return enterHit(c, f.descriptor() != null ? f.descriptor()
            : factory.after(BlockReader.Transport.DESCRIPTOR, c.target, c.deadline, true));
      }
    } else if (!lastMissed) {
      BlockReader direct = factory.direct(c.target, c.deadline, true);
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
      boolean unanswered = lastLookup != null && !lastLookup.isDone();
      if (misses.defers(c.slave, unanswered)) {
        counters.miss();
        c.deferred = true;
        misses.defer(c.index, c.slave);
        return c;
      }
      if (!unanswered) {
        List<Integer> named = misses.named(c.index, c.slave);
        CompletableFuture<LookupResponseProto> sent = lookupLater(c.slave, named);
        int k = named.size() - 2;
        c.lookup = k < 0 ? sent : sent.thenApply(r -> following(r, k));
        return c;
      }
    }
    LookupRequestProto req = carryReport(c.slave, blocks.lookupRequest(c.index, offer));
    misses.lookedUp();
    try {
      looked(c, c.deadline.call(() -> c.target.lookup(req)), offer);
    } catch (IOException e) {
      c.fallbackCause = FailOpenBlockReader.fallBack(ctx.directory(), c.target, e);
    }
    return c;
  }

  /** Takes block {@code c}'s lookup's answer: a hit reads the cache from here on. */
  @GuardedBy("this")
  private void looked(Cursor c, LookupResponseProto r, boolean offer) {
    BlockReader raw = factory.looked(c.target, r, c.deadline, true, false);
    if (raw != null) {
      enterHit(c, raw);
    } else {
      counters.miss();
      lastMissed = true;
      if (offer && r.hasFillId()) {
        c.fill = new WriteThrough(ctx, c.slave, c.target.key(), c.target.token(),
            FileBlocks.replicaAddresses(c.located), c.length, r.getFillId());
      }
    }
  }

  /** Enters cached block {@code c}, read by {@code raw}: the cache, from here on. */
  @GuardedBy("this")
  private Cursor enterHit(Cursor c, BlockReader raw) {
    lastMissed = false;
    c.reader = factory.hit(c.target, raw, c.deadline, true);
    held.current(c.reader);
    return c;
  }

  /**
   * Moves the rest of block {@code c} to HDFS for {@code cause} (counted where it happened): its
   * reader is released and, should the slave itself have failed, it gets no further call for the
   * block.
   */
  @GuardedBy("this")
  private void leaveCache(Cursor c, FallbackCause cause) {
    releaseReader(c);
    c.fallbackCause = cause;
  }

  /** Stops reading block {@code c} from the cache; the slave settles off the reader's thread. */
  @GuardedBy("this")
  private void releaseReader(Cursor c) {
    if (c.reader != null) {
      held.current(null);
      releases.removeIf(Future::isDone);
      releases.add(c.reader.release());
      c.reader = null;
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
      c.fallbackCause = FailOpenBlockReader.fallBack(ctx.directory(), c.target,
          cause instanceof IOException ? (IOException) cause
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
   * Sends the lookup of blocks {@code named} (in order, the first its own, the rest following
   * it) to {@code slave} on a background thread, carrying the held read reports of that slave's
   * blocks; on the reader's thread when the client's background threads are closed. Closing
   * waits for it when it names more than one block or carries reports.
   */
  @GuardedBy("this")
  private CompletableFuture<LookupResponseProto> lookupLater(SlaveDirectory.Slave slave,
      List<Integer> named) {
    LookupRequestProto.Builder b = carryReport(slave,
        blocks.lookupRequest(named.get(0), false)).toBuilder();
    for (int i : named.subList(1, named.size())) {
      b.addFollowing(blocks.following(i));
    }
    LookupRequestProto req = b.build();
    misses.lookedUp();
    CompletableFuture<LookupResponseProto> sent = submitLookup(ctx, slave, req);
    if (sent == null) {
      sent = new CompletableFuture<>();
      try {
        sent.complete(lookup(slave, req));
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
    return ctx.background().submit(() -> lookup(slave, req));
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
    MissLookups.Batch<Integer> named = misses.takeDeferred();
    if (named == null) {
      return;
    }
    // The callback holds no reference to the stream.
    SlaveDirectory directory = ctx.directory();
    String id = named.slave().id;
    lookupLater(named.slave(), named.items()).whenComplete((r, e) -> {
      if (e != null && FallbackCause.of(e).slaveFault()) {
        directory.markFaulty(id);
      }
    });
  }

  /** Sends lookup {@code req} to {@code slave}, which may name more blocks than its own. */
  private static LookupResponseProto lookup(SlaveDirectory.Slave slave, LookupRequestProto req)
      throws IOException {
    ClientCounters.get().lookup();
    return RpcSupport.call(() -> slave.proxy.lookup(null, req));
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
    if (!blocks.cacheable(next)) {
      return;
    }
    Optional<SlaveDirectory.Slave> slave = ctx.directory().choose(blocks.get(next));
    if (slave.isEmpty()) {
      return;
    }
    LookAhead a = new LookAhead(next, slave.get().id);
    if (!held.putAhead(a)) {
      return;
    }
    // The task holds no reference to the stream, whose cleaner must be able to run.
    BlockReaderFactory readers = factory;
    BlockTarget t = blocks.target(next, slave.get());
    if (!ctx.background().execute(() -> a.run(() -> findAhead(readers, t)))) {
      held.dropAhead();
    }
  }

  /**
   * The background lookup of block {@code t} ahead of the reader, on a budget of its own; null
   * unless it is a hit.
   */
  private static LookAhead.Found findAhead(BlockReaderFactory readers, BlockTarget t)
      throws IOException {
    Deadline d = readers.deadline(t, true);
    BlockReader direct = readers.direct(t, d, true);
    if (direct != null) {
      return new LookAhead.Found(direct);
    }
    LookupResponseProto r = t.lookup(LookupRequestProto.newBuilder()
        .setAccess(t.access()).setBlockToken(t.token()).setAhead(true).build());
    return t.hitBy(r) ? new LookAhead.Found(readers.looked(t, r, d, true, true))
        : null;
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
    releaseReader(c);
    if (c.slaveGivenUp() || ctx.directory().isFaulty(c.slave.id)) {
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
    ReportReadRequestProto report = FileBlocks.readReport(c.target, c.bytesFromHdfs,
        c.fallbackCause);
    if (c.fill != null) {
      SlaveDirectory directory = ctx.directory();
      c.fill.leave(() -> FileBlocks.send(directory, slave, report));
    } else {
      sendReports(misses.hold(slave, report));
    }
  }

  /**
   * {@code req}, a lookup to {@code slave}, carrying the held read reports when they are of that
   * slave's blocks: one call for all.
   */
  @GuardedBy("this")
  private LookupRequestProto carryReport(SlaveDirectory.Slave slave, LookupRequestProto req) {
    List<ReportReadRequestProto> carried = misses.carried(slave);
    return carried.isEmpty() ? req : req.toBuilder().addAllPreviousRead(carried).build();
  }

  /** Sends read reports {@code held}, if any, each on its own (off the reader's thread). */
  @GuardedBy("this")
  private void sendReports(MissLookups.Batch<ReportReadRequestProto> held) {
    if (held != null) {
      for (ReportReadRequestProto r : held.items()) {
        sendLater(() -> FileBlocks.send(ctx.directory(), held.slave(), r));
      }
    }
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
    return preads.read(position, b, off, len);
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
    if (cur != null && cur.reader != null) {
      counters.fallback(FallbackCause.NEW_SOURCE_REQUESTED, "the reader asked for another source"
          + " than " + cur.target.describe(), null);
      leaveCache(cur, FallbackCause.NEW_SOURCE_REQUESTED);
    }
    pos = target;
    hdfs.seek(target);
    return hdfs.seekToNewSource(target);
  }

  /** How many blocks' cache readers the stream's positional reads hold now. */
  int heldPositionalReaders() {
    return preads.held();
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
    sendReports(misses.takeReports());
    held.dropAhead();
    releases.addAll(preads.releaseAll());
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

  /** Waits up to {@code waitMs} for each of {@code calls}, then forgets them. */
  private static void awaitAll(List<? extends Future<?>> calls, long waitMs) {
    for (Future<?> f : calls) {
      try {
        f.get(waitMs, TimeUnit.MILLISECONDS);
      } catch (ExecutionException | TimeoutException | CancellationException e) {
        // Only a counter is lost.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    calls.clear();
  }

  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    leaveBlock();
    flushDeferred();
    sendReports(misses.takeReports());
    releases.addAll(preads.releaseAll());
    // Releases a block file found ahead; the cleaner has nothing left to do.
    cleanable.clean();
    long waitMs = ctx.conf().deadlineMs;
    awaitAll(releases, waitMs);
    awaitAll(reports, waitMs);
    preads.reportAndForget();
    hdfs.close();
  }
}
