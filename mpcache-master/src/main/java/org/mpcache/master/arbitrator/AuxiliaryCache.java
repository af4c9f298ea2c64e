package org.mpcache.master.arbitrator;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.function.Consumer;

/**
 * The admission control's auxiliary cache (mpCache paper, Section 2.2): the identities of the
 * datasets accessed most recently, at most a fixed number, least recently accessed forgotten
 * first. It answers whether a dataset "occurs" in it as of the start of an access, so that a
 * job's own first block never makes the rest of the same job look like a second access, and
 * whether that earlier access was recent (within a window of time). {@link MpCachePolicy} admits
 * by it when room lacks; every policy with a write-budget mode admits by it while the cluster is
 * over budget (a dataset only on a second access within the budget's window).
 *
 * <p>Not thread-safe: its policy's caller serializes calls.
 */
final class AuxiliaryCache {

  /** What the cache knew of a dataset when an access of it began. */
  enum Seen {
    /** Not remembered: a first access, as far as the cache knows. */
    NEW,
    /** Remembered, its previous access longer ago than the window. */
    EARLIER,
    /** Remembered, its previous access within the window. */
    RECENTLY
  }

  /** What is remembered of one dataset: its latest access (job, start time) and its answer. */
  private static final class Entry {
    final String job;
    final long startMs;
    final Seen seen;

    Entry(String job, long startMs, Seen seen) {
      this.job = job;
      this.startMs = startMs;
      this.seen = seen;
    }
  }

  private final int capacity;
  /** How recent a previous access must be to count as {@link Seen#RECENTLY}, milliseconds. */
  private final long windowMs;
  /** Dataset ids in LRU order (eldest first). */
  private final LinkedHashMap<String, Entry> ids = new LinkedHashMap<>(16, 0.75f, true);
  /** Told each dataset the cache forgets. */
  private final Consumer<String> forgotten;

  AuxiliaryCache(int capacity, long windowMs, Consumer<String> forgotten) {
    if (capacity < 1) {
      throw new IllegalArgumentException("auxiliary cache capacity must be at least 1, got "
          + capacity);
    }
    this.capacity = capacity;
    this.windowMs = windowMs;
    this.forgotten = forgotten;
  }

  /**
   * Records an access to a dataset by a job ({@code ""} when unknown, each request then being
   * an access of its own) at {@code nowMs}, and answers what the cache knew of the dataset when
   * this access began: a request of the same job as the latest access gets the answer that
   * access got.
   */
  Seen access(String datasetId, String jobId, long nowMs) {
    Entry e = ids.get(datasetId);
    if (e != null && !jobId.isEmpty() && jobId.equals(e.job)) {
      return e.seen;
    }
    Seen seen = e == null ? Seen.NEW
        : nowMs - e.startMs <= windowMs ? Seen.RECENTLY : Seen.EARLIER;
    ids.put(datasetId, new Entry(jobId, nowMs, seen));
    if (ids.size() > capacity) {
      Iterator<String> eldest = ids.keySet().iterator();
      String gone = eldest.next();
      eldest.remove();
      forgotten.accept(gone);
    }
    return seen;
  }

  /** Whether the cache remembers a dataset now (it does not count as an access). */
  boolean contains(String datasetId) {
    return ids.containsKey(datasetId);
  }

  /** The remembered dataset ids, least recently accessed first. */
  List<String> idsEldestFirst() {
    return new ArrayList<>(ids.keySet());
  }

  /**
   * Remembers {@code eldestFirst} as a checkpoint listed them, each as accessed by an unknown
   * job longer ago than the window; when they are more than the capacity, the most recently accessed are kept.
   */
  void restore(List<String> eldestFirst) {
    for (String id : eldestFirst.subList(Math.max(0, eldestFirst.size() - capacity),
        eldestFirst.size())) {
      ids.put(id, new Entry("", Long.MIN_VALUE / 2, Seen.EARLIER));
    }
  }

  @Override
  public String toString() {
    return "AuxiliaryCache" + ids.keySet();
  }

}
