package org.mpcache.slave.cache;

import java.util.HashMap;
import java.util.Map;
import javax.annotation.concurrent.GuardedBy;
import org.mpcache.common.BlockKey;

/**
 * Decides whether a client's report that a cached block is corrupt may have the slave re-read the
 * whole block to check it: each verification reads up to a block's bytes from the SSD, and a
 * client may send any number of reports. A block is verified at most once per interval, whoever
 * reports it (a block found corrupt is dropped at once, so a second report within the interval
 * can only be of an intact block); a caller has at most a few verifications per interval, so that
 * no caller can have the slave re-read its whole cache. A report refused here changes nothing: the
 * reader has already fallen back to HDFS, and the next report after the interval is heard.
 *
 * <p>Memory is bounded: records older than the interval are dropped once either map outgrows
 * {@code maxTracked}, and while it is still full, new blocks and callers are refused.
 *
 * <p>Pure (time is passed in) and thread-safe: every method is synchronized.
 */
final class CorruptReportLimiter {
  /** The least time, in milliseconds, between two verifications of one block. */
  static final long INTERVAL_MS = 60_000;
  /** The most verifications one caller may have per {@link #INTERVAL_MS}. */
  static final int PER_CALLER = 8;
  /** The most blocks and callers remembered at once. */
  static final int MAX_TRACKED = 4_096;

  /** One caller's verifications in its current interval. */
  private static final class Budget {
    long since;
    int used;
  }

  private final long intervalMs;
  private final int perCaller;
  private final int maxTracked;
  @GuardedBy("this")
  private final Map<BlockKey, Long> verifiedAt = new HashMap<>();
  @GuardedBy("this")
  private final Map<String, Budget> callers = new HashMap<>();

  CorruptReportLimiter() {
    this(INTERVAL_MS, PER_CALLER, MAX_TRACKED);
  }

  CorruptReportLimiter(long intervalMs, int perCaller, int maxTracked) {
    this.intervalMs = intervalMs;
    this.perCaller = perCaller;
    this.maxTracked = maxTracked;
  }

  /**
   * Whether {@code caller}'s report of {@code key} at {@code now} (monotonic ms) may have the
   * block verified; when it may, it counts against the block and the caller.
   */
  synchronized boolean allow(BlockKey key, String caller, long now) {
    Long last = verifiedAt.get(key);
    if (last != null && now - last < intervalMs) {
      return false;
    }
    Budget b = callers.get(caller);
    if (b != null && now - b.since >= intervalMs) {
      b.since = now;
      b.used = 0;
    }
    if (b != null && b.used >= perCaller) {
      return false;
    }
    if (last == null && !room(verifiedAt.size(), now) || b == null && !room(callers.size(), now)) {
      return false;
    }
    if (b == null) {
      b = new Budget();
      b.since = now;
      callers.put(caller, b);
    }
    b.used++;
    verifiedAt.put(key, now);
    return true;
  }

  /** Whether a map of {@code size} may take one more record, after dropping stale ones. */
  @GuardedBy("this")
  private boolean room(int size, long now) {
    if (size < maxTracked) {
      return true;
    }
    verifiedAt.values().removeIf(t -> now - t >= intervalMs);
    callers.values().removeIf(c -> now - c.since >= intervalMs);
    return verifiedAt.size() < maxTracked && callers.size() < maxTracked;
  }
}
