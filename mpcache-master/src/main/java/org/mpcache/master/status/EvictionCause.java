package org.mpcache.master.status;

/** Why blocks of a dataset left the cache, as {@code mpcache admin explain} reports it. */
public enum EvictionCause {
  /** The policy evicted the dataset to make room for another (Algorithm 1's replacement). */
  REPLACEMENT,
  /** An operator ran {@code mpcache admin evict}. */
  ADMIN_EVICT,
  /** The slave holding the blocks is being decommissioned. */
  DECOMMISSION,
  /** The slave holding the blocks expired or registered anew; its blocks were forgotten. */
  SLAVE_LOST,
  /** The slave dropped the blocks on its own: found corrupt, failed to fill, or lost its SSD. */
  SLAVE_DROPPED,
  /**
   * A registering slave held a copy of a block HDFS no longer has: its file was deleted or
   * replaced, or the block's generation stamp changed (an append) while the copy sat on the SSD.
   */
  STALE,
  /** Its time to live (mpcache admin ttl) passed since its last read. */
  TTL_EXPIRED
}
