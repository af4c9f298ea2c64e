package org.mpcache.master.arbitrator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToLongFunction;
import org.mpcache.common.BlockKey;

/**
 * Where the blocks of each dataset are, for the policies that evict whole datasets: per block copy
 * (one block on one slave) its dataset, size and whether the slave has stored it or is still
 * filling it; per dataset how many of its blocks are cached somewhere, how many bytes it holds in
 * all and on each slave; per slave the blocks of evicted datasets it has not been told to drop yet
 * (Algorithm 1's To_Del) and their bytes. A block belongs to the dataset it was first admitted
 * for.
 *
 * <p>Layout, for the master's memory (docs/simulator.md reports the measured bytes per cached
 * block): one {@link Copy} object per block copy, holding the block key's fields inline and
 * threaded on two intrusive lists, its hash bucket and its dataset's block list, so a cached block
 * costs one object and one table slot; slaves are numbered once and each dataset keeps its bytes per
 * slave in two small sorted arrays, so that "does this dataset free room on that slave" is
 * O(log slaves) while choosing victims.
 *
 * <p>Not thread-safe: owned by one policy.
 */
final class DatasetPlacement {

  /** One block on one slave, stored or being filled. */
  private static final class Copy {
    final String blockPoolId;
    final long blockId;
    final long generationStamp;
    final long bytes;
    final int slave;
    final Held dataset;
    boolean filling = true;
    Copy prevInDataset;
    Copy nextInDataset;
    Copy nextInBucket;

    Copy(BlockKey key, long bytes, int slave, Held dataset) {
      this.blockPoolId = key.getBlockPoolId();
      this.blockId = key.getBlockId();
      this.generationStamp = key.getGenerationStamp();
      this.bytes = bytes;
      this.slave = slave;
      this.dataset = dataset;
    }

    boolean is(BlockKey key) {
      return blockId == key.getBlockId() && generationStamp == key.getGenerationStamp()
          && blockPoolId.equals(key.getBlockPoolId());
    }

    boolean sameBlock(Copy o) {
      return blockId == o.blockId && generationStamp == o.generationStamp
          && blockPoolId.equals(o.blockPoolId);
    }

    BlockKey key() {
      return new BlockKey(blockPoolId, blockId, generationStamp);
    }
  }

  /** One dataset with at least one block copy. */
  private static final class Held {
    final String id;
    Copy head;
    Copy tail;
    /** Distinct blocks with at least one stored copy. */
    int cachedBlocks;
    /** Bytes of stored copies over every slave. */
    long storedBytes;
    /**
     * Bytes of stored copies on each slave: slave numbers ascending in {@code slaveKeys[0..n)},
     * their bytes beside them (kept when they fall to 0, dropped when the arrays must grow), so
     * an entry costs about 12 bytes, not a map node's 40 or more.
     */
    int[] slaveKeys = new int[2];
    long[] slaveBytes = new long[2];
    int slaveEntries;

    Held(String id) {
      this.id = id;
    }

    long bytesOn(int slave) {
      int i = Arrays.binarySearch(slaveKeys, 0, slaveEntries, slave);
      return i >= 0 ? slaveBytes[i] : 0;
    }

    void addStored(int slave, long delta) {
      storedBytes += delta;
      int i = Arrays.binarySearch(slaveKeys, 0, slaveEntries, slave);
      if (i >= 0) {
        slaveBytes[i] += delta;
        return;
      }
      if (slaveEntries == slaveKeys.length) {
        compact();
        i = Arrays.binarySearch(slaveKeys, 0, slaveEntries, slave);
      }
      if (slaveEntries == slaveKeys.length) {
        int size = slaveEntries * 3 / 2 + 1;
        slaveKeys = Arrays.copyOf(slaveKeys, size);
        slaveBytes = Arrays.copyOf(slaveBytes, size);
      }
      int at = -(i + 1);
      System.arraycopy(slaveKeys, at, slaveKeys, at + 1, slaveEntries - at);
      System.arraycopy(slaveBytes, at, slaveBytes, at + 1, slaveEntries - at);
      slaveKeys[at] = slave;
      slaveBytes[at] = delta;
      slaveEntries++;
    }

    /** Drops the slaves whose bytes fell back to 0. */
    private void compact() {
      int n = 0;
      for (int i = 0; i < slaveEntries; i++) {
        if (slaveBytes[i] != 0) {
          slaveKeys[n] = slaveKeys[i];
          slaveBytes[n] = slaveBytes[i];
          n++;
        }
      }
      slaveEntries = n;
    }
  }

  /** A slave's To_Del: blocks in the order queued, and their bytes (0 when unknown). */
  private static final class Pending {
    final LinkedHashMap<BlockKey, Long> blocks = new LinkedHashMap<>();
    long bytes;
  }

