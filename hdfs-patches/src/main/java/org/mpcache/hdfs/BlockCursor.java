package org.mpcache.hdfs;

import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.mpcache.common.proto.ClientSlaveProtos.LookupResponseProto;

/**
 * The block the sequential reader is in, where its bytes come from ({@link State}, moved by
 * {@link SequentialReads}) and how many it read from HDFS, for its read report.
 *
 * <p>Not thread-safe: the sequential reader uses it under the stream's monitor.
 */
final class BlockCursor {
  /** Where the block's bytes come from; a block read from HDFS never returns to the cache. */
  enum State {
    /** No slave was chosen: HDFS alone, and the block is reported to no one. */
    UNCACHED,
    /** HDFS, the block's lookup left to a later one of the reader's ({@link MissLookups}). */
    DEFERRED,
    /** HDFS while the block's lookup is under way off the reader's thread; then any below. */
    LOOKING_UP,
    /** The cache, through {@link #reader}; FELL_BACK when it faults. */
    CACHED,
    /** HDFS: the slave does not cache the block. */
    MISSED,
    /** HDFS for the rest of the block: the cache faulted ({@link #fallbackCause}). */
    FELL_BACK
  }

  final int index;
  final LocatedBlock located;
  final long start;
  /** The block as calls to its slave name it, and their budget; null when UNCACHED. */
  final BlockTarget target;
  final Deadline deadline;
  private State state = State.UNCACHED;
  /** Reads the block from the cache while CACHED; null otherwise. */
  FailOpenBlockReader reader;
  /** The block's lookup while LOOKING_UP. */
  CompletableFuture<LookupResponseProto> lookup;
  long bytesFromHdfs;
  /** Why the block left the cache; null unless FELL_BACK. */
  FallbackCause fallbackCause;

  BlockCursor(int index, LocatedBlock located, BlockTarget target, Deadline deadline) {
    this.index = index;
    this.located = located;
    this.start = located.getStartOffset();
    this.target = target;
    this.deadline = deadline;
  }

  State state() {
    return state;
  }

  /** Null when UNCACHED. */
  SlaveDirectory.Slave slave() {
    return target == null ? null : target.slave();
  }

  long end() {
    return start + located.getBlockSize();
  }

  boolean contains(long p) {
    return p >= start && p < end();
  }

  void deferred() {
    state = State.DEFERRED;
  }

  void lookingUp(CompletableFuture<LookupResponseProto> f) {
    lookup = f;
    state = State.LOOKING_UP;
  }

  void cached(FailOpenBlockReader r) {
    reader = r;
    state = State.CACHED;
  }

  void missed() {
    state = State.MISSED;
  }

  void fellBack(FallbackCause cause) {
    fallbackCause = cause;
    state = State.FELL_BACK;
  }

  /** Whether the slave failed itself: it gets no further call for this block. */
  boolean slaveGivenUp() {
    return fallbackCause != null && fallbackCause.slaveFault();
  }

  /** Counts {@code n} bytes the reader read from HDFS, for the block's read report. */
  void readFromHdfs(int n) {
    bytesFromHdfs += n;
  }
}
