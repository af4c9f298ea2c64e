package org.mpcache.hdfs;

import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cache's figures as one client JVM (a task, a shell) saw them: blocks found (read through a
 * descriptor or through RPC) and missed, bytes read from slaves and from HDFS, fallbacks by cause,
 * cached-host lookups for task placement. A fallback is logged at WARN the first time its cause
 * appears in the JVM and at DEBUG after that, so a dead slave does not flood task logs.
 *
 * <p>One instance per JVM ({@link #get}); thread-safe.
 */
public final class ClientCounters {
  private static final Logger LOG = LoggerFactory.getLogger(ClientCounters.class);
  private static final ClientCounters INSTANCE = new ClientCounters();

  private final AtomicLong hits = new AtomicLong();
  private final AtomicLong hitsByDescriptor = new AtomicLong();
  private final AtomicLong hitsByRpc = new AtomicLong();
  private final AtomicBoolean descriptorFaultLogged = new AtomicBoolean();
  private final AtomicLong descriptorFaults = new AtomicLong();
  private final AtomicLong descriptorCacheHits = new AtomicLong();
  private final AtomicLong hitsByStream = new AtomicLong();
  private final AtomicBoolean streamFaultLogged = new AtomicBoolean();
  private final AtomicLong misses = new AtomicLong();
  private final AtomicLong lookups = new AtomicLong();
  private final AtomicLong bytesFromCache = new AtomicLong();
  private final AtomicLong bytesFromHdfs = new AtomicLong();
  private final AtomicLong cachedHostsLookups = new AtomicLong();
  private final AtomicLong cachedHostsFailures = new AtomicLong();
  private final Map<FallbackCause, LongAdder> fallbacks = new EnumMap<>(FallbackCause.class);
  private final Set<FallbackCause> logged = ConcurrentHashMap.newKeySet();

  private ClientCounters() {
    for (FallbackCause c : FallbackCause.values()) {
      fallbacks.put(c, new LongAdder());
    }
  }

  /** This JVM's counters. */
  public static ClientCounters get() {
    return INSTANCE;
  }

  /** Counts a hit read first through {@code transport}. */
  void hit(BlockReader.Transport transport) {
    hits.incrementAndGet();
    if (transport == BlockReader.Transport.DESCRIPTOR) {
      hitsByDescriptor.incrementAndGet();
    } else {
      hitsByRpc.incrementAndGet();
    }
  }

  /** Counts a block file had from the FileSystem's descriptor cache, without a slave exchange. */
  void descriptorCacheHit() {
    descriptorCacheHits.incrementAndGet();
  }

  /**
   * Block files read through descriptors that a reader had from its FileSystem's
   * {@link DescriptorCache}, open already, rather than from the slave's descriptor server.
   */
  public long descriptorCacheHits() {
    return descriptorCacheHits.get();
  }

  /** Counts a {@code lookup} call to a slave. */
  void lookup() {
    lookups.incrementAndGet();
  }

  /**
   * {@code lookup} calls made to slaves: a block's entry by a stream, or the look-ahead; a local
   * hit on a slave whose descriptor socket a hit named makes none.
   */
  public long lookups() {
    return lookups.get();
  }

  /** Counts a block whose slave's stream ({@link StreamBlockReader}) answered its first read. */
  void hitByStream() {
    hitsByStream.incrementAndGet();
  }

  /**
   * Says, at WARN once per JVM and at DEBUG after that, that a block's stream faulted and the
   * rest of the block is read through the slave's RPC.
   */
  void streamFault(String detail, Throwable error) {
    if (streamFaultLogged.compareAndSet(false, true)) {
      LOG.warn("mpCache block stream: {}; reading the block through the slave's RPC instead. "
          + "Further cases are logged at DEBUG.", detail, error);
    } else {
      LOG.debug("mpCache block stream: {}", detail, error);
    }
  }

  /**
   * Counts, and says at WARN once per JVM and at DEBUG after that, that a local hit could not
   * get or read its block file's descriptor and is read through RPC.
   */
  void descriptorFault(String detail, Throwable error) {
    descriptorFaults.incrementAndGet();
    if (descriptorFaultLogged.compareAndSet(false, true)) {
      LOG.warn("mpCache local hit through a descriptor: {}; reading through the slave's RPC "
          + "instead. Further cases are logged at DEBUG.", detail, error);
    } else {
      LOG.debug("mpCache local hit through a descriptor: {}", detail, error);
    }
  }

  void miss() {
    misses.incrementAndGet();
  }

  void readFromCache(long n) {
    bytesFromCache.addAndGet(n);
  }

  void readFromHdfs(long n) {
    bytesFromHdfs.addAndGet(n);
  }

  void cachedHostsLookup() {
    cachedHostsLookups.incrementAndGet();
  }

  void cachedHostsFailure() {
    cachedHostsFailures.incrementAndGet();
  }

  /** Calls to the master asking which hosts cache a file's blocks (for task placement). */
  public long cachedHostsLookups() {
    return cachedHostsLookups.get();
  }

  /** Those calls (or proxies to make them) that failed: tasks were placed by HDFS's locations. */
  public long cachedHostsFailures() {
    return cachedHostsFailures.get();
  }

  /** Counts a fallback to HDFS and logs it once per cause. */
  void fallback(FallbackCause cause, String detail, Throwable error) {
    fallbacks.get(cause).increment();
    if (logged.add(cause)) {
      LOG.warn("mpCache fallback to HDFS ({}): {}. Further fallbacks of this kind are logged at "
          + "DEBUG.", cause.wireName(), detail, error);
    } else {
      LOG.debug("mpCache fallback to HDFS ({}): {}", cause.wireName(), detail, error);
    }
  }

  public long hits() {
    return hits.get();
  }

  /** Hits read through the block file's descriptor. */
  public long hitsByDescriptor() {
    return hitsByDescriptor.get();
  }

  /**
   * Local hits whose block file's descriptor could not be had or read (the socket, the native
   * transport, the file): each went on through the slave's block stream or RPC.
   */
  public long descriptorFaults() {
    return descriptorFaults.get();
  }

  /** Hits read through the slave's block stream. */
  public long hitsByStream() {
    return hitsByStream.get();
  }

  public long hitsByRpc() {
    return hitsByRpc.get();
  }

  public long misses() {
    return misses.get();
  }

  public long bytesFromCache() {
    return bytesFromCache.get();
  }

  public long bytesFromHdfs() {
    return bytesFromHdfs.get();
  }

  /** Fallbacks so far by cause, of the causes that happened. */
  public Map<FallbackCause, Long> fallbacks() {
    Map<FallbackCause, Long> out = new EnumMap<>(FallbackCause.class);
    fallbacks.forEach((k, v) -> {
      if (v.sum() > 0) {
        out.put(k, v.sum());
      }
    });
    return out;
  }

  /** Fallbacks so far of {@code cause}. */
  public long fallbacks(FallbackCause cause) {
    return fallbacks.get(cause).sum();
  }

  /** All fallbacks so far. */
  public long totalFallbacks() {
    long n = 0;
    for (LongAdder a : fallbacks.values()) {
      n += a.sum();
    }
    return n;
  }
}
