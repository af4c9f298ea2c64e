package org.mpcache.hdfs;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.LongSupplier;
import org.mpcache.common.proto.ClientSlaveProtos.LookupRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.LookupResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReportReadRequestProto;
import org.mpcache.common.protocolPB.RequestChecks;

/**
 * The sequential reader's lookups and read reports, made as {@link MissLookups} says: a missed
 * block's lookup deferred, or sent off the reader's thread naming the blocks deferred before it;
 * a block's read report held for its slave's next lookup to carry, or sent on its own off the
 * reader's thread. On the reader's thread when the client's background threads are closed.
 * {@link #await} waits for the calls a stream's close must see answered.
 *
 * <p>Not thread-safe: the sequential reader uses it under the stream's monitor. The calls it
 * sends hold no reference to the stream.
 */
final class SequentialCalls {
  private final FileBlocks blocks;
  private final ClientContext ctx;
  private final MissLookups misses;
  /** Reports sent on their own or carried by a lookup, and lookups naming several blocks. */
  private final List<CompletableFuture<?>> sent = new ArrayList<>();
  /** The last lookup sent off the reader's thread; missed blocks wait while it is unanswered. */
  private CompletableFuture<LookupResponseProto> lastLookup;

  /** @param ticker the time in nanoseconds, for the miss lookup interval */
  SequentialCalls(FileBlocks blocks, ClientContext ctx, LongSupplier ticker) {
    this.blocks = blocks;
    this.ctx = ctx;
    this.misses = new MissLookups(ctx.conf().missLookupIntervalNanos,
        RequestChecks.MAX_LOOKUP_BLOCKS, ticker);
  }

  /**
   * Takes missed block {@code c}'s lookup off the reader's thread: deferred (a miss counted) or
   * sent now, naming the blocks deferred before it on that slave. False when it is to be made on
   * the reader's thread: the last is unanswered and the block may not wait for the next.
   */
  boolean offThread(BlockCursor c) {
    boolean unanswered = lastLookup != null && !lastLookup.isDone();
    if (misses.defers(c.slave(), unanswered)) {
      ClientCounters.get().miss();
      misses.defer(c.index, c.slave());
      c.deferred();
      return true;
    }
    if (unanswered) {
      return false;
    }
    List<Integer> named = misses.named(c.index, c.slave());
    CompletableFuture<LookupResponseProto> f = lookup(c.slave(), named);
    int k = named.size() - 2;
    c.lookingUp(k < 0 ? f : f.thenApply(r -> following(r, k)));
    return true;
  }

  /** Block {@code index}'s lookup to {@code slave}, to send now, with the reports it carries. */
  LookupRequestProto now(int index, SlaveDirectory.Slave slave) {
    LookupRequestProto req = carryReports(slave, blocks.lookupRequest(index));
    misses.lookedUp();
    return req;
  }

  /**
   * The reader entered {@code cur} (null: no block it looks up): lookups deferred and reports
   * held that its lookup will not carry go now.
   */
  void entered(BlockCursor cur) {
    boolean deferred = cur != null && cur.state() == BlockCursor.State.DEFERRED;
    if (!deferred) {
      flushDeferred();
    }
    if (!misses.reportsWaitIn(cur == null ? null : cur.slave(), deferred)) {
      sendReports(misses.takeReports());
    }
  }

  /** Holds {@code report} of a block of {@code slave} for its next lookup. */
  void hold(SlaveDirectory.Slave slave, ReportReadRequestProto report) {
    sendReports(misses.hold(slave, report));
  }

  /** Sends what is deferred and held now: the reader unbuffers or closes. */
  void flush() {
    flushDeferred();
    sendReports(misses.takeReports());
  }

  /** Waits up to {@code waitMs} for each call sent whose answer a close must see. */
  void await(long waitMs) {
    BackgroundCalls.awaitAll(sent, waitMs);
  }

  /**
   * Sends the lookup of blocks {@code named} (in order, the first its own, the rest following
   * it) to {@code slave} on a background thread, carrying the held read reports of that slave's
   * blocks. Awaited when it names more than one block or carries reports.
   */
  private CompletableFuture<LookupResponseProto> lookup(SlaveDirectory.Slave slave,
      List<Integer> named) {
    LookupRequestProto.Builder b = carryReports(slave,
        blocks.lookupRequest(named.get(0))).toBuilder();
    for (int i : named.subList(1, named.size())) {
      b.addFollowing(blocks.following(i));
    }
    LookupRequestProto req = b.build();
    misses.lookedUp();
    BlockTarget t = blocks.target(named.get(0), slave);
    CompletableFuture<LookupResponseProto> f = ctx.background().submit(() -> t.lookup(req));
    if (f == null) {
      f = new CompletableFuture<>();
      try {
        f.complete(t.lookup(req));
      } catch (IOException e) {
        f.completeExceptionally(e);
      }
    }
    lastLookup = f;
    if (named.size() > 1 || req.getPreviousReadCount() > 0) {
      sent.removeIf(CompletableFuture::isDone);
      sent.add(f);
    }
    return f;
  }

  /** The answer to the {@code k}th block lookup {@code r} named after its own. */
  private static LookupResponseProto following(LookupResponseProto r, int k) {
    if (k >= r.getFollowingCount()) {
      throw new CompletionException(new IOException("slave answered "
          + r.getFollowingCount() + " of the blocks a lookup named after its own, not the "
          + (k + 1) + "th"));
    }
    return r.getFollowing(k);
  }

  /**
   * Looks up the deferred blocks on their own, off the reader's thread. Should the lookup fail,
   * the slave is left alone as a failed lookup on the reader's thread would have it.
   */
  private void flushDeferred() {
    MissLookups.Batch<Integer> named = misses.takeDeferred();
    if (named == null) {
      return;
    }
    leaveAloneIfFaulty(lookup(named.slave(), named.items()), ctx.directory(), named.slave().id());
  }

  /** Once {@code call} to slave {@code id} fails by a fault of the slave's, leaves it alone. */
  static void leaveAloneIfFaulty(CompletableFuture<?> call, SlaveDirectory directory, String id) {
    call.whenComplete((r, e) -> {
      if (e != null && FallbackCause.of(e).slaveFault()) {
        directory.markFaulty(id);
      }
    });
  }

  /** {@code req}, carrying the held read reports when they are of {@code slave}'s blocks. */
  private LookupRequestProto carryReports(SlaveDirectory.Slave slave, LookupRequestProto req) {
    List<ReportReadRequestProto> carried = misses.carried(slave);
    return carried.isEmpty() ? req : req.toBuilder().addAllPreviousRead(carried).build();
  }

  /** Sends read reports {@code held}, if any, each on its own off the reader's thread. */
  private void sendReports(MissLookups.Batch<ReportReadRequestProto> held) {
    if (held == null) {
      return;
    }
    SlaveDirectory directory = ctx.directory();
    for (ReportReadRequestProto r : held.items()) {
      sent.removeIf(CompletableFuture::isDone);
      CompletableFuture<Boolean> f = ctx.background().submit(
          () -> FileBlocks.send(directory, held.slave(), r));
      if (f != null) {
        sent.add(f);
      } else {
        FileBlocks.send(directory, held.slave(), r);
      }
    }
  }
}
