package org.mpcache.slave.store;

/**
 * The bytes of SSD the Input Cache may fill. Space is reserved before a block is written and
 * released when the block is removed or its fill fails, so usage never exceeds the capacity.
 *
 * <p>Implementations are thread-safe.
 */
public interface InputCacheSpace {

  /** Reserves {@code bytes}; false (and nothing reserved) when they do not fit. */
  boolean tryReserve(long bytes);

  /** Returns {@code bytes} reserved earlier. */
  void release(long bytes);

  /** Bytes neither used nor reserved. */
  long freeBytes();

  /** Bytes used or reserved. */
  long usedBytes();

  /** The current capacity in bytes. */
  long capacityBytes();
}
