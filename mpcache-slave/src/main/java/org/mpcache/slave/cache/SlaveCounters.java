package org.mpcache.slave.cache;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;
import org.mpcache.slave.verify.FillVerifier;

/**
 * The slave's running totals since it started: hits and misses, bytes served from the SSD and
 * bytes clients read from HDFS instead, fallbacks by cause, fills, evictions, corrupt blocks and
 * reads that failed on an I/O error without the block being dropped, fills refused because HDFS
 * did not vouch for their bytes (by cause), blocks found at start that failed verification.
 * Reported to the master with each heartbeat. Thread-safe (atomic counters).
 */
public final class SlaveCounters {
  final AtomicLong hits = new AtomicLong();
  final AtomicLong misses = new AtomicLong();
  final AtomicLong bytesFromCache = new AtomicLong();
  final AtomicLong bytesFromHdfs = new AtomicLong();
  final AtomicLong fallbacks = new AtomicLong();
  final AtomicLong blocksCached = new AtomicLong();
  final AtomicLong blocksEvicted = new AtomicLong();
  final AtomicLong blocksCorrupt = new AtomicLong();
  final AtomicLong readErrors = new AtomicLong();
  final AtomicLong fillsRejectedMismatch = new AtomicLong();
  final AtomicLong fillsRejectedUnverifiable = new AtomicLong();
  final AtomicLong blocksFailedVerification = new AtomicLong();
  /**
   * The most distinct fallback causes counted by name; further ones are counted under
   * {@value #OTHER_CAUSE}. Clients name causes, and each becomes a metric: the bound keeps a
   * client from growing the slave's memory and metrics without end.
   */
  static final int MAX_CAUSES = 64;
  static final String OTHER_CAUSE = "other";
  private final Map<String, LongAdder> fallbacksByCause = new ConcurrentHashMap<>();

  /**
   * Counts a fill refused at commit.
   *
   * @return whether it is the first refusal of this cause (the one to log at WARN)
   */
  boolean fillRejected(FillVerifier.Verdict cause) {
    AtomicLong c = cause == FillVerifier.Verdict.MISMATCH ? fillsRejectedMismatch
        : fillsRejectedUnverifiable;
    return c.incrementAndGet() == 1;
  }

  void fallback(String cause) {
    fallbacks.incrementAndGet();
    LongAdder n = fallbacksByCause.get(cause);
    if (n == null) {
      // Racing threads may pass the bound by a few entries; it only has to be finite.
      n = fallbacksByCause.size() < MAX_CAUSES
          ? fallbacksByCause.computeIfAbsent(cause, c -> new LongAdder())
          : fallbacksByCause.computeIfAbsent(OTHER_CAUSE, c -> new LongAdder());
    }
    n.increment();
  }

  /** Counts a block found at start that failed its background verification. */
  public void blockFailedVerification() {
    blocksFailedVerification.incrementAndGet();
  }

  /** Counts a block cached other than by a client's write-through (an operator's prefetch). */
  public void blockCached() {
    blocksCached.incrementAndGet();
  }

  /** Fallbacks so far, by the cause clients reported. */
  public Map<String, Long> fallbacksByCause() {
    Map<String, Long> out = new TreeMap<>();
    fallbacksByCause.forEach((k, v) -> out.put(k, v.sum()));
    return out;
  }

  /** A snapshot of every counter. */
  public SlaveCountersProto snapshot() {
    return SlaveCountersProto.newBuilder().setHits(hits.get()).setMisses(misses.get())
        .setBytesFromCache(bytesFromCache.get()).setBytesFromHdfs(bytesFromHdfs.get())
        .setFallbacks(fallbacks.get()).setBlocksCached(blocksCached.get())
        .setBlocksEvicted(blocksEvicted.get()).setBlocksCorrupt(blocksCorrupt.get())
        .setReadErrors(readErrors.get()).setFillsRejectedMismatch(fillsRejectedMismatch.get())
        .setFillsRejectedUnverifiable(fillsRejectedUnverifiable.get())
        .setBlocksFailedVerification(blocksFailedVerification.get()).build();
  }
}
