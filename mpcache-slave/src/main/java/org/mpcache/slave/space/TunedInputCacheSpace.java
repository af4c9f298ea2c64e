package org.mpcache.slave.space;

import java.util.Objects;
import javax.annotation.concurrent.GuardedBy;
import org.mpcache.common.BlockKey;
import org.mpcache.slave.store.InputCacheSpace;

/**
 * The Input Cache's room as the slave's {@link DynamicSpaceTuner} accounts it: each block is reserved
 * in the SSD directory with the most room, borrowing free Dynamic Pool units when the Input Cache's
 * own space is full (mpCache paper, Section 2.1). Shares the tuner, and its lock, with the Localized
 * Cache, so a unit lent to one cache is never reachable by the other.
 *
 * <p>Thread-safe: every call holds the slave's space lock while it uses the tuner.
 */
public final class TunedInputCacheSpace implements InputCacheSpace {
  private final Object lock;
  @GuardedBy("lock")
  private final DynamicSpaceTuner tuner;

  /**
   * @param tuner the slave's tuner
   * @param lock the lock the slave holds around every call to {@code tuner}
   */
  public TunedInputCacheSpace(DynamicSpaceTuner tuner, Object lock) {
    this.tuner = Objects.requireNonNull(tuner, "tuner");
    this.lock = Objects.requireNonNull(lock, "lock");
  }

  @Override
  public String tryReserve(BlockKey block, long bytes, String dir) {
    if (bytes < 0) {
      throw new IllegalArgumentException("bytes must not be negative: " + bytes);
    }
    // An empty block still takes a file: account it as one byte so it has a reservation to release.
    long accounted = Math.max(1, bytes);
    synchronized (lock) {
      Reservation r = dir == null ? tuner.reserveInput(block, accounted)
          : tuner.reserveInputIn(dir, block, accounted);
      return r.reserved() ? r.dir() : null;
    }
  }

  @Override
  public void filled(BlockKey block) {
    synchronized (lock) {
      tuner.inputFilled(block);
    }
  }

  @Override
  public void release(BlockKey block) {
    synchronized (lock) {
      tuner.releaseInput(block);
    }
  }

  /**
   * The SSD directory holding an input block's reservation, or null if it has none; read under
   * the lock, as fills change the reservations meanwhile.
   */
  public String dirOf(BlockKey block) {
    synchronized (lock) {
      return tuner.inputDir(block);
    }
  }

  @Override
  public long freeBytes() {
    SpaceSnapshot s = snapshot();
    return s.inputCacheCapacity() + s.poolLentToInput() + s.poolFree() - s.inputCacheUsed();
  }

  @Override
  public long usedBytes() {
    return snapshot().inputCacheUsed();
  }

  @Override
  public long capacityBytes() {
    SpaceSnapshot s = snapshot();
    return s.inputCacheCapacity() + s.dynamicPoolCapacity() - s.poolLentToLocalized();
  }

  @Override
  public void setInService(String dir, boolean inService) {
    synchronized (lock) {
      tuner.setInService(dir, inService);
    }
  }

  private SpaceSnapshot snapshot() {
    synchronized (lock) {
      return tuner.snapshot();
    }
  }
}
