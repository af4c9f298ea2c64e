package org.mpcache.slave.cache;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.mpcache.common.proto.ClientSlaveProtos.FallbackCauseProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;
import org.mpcache.slave.master.DatasetCounters;

/**
 * The slave's running totals since it started: hits and misses, bytes served from the SSD and
 * bytes clients read from HDFS instead, fallbacks by cause, fills, evictions, corrupt blocks and
 * reads that failed on an I/O error without the block being dropped, the fills the slave read
 * from HDFS for readers' misses and their failures by cause, blocks found at start that failed
 * verification; and the same figures per dataset ({@link DatasetCounters}).
 * Reported to the master with each heartbeat. Thread-safe (atomic counters).
 */
public final class SlaveCounters {
  private final DatasetCounters datasets;
  final AtomicLong hits = new AtomicLong();
  final AtomicLong misses = new AtomicLong();
  final AtomicLong bytesFromCache = new AtomicLong();
  final AtomicLong bytesFromHdfs = new AtomicLong();
  final AtomicLong fallbacks = new AtomicLong();
  final AtomicLong blocksCached = new AtomicLong();
  final AtomicLong blocksEvicted = new AtomicLong();
  final AtomicLong blocksCorrupt = new AtomicLong();
  final AtomicLong readErrors = new AtomicLong();
  final AtomicLong blocksFailedVerification = new AtomicLong();
  final AtomicLong descriptorsGranted = new AtomicLong();
  final AtomicLong descriptorsRefused = new AtomicLong();
  private final AtomicLong fillsBySlave = new AtomicLong();
  private final Map<FillFailure, LongAdder> fillsBySlaveFailed = adders(FillFailure.class);
  /** The causes of failed slave fills seen so far, so that each is logged at WARN once. */
  private final Set<FillFailure> slaveFillFailureCauses = ConcurrentHashMap.newKeySet();
  private final Map<FallbackCauseProto, LongAdder> fallbacksByCause =
      adders(FallbackCauseProto.class);

  /** One counter for each constant of {@code type}; read-only, so safe to share. */
  private static <E extends Enum<E>> Map<E, LongAdder> adders(Class<E> type) {
    Map<E, LongAdder> m = new EnumMap<>(type);
    for (E e : type.getEnumConstants()) {
      m.put(e, new LongAdder());
    }
    return Collections.unmodifiableMap(m);
  }

  /** Counters with the per-dataset figures kept in {@code datasets}. */
  public SlaveCounters(DatasetCounters datasets) {
    this.datasets = datasets;
  }

  /** The figures per dataset. */
  public DatasetCounters datasets() {
    return datasets;
  }

  void hit(String datasetId) {
    hits.incrementAndGet();
    datasets.hit(datasetId);
  }

  void miss(String datasetId) {
    misses.incrementAndGet();
    datasets.miss(datasetId);
  }

  void readFromCache(String datasetId, long n) {
    bytesFromCache.addAndGet(n);
    datasets.bytesFromCache(datasetId, n);
  }

  void readFromHdfs(String datasetId, long n) {
    bytesFromHdfs.addAndGet(n);
    datasets.bytesFromHdfs(datasetId, n);
  }

  void evicted(String datasetId) {
    blocksEvicted.incrementAndGet();
    datasets.evicted(datasetId);
  }

  void fallback(FallbackCauseProto cause) {
    fallbacks.incrementAndGet();
    fallbacksByCause.get(cause).increment();
  }

  /** Counts a block found at start that failed its background verification. */
  public void blockFailedVerification() {
    blocksFailedVerification.incrementAndGet();
  }

  /**
   * Counts a block cached for {@code datasetId}: read from HDFS by the slave for a reader's miss,
   * or prefetched.
   */
  public void blockCached(String datasetId) {
    blocksCached.incrementAndGet();
    datasets.filled(datasetId);
  }

  /** Counts a block the slave read from HDFS itself for a reader's miss. */
  public void filledBySlave() {
    fillsBySlave.incrementAndGet();
  }

  /**
   * Counts a fill the slave could not carry out for a reader's miss.
   *
   * @return whether it is the first failure of this cause (the one to log at WARN)
   */
  public boolean slaveFillFailed(FillFailure cause) {
    fillsBySlaveFailed.get(cause).increment();
    return slaveFillFailureCauses.add(cause);
  }

  /** Failed fills for readers' misses so far, by cause, every cause present. */
  public Map<FillFailure, Long> fillsBySlaveFailed() {
    return sums(fillsBySlaveFailed, FillFailure.class);
  }

  /**
   * Fallbacks so far, by the cause clients reported, every cause present; a cause this slave
   * does not know (a newer client's) is {@code UNKNOWN_CAUSE}.
   */
  public Map<FallbackCauseProto, Long> fallbacksByCause() {
    return sums(fallbacksByCause, FallbackCauseProto.class);
  }

  private static <E extends Enum<E>> Map<E, Long> sums(Map<E, LongAdder> adders, Class<E> type) {
    Map<E, Long> out = new EnumMap<>(type);
    adders.forEach((k, v) -> out.put(k, v.sum()));
    return out;
  }

  /** A snapshot of every counter. */
  public SlaveCountersProto snapshot() {
    return SlaveCountersProto.newBuilder().setHits(hits.get()).setMisses(misses.get())
        .setBytesFromCache(bytesFromCache.get()).setBytesFromHdfs(bytesFromHdfs.get())
        .setFallbacks(fallbacks.get()).setBlocksCached(blocksCached.get())
        .setBlocksEvicted(blocksEvicted.get()).setBlocksCorrupt(blocksCorrupt.get())
        .setReadErrors(readErrors.get())
        .setBlocksFailedVerification(blocksFailedVerification.get())
        .setFillsBySlave(fillsBySlave.get())
        .setFillsBySlaveFailed(
            fillsBySlaveFailed.values().stream().mapToLong(LongAdder::sum).sum())
        .setDescriptorsGranted(descriptorsGranted.get())
        .setDescriptorsRefused(descriptorsRefused.get()).build();
  }
}
