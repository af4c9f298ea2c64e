package org.mpcache.hdfs;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Future;
import java.util.function.LongSupplier;
import org.mpcache.common.proto.ClientSlaveProtos.LookupRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.LookupResponseProto;

/**
 * The sequential reads of one stream: the block the reader is in ({@link BlockCursor}) and where
 * its bytes come from. Entering a block, the reader takes the hit found ahead of it
 * ({@link LookAhead}), else (unless the last block missed) the file the descriptor socket grants,
 * else looks the block up, off its thread after a miss ({@link SequentialCalls}); the
 * {@link BlockReaderFactory} builds a hit's reader. Leaving it, the reader releases that without
 * waiting for the slave and tells the slave what it read from HDFS. docs/architecture.md walks
 * through a hit and a miss.
 *
 * <p>Not thread-safe: the stream calls it under its monitor.
 */
final class SequentialReads {
  private final FileBlocks blocks;
  private final ClientContext ctx;
  private final BlockReaderFactory factory;
  private final SequentialCalls calls;
  private final ClientCounters counters = ClientCounters.get();
  /** The current block's reader and the next block's lookup, made ahead of the reader. */
  private final LookAhead.HeldFiles held = new LookAhead.HeldFiles();
  /** Releases of the block readers the reader left, until the slave settles them. */
  private final List<Future<?>> releases = new ArrayList<>();
  private BlockCursor cur;
  /** The index of the block after which the next was looked up ahead, or is not to be. */
  private int aheadOf = -1;
  /** The last block the reader entered was not cached. */
  private boolean lastMissed;

  /** @param ticker the time in nanoseconds, for the miss lookup interval */
  SequentialReads(FileBlocks blocks, ClientContext ctx, BlockReaderFactory factory,
      LongSupplier ticker) {
    this.blocks = blocks;
    this.ctx = ctx;
    this.factory = factory;
    this.calls = new SequentialCalls(blocks, ctx, ticker);
  }

  /** What the reader holds, to release when the stream is dropped unclosed. */
  LookAhead.HeldFiles held() {
    return held;
  }

  /** The block holding file offset {@code p}, entered if need be; null when not cacheable. */
  BlockCursor at(long p) {
    if (cur != null && cur.contains(p)) {
      return cur;
    }
    try {
      return enter(p);
    } finally {
      calls.entered(cur);
    }
  }

  /**
   * Reads block {@code c} from the cache at file offset {@code p}; -1 when its bytes come from
   * HDFS, now or from here on.
   */
  int readCache(BlockCursor c, long p, byte[] b, int off, int len) {
    if (c.state() == BlockCursor.State.LOOKING_UP && c.lookup.isDone()) {
      settle(c, true);
    }
    if (c.state() != BlockCursor.State.CACHED) {
      return -1;
    }
    long blockOff = p - c.start;
    int n = c.reader.read(blockOff, b, off, len);
    if (n > 0) {
      lookAhead(c, blockOff);
      ctx.readFromCache(n);
      return n;
    }
    leaveCache(c, c.reader.failure());
    return -1;
  }

  /** The reader asked for another source: the current block's rest comes from HDFS. */
  void newSource() {
    if (cur != null && cur.state() == BlockCursor.State.CACHED) {
      counters.fallback(FallbackCause.NEW_SOURCE_REQUESTED, "the reader asked for another source"
          + " than " + cur.target.describe(), null);
      leaveCache(cur, FallbackCause.NEW_SOURCE_REQUESTED);
    }
  }

  /** Leaves the current block and sends the lookups and reports held: the stream unbuffers. */
  void leave() {
    leaveBlock();
    calls.flush();
  }

  /** Releases the block file found ahead. */
  void dropAhead() {
    held.dropAhead();
  }

  /** Waits for {@code more} too at {@link #await}. */
  void releasing(List<Future<?>> more) {
    releases.addAll(more);
  }

  /** Waits up to {@code waitMs} for each release and report, so the slave's counters hold them. */
  void await(long waitMs) {
    BackgroundCalls.awaitAll(releases, waitMs);
    calls.await(waitMs);
  }