  private Copy[] table = new Copy[1 << 10];
  private int copies;
  private final Map<String, Held> datasets = new HashMap<>();
  private final Map<String, Integer> slaveIndex = new HashMap<>();
  private final List<String> slaveNames = new ArrayList<>();
  private final Map<String, Pending> toDel = new HashMap<>();
  private long pendingBytes;

  private int slave(String slaveId) {
    Integer i = slaveIndex.get(slaveId);
    if (i == null) {
      i = slaveNames.size();
      slaveIndex.put(slaveId, i);
      slaveNames.add(slaveId);
    }
    return i;
  }

  /** The bucket of a block: {@link BlockKey#hashCode()}'s value, spread. */
  private int bucket(long blockId, long generationStamp) {
    int h = Long.hashCode(blockId) * 31 + Long.hashCode(generationStamp);
    return (h ^ (h >>> 16)) & (table.length - 1);
  }

  private int bucket(BlockKey key) {
    return bucket(key.getBlockId(), key.getGenerationStamp());
  }

  private void removeFromBucket(Copy c) {
    int b = bucket(c.blockId, c.generationStamp);
    if (table[b] == c) {
      table[b] = c.nextInBucket;
    } else {
      Copy p = table[b];
      while (p.nextInBucket != c) {
        p = p.nextInBucket;
      }
      p.nextInBucket = c.nextInBucket;
    }
    copies--;
  }

  /** The first copy of a block on any slave, or null. */
  private Copy anyCopy(BlockKey key) {
    for (Copy c = table[bucket(key)]; c != null; c = c.nextInBucket) {
      if (c.is(key)) {
        return c;
      }
    }
    return null;
  }

  private Copy copyOn(BlockKey key, int slave) {
    for (Copy c = table[bucket(key)]; c != null; c = c.nextInBucket) {
      if (c.slave == slave && c.is(key)) {
        return c;
      }
    }
    return null;
  }

  /** Whether another copy of the same block is stored on some slave. */
  private boolean storedElsewhere(Copy copy) {
    for (Copy c = table[bucket(copy.blockId, copy.generationStamp)]; c != null;
        c = c.nextInBucket) {
      if (c != copy && !c.filling && c.sameBlock(copy)) {
        return true;
      }
    }
    return false;
  }

  private void link(Copy c, BlockKey key) {
    if (copies + 1 > table.length) {
      Copy[] old = table;
      table = new Copy[old.length * 2];
      for (Copy head : old) {
        for (Copy x = head; x != null; ) {
          Copy next = x.nextInBucket;
          int b = bucket(x.blockId, x.generationStamp);
          x.nextInBucket = table[b];
          table[b] = x;
          x = next;
        }
      }
    }
    int b = bucket(key);
    c.nextInBucket = table[b];
    table[b] = c;
    copies++;
    Held d = c.dataset;
    c.prevInDataset = d.tail;
    if (d.tail == null) {
      d.head = c;
    } else {
      d.tail.nextInDataset = c;
    }
    d.tail = c;
  }

  /** Takes a copy out of both lists and the tallies; forgets its dataset when it was the last. */
  private void unlink(Copy c) {
    removeFromBucket(c);
    Held d = c.dataset;
    if (c.prevInDataset == null) {
      d.head = c.nextInDataset;
    } else {
      c.prevInDataset.nextInDataset = c.nextInDataset;
    }
    if (c.nextInDataset == null) {
      d.tail = c.prevInDataset;
    } else {
      c.nextInDataset.prevInDataset = c.prevInDataset;
    }
    if (!c.filling) {
      d.addStored(c.slave, -c.bytes);
      if (!storedElsewhere(c)) {
        d.cachedBlocks--;
      }
    }
    if (d.head == null) {
      datasets.remove(d.id);
    }
  }

  private void queue(int slave, BlockKey key, long bytes) {
    Pending p = toDel.computeIfAbsent(slaveNames.get(slave), x -> new Pending());
    Long old = p.blocks.put(key, bytes);
    long delta = bytes - (old == null ? 0 : old);
    p.bytes += delta;
    pendingBytes += delta;
  }

  /** A slave starts filling a block of a dataset (no-op when it already holds or fills it). */
  void fill(String datasetId, BlockKey block, long bytes, String slaveId) {
    int s = slave(slaveId);
    if (copyOn(block, s) != null) {
      return;
    }
    Copy other = anyCopy(block);
    Held d = other != null ? other.dataset : datasets.computeIfAbsent(datasetId, Held::new);
    link(new Copy(block, bytes, s, d), block);
  }

  /** The dataset a tracked block belongs to, or null. */
  String datasetOf(BlockKey block) {
    Copy c = anyCopy(block);
    return c == null ? null : c.dataset.id;
  }

  /** Whether any block of the dataset is cached or being filled. */
  boolean holds(String datasetId) {
    return datasets.containsKey(datasetId);
  }

