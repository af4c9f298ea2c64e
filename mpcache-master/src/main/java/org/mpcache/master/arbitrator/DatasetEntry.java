package org.mpcache.master.arbitrator;

/**
 * A dataset in the main cache: its size in blocks, the blocks the cluster holds of it (on which
 * slaves, how many distinct), {@code Blocks_Access} since it entered the main cache, its
 * {@link AccessStamp}, and its place in the policy's priority queue (tier, rank, and an entry
 * sequence number that breaks ties deterministically, oldest first).
 *
 * <p>Mutable; owned by one {@link DatasetCachePolicy} and confined to its caller's thread.
 */
public final class DatasetEntry {
  private final String id;
  private final long sequence;
  private final AccessStamp stamp;
  private int size;
  private long blocksAccess;
  private int distinctCached;
  private long cachedBytes;
  final SlaveTally bytesPerSlave = new SlaveTally();
  CachedBlock firstBlock;
  int tier;
  double rank;

  DatasetEntry(String id, long sequence, int size, AccessStamp stamp) {
    this.id = id;
    this.sequence = sequence;
    this.size = size;
    this.stamp = stamp;
  }

  public String id() {
    return id;
  }

  long sequence() {
    return sequence;
  }

  /** {@code Size(jd)}: the number of blocks of the dataset, as its readers last reported it. */
  public int size() {
    return size;
  }

  void size(int blocks) {
    this.size = blocks;
  }

  /** {@code Blocks_Access(jd)}: block reads of the dataset since it entered the main cache. */
  public long blocksAccess() {
    return blocksAccess;
  }

  void countBlockAccess() {
    blocksAccess++;
  }

  /** Distinct blocks of the dataset cached somewhere in the cluster. */
  public int distinctCached() {
    return distinctCached;
  }

  void distinctCached(int delta) {
    distinctCached += delta;
  }

  /** Bytes of the dataset cached over all slaves, copies included. */
  public long cachedBytes() {
    return cachedBytes;
  }

  void cachedBytes(long delta) {
    cachedBytes += delta;
  }

  /** Whether every block of the dataset is cached (the all-or-nothing condition). */
  public boolean complete() {
    return distinctCached >= size;
  }

  public AccessStamp stamp() {
    return stamp;
  }

  /** The priority the queue currently orders the dataset by (within its tier). */
  public double rank() {
    return rank;
  }

  @Override
  public String toString() {
    return "Dataset{" + id + ", size=" + size + ", cached=" + distinctCached + ", access="
        + blocksAccess + ", tier=" + tier + ", rank=" + rank + "}";
  }
}
