package org.mpcache.slave.space;

/**
 * The split of a slave's SSD space at one moment, in bytes: what the slave reports to the master's
 * Dynamic Space Manager with every heartbeat (mpCache paper, Section 2.1). Pool units lent to a cache
 * count in the pool's figures, not in that cache's own capacity. Immutable and thread-safe.
 *
 * @param capacity the whole SSD space
 * @param inputCacheCapacity the Input Cache's own bytes
 * @param inputCacheUsed bytes of input blocks cached or reserved, including those in lent units
 * @param dynamicPoolCapacity the pool's bytes
 * @param poolLentToInput pool bytes currently lent to the Input Cache
 * @param poolLentToLocalized pool bytes currently lent to the Localized Cache
 * @param localizedCacheCapacity the Localized Cache's own bytes
 * @param localizedCacheUsed bytes of localized data granted, including those in lent units
 */
public record SpaceSnapshot(long capacity, long inputCacheCapacity, long inputCacheUsed,
    long dynamicPoolCapacity, long poolLentToInput, long poolLentToLocalized,
    long localizedCacheCapacity, long localizedCacheUsed) {

  /** The empty snapshot: the identity of {@link #plus}. */
  public static final SpaceSnapshot EMPTY = new SpaceSnapshot(0, 0, 0, 0, 0, 0, 0, 0);

  /** The field-by-field sum: the node's figures from its directories' figures. */
  public SpaceSnapshot plus(SpaceSnapshot o) {
    return new SpaceSnapshot(capacity + o.capacity, inputCacheCapacity + o.inputCacheCapacity,
        inputCacheUsed + o.inputCacheUsed, dynamicPoolCapacity + o.dynamicPoolCapacity,
        poolLentToInput + o.poolLentToInput, poolLentToLocalized + o.poolLentToLocalized,
        localizedCacheCapacity + o.localizedCacheCapacity,
        localizedCacheUsed + o.localizedCacheUsed);
  }

  /** Pool bytes lent to neither cache. */
  public long poolFree() {
    return dynamicPoolCapacity - poolLentToInput - poolLentToLocalized;
  }
}
