package org.mpcache.master.arbitrator;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.mpcache.common.BlockKey;

/**
 * Where the blocks of each dataset are, for the policies that evict whole datasets: per block its
 * dataset, size and the slaves that cache it or are filling it; per dataset how many of its blocks
 * are cached somewhere; per slave the blocks of evicted datasets it has not been told to drop yet
 * (Algorithm 1's To_Del). A block belongs to the dataset it was first admitted for. Not
 * thread-safe: owned by one policy.
 */
final class DatasetPlacement {

  /** One tracked block. */
  private static final class Placed {
    final String datasetId;
    final long bytes;
    final Set<String> cachedOn = new HashSet<>(2);
    final Set<String> fillingOn = new HashSet<>(2);

    Placed(String datasetId, long bytes) {
      this.datasetId = datasetId;
      this.bytes = bytes;
    }
  }

  private final Map<BlockKey, Placed> blocks = new HashMap<>();
  private final Map<String, Set<BlockKey>> byDataset = new HashMap<>();
  private final Map<String, Integer> cachedBlocks = new HashMap<>();
  private final Map<String, LinkedHashMap<BlockKey, Long>> toDel = new HashMap<>();

  /** A slave starts filling a block of a dataset. */
  void fill(String datasetId, BlockKey block, long bytes, String slaveId) {
    Placed p = blocks.computeIfAbsent(block, k -> new Placed(datasetId, bytes));
    p.fillingOn.add(slaveId);
    byDataset.computeIfAbsent(p.datasetId, k -> new LinkedHashSet<>()).add(block);
  }

  /** The dataset a tracked block belongs to, or null. */
  String datasetOf(BlockKey block) {
    Placed p = blocks.get(block);
    return p == null ? null : p.datasetId;
  }

  /** Whether any block of the dataset is cached or being filled. */
  boolean holds(String datasetId) {
    return byDataset.containsKey(datasetId);
  }

  /** The dataset's blocks cached on at least one slave. */
  int cachedBlocks(String datasetId) {
    return cachedBlocks.getOrDefault(datasetId, 0);
  }

  /** The bytes of the dataset's blocks cached on a slave. */
  long bytesOn(String datasetId, String slaveId) {
    long bytes = 0;
    for (BlockKey k : byDataset.getOrDefault(datasetId, Set.of())) {
      Placed p = blocks.get(k);
      if (p.cachedOn.contains(slaveId)) {
        bytes += p.bytes;
      }
    }
    return bytes;
  }

  /**
   * A slave reports a block cached. A block that is not being filled there and not already cached
   * there (its dataset was evicted meanwhile) is queued for eviction on that slave.
   *
   * @return the block's dataset, or null when the block is not tracked
   */
  String cached(String slaveId, BlockKey block) {
    Placed p = blocks.get(block);
    if (p == null || !p.fillingOn.remove(slaveId)) {
      if (p == null || !p.cachedOn.contains(slaveId)) {
        toDel.computeIfAbsent(slaveId, x -> new LinkedHashMap<>()).put(block, 0L);
      }
      return null;
    }
    if (p.cachedOn.isEmpty()) {
      cachedBlocks.merge(p.datasetId, 1, Integer::sum);
    }
    p.cachedOn.add(slaveId);
    return p.datasetId;
  }

  /**
   * A slave no longer holds a block (nor needs to be told to drop it).
   *
   * @return the block's dataset when it was tracked on that slave, else null
   */
  String removed(String slaveId, BlockKey block) {
    LinkedHashMap<BlockKey, Long> pending = toDel.get(slaveId);
    if (pending != null) {
      pending.remove(block);
    }
    Placed p = blocks.get(block);
    if (p == null || !p.cachedOn.contains(slaveId) && !p.fillingOn.contains(slaveId)) {
      return null;
    }
    p.fillingOn.remove(slaveId);
    if (p.cachedOn.remove(slaveId) && p.cachedOn.isEmpty()) {
      cachedBlocks.merge(p.datasetId, -1, Integer::sum);
    }
    if (p.cachedOn.isEmpty() && p.fillingOn.isEmpty()) {
      blocks.remove(block);
      Set<BlockKey> of = byDataset.get(p.datasetId);
      of.remove(block);
      if (of.isEmpty()) {
        byDataset.remove(p.datasetId);
        cachedBlocks.remove(p.datasetId);
      }
    }
    return p.datasetId;
  }

  /**
   * A slave is gone: its pending evictions and every block it held are forgotten.
   *
   * @return the datasets that had blocks on it, in no particular order
   */
  Set<String> slaveLost(String slaveId) {
    toDel.remove(slaveId);
    List<BlockKey> held = new ArrayList<>();
    for (Map.Entry<BlockKey, Placed> e : blocks.entrySet()) {
      if (e.getValue().cachedOn.contains(slaveId) || e.getValue().fillingOn.contains(slaveId)) {
        held.add(e.getKey());
      }
    }
    Set<String> affected = new HashSet<>();
    for (BlockKey k : held) {
      affected.add(removed(slaveId, k));
    }
    return affected;
  }

  /**
   * Evicts a dataset whole: each of its cached blocks is queued for eviction on every slave that
   * caches it, and the dataset's blocks are forgotten (blocks still filling are queued when their
   * slave reports them cached).
   */
  void evict(String datasetId) {
    Set<BlockKey> of = byDataset.remove(datasetId);
    cachedBlocks.remove(datasetId);
    if (of == null) {
      return;
    }
    for (BlockKey k : of) {
      Placed p = blocks.remove(k);
      for (String s : p.cachedOn) {
        toDel.computeIfAbsent(s, x -> new LinkedHashMap<>()).put(k, p.bytes);
      }
    }
  }

  /** The bytes a slave frees by carrying out its pending evictions. */
  long pendingBytes(String slaveId) {
    long bytes = 0;
    for (long b : toDel.getOrDefault(slaveId, new LinkedHashMap<>()).values()) {
      bytes += b;
    }
    return bytes;
  }

  /** Takes a slave's pending evictions, in the order they were queued. */
  List<BlockKey> takePending(String slaveId) {
    LinkedHashMap<BlockKey, Long> pending = toDel.remove(slaveId);
    return pending == null ? List.of() : new ArrayList<>(pending.keySet());
  }
}
