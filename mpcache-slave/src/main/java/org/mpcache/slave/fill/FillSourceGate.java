package org.mpcache.slave.fill;

import java.net.URI;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where every fill the slave carries out itself is let through or refused by its source, before
 * it is queued: the client endpoint asks for a lookup that names a path, the filler for each of
 * the master's prefetch commands. A path on the cluster's own HDFS ({@link FillSources}) comes
 * back qualified; any other is refused before anything connects anywhere, counted
 * ({@code FillsRefusedForeignSource}) and logged at WARN, the first time and then at most once
 * per {@link #LOG_INTERVAL_MS} with the number refused meanwhile (a client can send any number).
 *
 * <p>Thread-safe: the decision is {@link FillSources}'s, immutable; the counters are atomic.
 */
public final class FillSourceGate {
  private static final Logger LOG = LoggerFactory.getLogger(FillSourceGate.class);
  /** The least time, in milliseconds, between two WARN lines about refused sources. */
  static final long LOG_INTERVAL_MS = 60_000;

  private final FillSources sources;
  private final LongSupplier clock;
  private final AtomicLong refused = new AtomicLong();
  /** The refusals counted when the last WARN line was written. */
  private final AtomicLong refusedWhenLogged = new AtomicLong();
  /** When the last WARN line was written (monotonic ms); none yet: far in the past. */
  private final AtomicLong lastLogged = new AtomicLong(Long.MIN_VALUE / 2);

  /**
   * @param clock monotonic milliseconds, which pace the WARN lines
   */
  public FillSourceGate(FillSources sources, LongSupplier clock) {
    this.sources = sources;
    this.clock = clock;
  }

  /**
   * {@code path} qualified on the cluster's own HDFS, the one to fill from; null when it names
   * another file system (counted and logged).
   *
   * @param what the kind of request, for the log ("lookup", "prefetch")
   */
  public String admit(String path, String what) {
    URI own = sources.resolve(path);
    if (own != null) {
      return own.toString();
    }
    long n = refused.incrementAndGet();
    long now = clock.getAsLong();
    long last = lastLogged.get();
    if (now - last >= LOG_INTERVAL_MS && lastLogged.compareAndSet(last, now)) {
      long meanwhile = n - 1 - refusedWhenLogged.getAndSet(n);
      LOG.warn("Refused a {} asking to fill from {}: the slave fills only from its cluster's own"
          + " HDFS {} (fs.defaultFS, dfs.nameservices); {} more refused since the last such"
          + " line (see FillsRefusedForeignSource)", what, path, sources.authorities(),
          meanwhile);
    }
    return null;
  }

  /** Whether {@code uri} is on the cluster's own HDFS: the last check before a client opens. */
  public boolean isOwn(URI uri) {
    return sources.isOwn(uri);
  }

  /** The cluster's file systems, for messages. */
  public FillSources sources() {
    return sources;
  }

  /** Fills refused since start because their path named another file system. */
  public long refused() {
    return refused.get();
  }
}
