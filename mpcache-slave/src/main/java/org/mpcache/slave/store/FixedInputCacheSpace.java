package org.mpcache.slave.store;

import javax.annotation.concurrent.GuardedBy;

/**
 * An {@link InputCacheSpace} of fixed capacity. Thread-safe: every method takes this object's
 * monitor.
 */
public final class FixedInputCacheSpace implements InputCacheSpace {
  private final long capacity;
  @GuardedBy("this")
  private long used;

  public FixedInputCacheSpace(long capacity) {
    if (capacity < 0) {
      throw new IllegalArgumentException("capacity must not be negative: " + capacity);
    }
    this.capacity = capacity;
  }

  @Override
  public synchronized boolean tryReserve(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("bytes must not be negative: " + bytes);
    }
    if (used + bytes > capacity) {
      return false;
    }
    used += bytes;
    return true;
  }

  @Override
  public synchronized void release(long bytes) {
    if (bytes < 0 || bytes > used) {
      throw new IllegalStateException("Releasing " + bytes + " bytes with only " + used
          + " reserved");
    }
    used -= bytes;
  }

  @Override
  public synchronized long freeBytes() {
    return capacity - used;
  }

  @Override
  public synchronized long usedBytes() {
    return used;
  }

  @Override
  public long capacityBytes() {
    return capacity;
  }
}