  private BlockCursor enter(long p) {
    leaveBlock();
    int i = blocks.indexOf(p);
    if (!blocks.cacheable(i)) {
      return null;
    }
    Optional<SlaveDirectory.Slave> slave = ctx.directory().choose(blocks.get(i));
    BlockTarget t = slave.map(s -> blocks.target(i, s)).orElse(null);
    BlockCursor c = new BlockCursor(i, blocks.get(i), t,
        t == null ? null : factory.deadline(t, true));
    cur = c;
    aheadOf = -1;
    LookAhead a = held.takeAhead();
    if (a != null && (a.index != i || t == null || !a.slaveId.equals(t.slave().id()))) {
      a.discard();
      a = null;
    }
    if (t == null) {
      return c;
    }
    if (a != null) {
      long start = c.deadline.now();
      LookAhead.Found f = a.take(c.deadline.remainingNanos());
      c.deadline.charge(start);
      if (f != null) {
        return enterHit(c, f.descriptor() != null ? f.descriptor()
            : factory.after(BlockReader.Transport.DESCRIPTOR, t, c.deadline, true));
      }
    } else if (!lastMissed) {
      BlockReader direct = factory.direct(t, c.deadline, true);
      if (direct != null) {
        return enterHit(c, direct);
      }
    }
    if (lastMissed) {
      // Most likely a miss too: the reader reads HDFS at once. The lookup that counts the miss
      // and has the slave fill the block waits while the reader enters blocks faster than the
      // interval; it goes out on a background thread, naming the blocks deferred before it.
      if (calls.offThread(c)) {
        return c;
      }
    }
    LookupRequestProto req = calls.now(i, c.slave());
    try {
      looked(c, c.deadline.call(() -> t.lookup(req)));
    } catch (IOException e) {
      c.fellBack(FailOpenBlockReader.fallBack(ctx.directory(), t, e));
    }
    return c;
  }

  /** Takes block {@code c}'s lookup's answer: a hit reads the cache from here on. */
  private void looked(BlockCursor c, LookupResponseProto r) {
    BlockReader raw = factory.looked(c.target, r, c.deadline, true, false);
    if (raw != null) {
      enterHit(c, raw);
      return;
    }
    counters.miss();
    lastMissed = true;
    c.missed();
  }

  /** Enters cached block {@code c}, read by {@code raw}: the cache, from here on. */
  private BlockCursor enterHit(BlockCursor c, BlockReader raw) {
    lastMissed = false;
    c.cached(factory.hit(c.target, raw, c.deadline, true));
    held.current(c.reader);
    return c;
  }

  /** Moves the rest of block {@code c} to HDFS for {@code cause} (counted where it happened). */
  private void leaveCache(BlockCursor c, FallbackCause cause) {
    releaseReader(c);
    c.fellBack(cause);
  }

  /** Stops reading block {@code c} from the cache; the slave settles off the reader's thread. */
  private void releaseReader(BlockCursor c) {
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
  private void settle(BlockCursor c, boolean readingOn) {
    CompletableFuture<LookupResponseProto> f = c.lookup;
    if (!f.isDone()) {
      counters.miss();
      SequentialCalls.leaveAloneIfFaulty(f, ctx.directory(), c.slave().id());
      return;
    }
    LookupResponseProto r;
    try {
      r = f.join();
    } catch (CompletionException | CancellationException e) {
      Throwable cause = e.getCause();
      c.fellBack(FailOpenBlockReader.fallBack(ctx.directory(), c.target,
          cause instanceof IOException ? (IOException) cause
              : new IOException(String.valueOf(cause), cause)));
      return;
    }
    if (readingOn) {
      looked(c, r);
    } else {
      counters.miss();
      lastMissed = r.getStatus() != LookupResponseProto.Status.HIT;
    }
  }

  /**
   * Once the reader reads on past its first read of cached block {@code c}, looks the next
   * block up and asks for its file on a background thread ({@link LookAhead}), once per block.
   */
  private void lookAhead(BlockCursor c, long blockOff) {
    if (blockOff == 0 || aheadOf == c.index) {
      return;
    }
    aheadOf = c.index;
    int next = c.index + 1;
    if (!blocks.cacheable(next)) {
      return;
    }
    Optional<SlaveDirectory.Slave> slave = ctx.directory().choose(blocks.get(next));
    if (slave.isEmpty()) {
      return;
    }
    LookAhead a = new LookAhead(next, slave.get().id());
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
    return t.hitBy(r) ? new LookAhead.Found(readers.looked(t, r, d, true, true)) : null;
  }

  /** Finishes the current block: reports its HDFS bytes; a faulty slave gets nothing more. */
  private void leaveBlock() {
    BlockCursor c = cur;
    cur = null;
    if (c == null || c.target == null) {
      return;
    }
    if (c.state() == BlockCursor.State.LOOKING_UP) {
      settle(c, false);
    }
    releaseReader(c);
    if (c.slaveGivenUp() || ctx.directory().isFaulty(c.slave().id())
        || c.bytesFromHdfs == 0 && c.fallbackCause == null) {
      return;
    }
    calls.hold(c.slave(), FileBlocks.readReport(c.target, c.bytesFromHdfs, c.fallbackCause));
  }
}
