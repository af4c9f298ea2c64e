package org.mpcache.master.arbitrator;

import java.util.HashMap;
import java.util.Map;

/**
 * Dense integer indexes for slave ids, so that per-block and per-dataset metadata stores a 4-byte
 * index instead of a string reference and per-slave tables are arrays. Indexes are never reused.
 *
 * <p>Not thread-safe: owned by one policy.
 */
final class SlaveRegistry {
  private final Map<String, Integer> indexes = new HashMap<>();

  /** The slave's index, assigning the next one on first sight. */
  int indexOf(String slaveId) {
    Integer i = indexes.get(slaveId);
    if (i == null) {
      i = indexes.size();
      indexes.put(slaveId, i);
    }
    return i;
  }

  /** The slave's index, or -1 when it was never seen. */
  int find(String slaveId) {
    Integer i = indexes.get(slaveId);
    return i == null ? -1 : i;
  }
}
