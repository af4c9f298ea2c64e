package org.mpcache.master.arbitrator;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The admission control's auxiliary cache (paper Section 2.2): the identities of recently accessed
 * datasets, kept by LRU rules up to a fixed number, each with its {@link AccessStamp}. It holds no
 * data. Lookups and updates are O(1).
 *
 * <p>Not thread-safe: owned by one policy.
 */
final class AuxiliaryCache {
  private final Map<String, AccessStamp> entries;

  AuxiliaryCache(int capacity) {
    this.entries = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, AccessStamp> eldest) {
        return size() > capacity;
      }
    };
  }

  /** The stamp of a remembered dataset, or null; a lookup counts as a use under LRU rules. */
  AccessStamp get(String datasetId) {
    return entries.get(datasetId);
  }

  /**
   * Makes {@code stamp} the most recently used entry for the dataset, inserting it (or re-inserting
   * a stamp that the main cache kept after this cache had dropped it).
   */
  void touch(String datasetId, AccessStamp stamp) {
    entries.put(datasetId, stamp);
  }
}
