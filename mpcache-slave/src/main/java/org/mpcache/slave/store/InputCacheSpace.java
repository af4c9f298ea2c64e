package org.mpcache.slave.store;

import org.mpcache.common.BlockKey;

/**
 * The SSD room the Input Cache may fill, block by block, and which SSD directory each block goes
 * to. Space is reserved before a block is written and released when the block is removed or its
 * fill fails, so usage never exceeds the capacity. The slave's implementation is the Dynamic Space
 * Tuner's ({@link org.mpcache.slave.space.TunedInputCacheSpace}), whose capacity changes as Dynamic
 * Pool units are lent.
 *
 * <p>Implementations are thread-safe.
 */
public interface InputCacheSpace {

  /**
   * Reserves room for a block.
   *
   * @param dir the directory the block must go to (a block found there at start-up), or
   *     {@code null} for any directory
   * @return the directory holding the reservation, or {@code null} (nothing reserved) when the
   *     block does not fit
   */
  String tryReserve(BlockKey block, long bytes, String dir);

  /**
   * Tells that a block's fill is complete. Until then its reservation is never given away to make
   * room for other data, since its bytes are still arriving; a block reserved in a given directory
   * at start-up is complete from the start.
   */
  void filled(BlockKey block);

  /** Returns a block's reservation; does nothing for a block that holds none. */
  void release(BlockKey block);

  /** Bytes neither used nor reserved that the Input Cache can reach now. */
  long freeBytes();

  /** Bytes used or reserved. */
  long usedBytes();

  /** The bytes the Input Cache can reach now: its own space and the pool units not lent away. */
  long capacityBytes();

  /**
   * Takes a directory out of service (no block is placed there any more and its space leaves
   * the totals) or puts it back. Reservations held there stay until released.
   */
  void setInService(String dir, boolean inService);
}
