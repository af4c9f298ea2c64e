package org.mpcache.slave.cache;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.mpcache.slave.master.DatasetCounters;
import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;

/**
 * The slave's running totals since it started: hits and misses, bytes served from the SSD and
 * bytes clients read from HDFS instead, fallbacks by cause, fills, evictions, corrupt blocks and
 * reads that failed on an I/O error without the block being dropped, the fills the slave read
 * from HDFS for readers' misses and their failures, blocks found at start that failed
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
  private final AtomicLong fillsBySlaveFailed = new AtomicLong();
  /** The causes of failed slave fills seen so far, so that each is logged at WARN once. */
  private final Set<String> slaveFillFailureCauses = ConcurrentHashMap.newKeySet();
  /**
   * The most distinct fallback causes counted by name; further ones are counted under
   * {@value #OTHER_CAUSE}. Clients name causes, and each becomes a metric: the bound keeps a
   * client from growing the slave's memory and metrics without end.
   */
  static final int MAX_CAUSES = 64;
  static final String OTHER_CAUSE = "other";
  private final Map<String, LongAdder> fallbacksByCause = new ConcurrentHashMap<>();

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
   * @return whether it is the first failure of this cause (the one to log at WARN); causes past
   *     {@value #MAX_CAUSES} count as seen
   */
  public boolean slaveFillFailed(String cause) {
    fillsBySlaveFailed.incrementAndGet();
    return slaveFillFailureCauses.size() < MAX_CAUSES && slaveFillFailureCauses.add(cause);
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
        .setReadErrors(readErrors.get())
        .setBlocksFailedVerification(blocksFailedVerification.get())
        .setFillsBySlave(fillsBySlave.get())
        .setFillsBySlaveFailed(fillsBySlaveFailed.get())
        .setDescriptorsGranted(descriptorsGranted.get())
        .setDescriptorsRefused(descriptorsRefused.get()).build();
  }
}