  /** The dataset's blocks cached on at least one slave. */
  int cachedBlocks(String datasetId) {
    Held d = datasets.get(datasetId);
    return d == null ? 0 : d.cachedBlocks;
  }

  /** The bytes of the dataset's blocks cached on a slave. O(log slaves). */
  long bytesOn(String datasetId, String slaveId) {
    Held d = datasets.get(datasetId);
    Integer s = slaveIndex.get(slaveId);
    return d == null || s == null ? 0 : d.bytesOn(s);
  }

  /** The bytes of the dataset's stored copies, over every slave. O(1). */
  long bytesHeld(String datasetId) {
    Held d = datasets.get(datasetId);
    return d == null ? 0 : d.storedBytes;
  }

  /**
   * A slave reports a block cached. A block that is not being filled there and not already cached
   * there (its dataset was evicted meanwhile) is queued for eviction on that slave.
   *
   * @return the block's dataset, or null when the block is not tracked there
   */
  String cached(String slaveId, BlockKey block) {
    int s = slave(slaveId);
    Copy c = copyOn(block, s);
    if (c == null) {
      queue(s, block, 0);
      return null;
    }
    if (!c.filling) {
      return null;
    }
    c.filling = false;
    c.dataset.addStored(s, c.bytes);
    if (!storedElsewhere(c)) {
      c.dataset.cachedBlocks++;
    }
    return c.dataset.id;
  }

  /**
   * A slave no longer holds a block (nor needs to be told to drop it).
   *
   * @return the block's dataset when it was tracked on that slave, else null
   */
  String removed(String slaveId, BlockKey block) {
    Pending p = toDel.get(slaveId);
    if (p != null) {
      Long bytes = p.blocks.remove(block);
      if (bytes != null) {
        p.bytes -= bytes;
        pendingBytes -= bytes;
      }
    }
    Integer s = slaveIndex.get(slaveId);
    Copy c = s == null ? null : copyOn(block, s);
    if (c == null) {
      return null;
    }
    unlink(c);
    return c.dataset.id;
  }

  /**
   * A slave is gone: its pending evictions and every block it held are forgotten.
   *
   * @return the datasets that had blocks on it, in no particular order
   */
  Set<String> slaveLost(String slaveId) {
    Pending p = toDel.remove(slaveId);
    if (p != null) {
      pendingBytes -= p.bytes;
    }
    Set<String> affected = new HashSet<>();
    Integer s = slaveIndex.get(slaveId);
    if (s == null) {
      return affected;
    }
    List<Copy> held = new ArrayList<>();
    for (Copy head : table) {
      for (Copy c = head; c != null; c = c.nextInBucket) {
        if (c.slave == s) {
          held.add(c);
        }
      }
    }
    for (Copy c : held) {
      unlink(c);
      affected.add(c.dataset.id);
    }
    return affected;
  }

  /**
   * Evicts a dataset whole: each of its cached blocks is queued for eviction on every slave that
   * caches it, and the dataset's blocks are forgotten (blocks still filling are queued when their
   * slave reports them cached).
   */
  void evict(String datasetId) {
    Held d = datasets.remove(datasetId);
    if (d == null) {
      return;
    }
    for (Copy c = d.head; c != null; c = c.nextInDataset) {
      if (!c.filling) {
        queue(c.slave, c.key(), c.bytes);
      }
      removeFromBucket(c);
    }
  }

  /**
   * The first {@code candidates}, in their order and skipping {@code keep}, whose {@code bytes}
   * (zero ones are skipped too) add up to at least {@code needed}; null when all of them do not.
   * How every dataset policy picks its victims, given the order it evicts in.
   */
  static <T> List<T> covering(Iterable<T> candidates, T keep, long needed,
      ToLongFunction<T> bytes) {
    List<T> victims = new ArrayList<>();
    long freed = 0;
    for (T v : candidates) {
      if (freed >= needed) {
        break;
      }
      long b = v == keep ? 0 : bytes.applyAsLong(v);
      if (b > 0) {
        victims.add(v);
        freed += b;
      }
    }
    return freed >= needed ? victims : null;
  }

  /** The bytes a slave frees by carrying out its pending evictions. O(1). */
  long pendingBytes(String slaveId) {
    Pending p = toDel.get(slaveId);
    return p == null ? 0 : p.bytes;
  }

  /** The bytes every slave frees by carrying out its pending evictions. O(1). */
  long pendingBytes() {
    return pendingBytes;
  }

  /** Takes a slave's pending evictions, in the order they were queued. */
  List<BlockKey> takePending(String slaveId) {
    Pending p = toDel.remove(slaveId);
    if (p == null) {
      return List.of();
    }
    pendingBytes -= p.bytes;
    return new ArrayList<>(p.blocks.keySet());
  }
}
