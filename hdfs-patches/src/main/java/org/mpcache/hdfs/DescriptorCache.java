package org.mpcache.hdfs;

import java.io.Closeable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import javax.annotation.concurrent.GuardedBy;
import org.apache.hadoop.thirdparty.com.google.common.util.concurrent.ThreadFactoryBuilder;
import org.mpcache.common.BlockKey;

/**
 * The block files one FileSystem's streams read through descriptors, shared and reference
 * counted, as HDFS's {@code ShortCircuitCache} shares short-circuit replicas: a block that another
 * stream (or the same one, back again) opens while its file is here costs no exchange with the
 * slave's descriptor server. Keyed by block (pool, id, generation stamp: a block's bytes never
 * change under one key).
 *
 * <p>An entry is OPEN while referenced, IDLE once its last reference is released, and CLOSED (its
 * file closed, the slave's lease ended) when it has been idle for {@code idleNanos}, when more
 * than {@code maxIdle} entries are idle (the longest idle first), when the cache closes, or when
 * it is dropped and its last reference released. A dropped entry (its block evicted, as the
 * slave's revocation of the lease or a lookup's miss says, a read through it failed, the slave
 * closed its lease) leaves the map at once
 * and is never handed out again. While an entry is open or idle its lease holds the block's space
 * on the slave, so bytes read through it are the block's even after the slave evicted the block
 * (which unlinks the file); the idle timeout bounds how long an evicted block's space stays held.
 *
 * <p>Idle files are closed by a daemon thread that wakes every half timeout, started with the first
 * file kept and ended with the cache, and by every release.
 *
 * <p>Thread-safe: one monitor guards the map and the counts; files are closed outside it.
 */
final class DescriptorCache implements Closeable {
  /** One reader's reference to a cached file; released once. */
  final class Ref {
    private final Entry entry;
    @GuardedBy("DescriptorCache.this")
    private boolean released;

    private Ref(Entry entry) {
      this.entry = entry;
    }

    LocalBlockReader file() {
      return entry.file;
    }

    /**
     * Ends this reference; the future is done once the slave has counted what was read through
     * the file (and, when this closes it, settled its lease).
     */
    Future<?> release() {
      return DescriptorCache.this.release(this);
    }

    /** The file is not to be handed out again: a read through it failed. */
    void drop() {
      DescriptorCache.this.drop(entry);
    }
  }

  private static final class Entry {
    final LocalBlockReader file;
    int refs;
    long idleSince;
    boolean dropped;

    Entry(LocalBlockReader file) {
      this.file = file;
    }
  }

  private final int maxIdle;
  private final long idleNanos;
  private final LongSupplier ticker;
  @GuardedBy("this")
  private final Map<BlockKey, Entry> entries = new HashMap<>();
  @GuardedBy("this")
  private boolean closed;
  /** Closes idle files on time; made at the first file kept. */
  @GuardedBy("this")
  private ScheduledThreadPoolExecutor cleaner;

  /**
   * @param maxIdle the most unreferenced files kept open; 0 closes each at its last release
   * @param idleNanos how long an unreferenced file is kept open
   * @param ticker the time in nanoseconds
   */
  DescriptorCache(int maxIdle, long idleNanos, LongSupplier ticker) {
    this.maxIdle = maxIdle;
    this.idleNanos = idleNanos;
    this.ticker = ticker;
  }

  /**
   * A reference to block {@code key}'s open file of {@code length} bytes, counted as a
   * descriptor-cache hit; null when none is here, or the one here was let go by the slave (it is
   * then dropped).
   */
  Ref acquire(BlockKey key, long length) {
    Entry e;
    synchronized (this) {
      e = entries.get(key);
      if (e == null || closed) {
        return null;
      }
      if (e.file.length() == length && e.file.held()) {
        e.refs++;
        ClientCounters.get().descriptorCacheHit();
        return new Ref(e);
      }
    }
    drop(e);
    return null;
  }

  /**
   * Keeps {@code file}, just had from the slave, and references it; a file of the same block
   * already here is dropped for it (closed once its readers are done).
   */
  Ref insert(LocalBlockReader file) {
    Entry e = new Entry(file);
    e.refs = 1;
    file.onRevoked(() -> drop(e));
    Entry old;
    synchronized (this) {
      if (closed) {
        e.dropped = true;
        return new Ref(e);
      }
      old = entries.put(file.key(), e);
      if (cleaner == null) {
        cleaner = new ScheduledThreadPoolExecutor(1, new ThreadFactoryBuilder().setDaemon(true)
            .setNameFormat("mpcache-descriptor-cache-%d").build());
        long period = Math.max(TimeUnit.MILLISECONDS.toNanos(10), idleNanos / 2);
        cleaner.scheduleWithFixedDelay(this::purge, period, period, TimeUnit.NANOSECONDS);
      }
    }
    if (old != null) {
      drop(old);
    }
    return new Ref(e);
  }

  /** Drops block {@code key}'s file, if one is here: the slave no longer caches the block. */
  void drop(BlockKey key) {
    Entry e;
    synchronized (this) {
      e = entries.get(key);
    }
    if (e != null) {
      drop(e);
    }
  }

  private void drop(Entry e) {
    boolean close;
    synchronized (this) {
      entries.remove(e.file.key(), e);
      close = !e.dropped && e.refs == 0;
      e.dropped = true;
    }
    if (close) {
      e.file.closeLater();
    }
  }

  private Future<?> release(Ref r) {
    Entry e = r.entry;
    boolean close;
    synchronized (this) {
      if (r.released) {
        return CompletableFuture.completedFuture(null);
      }
      r.released = true;
      e.refs--;
      e.idleSince = ticker.getAsLong();
      close = e.refs == 0 && e.dropped;
    }
    // Kept open, the file's reads so far are counted by the slave now, as a close would.
    Future<?> done = close ? e.file.closeLater() : e.file.report(null);
    purge();
    return done;
  }

  /** Closes the files idle for the timeout, and the longest idle beyond the bound. */
  void purge() {
    List<Entry> out = new ArrayList<>();
    synchronized (this) {
      long now = ticker.getAsLong();
      List<Entry> idle = new ArrayList<>();
      for (Entry e : entries.values()) {
        if (e.refs == 0) {
          (now - e.idleSince >= idleNanos ? out : idle).add(e);
        }
      }
      idle.sort(Comparator.comparingLong(e -> e.idleSince));
      out.addAll(idle.subList(0, Math.max(0, idle.size() - maxIdle)));
      for (Entry e : out) {
        entries.remove(e.file.key());
        e.dropped = true;
      }
    }
    out.forEach(e -> e.file.closeLater());
  }

  /** Files open here, referenced or not. */
  synchronized int size() {
    return entries.size();
  }

  /** Closes every unreferenced file; the referenced close at their last release. */
  @Override
  public void close() {
    List<Entry> all;
    synchronized (this) {
      closed = true;
      all = new ArrayList<>(entries.values());
      if (cleaner != null) {
        cleaner.shutdownNow();
      }
    }
    all.forEach(this::drop);
  }
}
