package org.mpcache.master.arbitrator;

import java.util.function.Consumer;
import org.mpcache.common.BlockKey;

/**
 * Every (slave, block) the master believes cached, found by slave and block key in O(1) and
 * enumerable per dataset in O(blocks of the dataset). A chained hash table whose chains run through
 * the entries themselves, so that an entry costs one table slot and one {@link CachedBlock}. Copies
 * of one block on several slaves share a bucket, which is how a dataset's count of distinct cached
 * blocks stays exact.
 *
 * <p>Not thread-safe: owned by one policy.
 */
final class CachedBlockIndex {
  private CachedBlock[] table = new CachedBlock[64];
  private int size;

  int size() {
    return size;
  }

  CachedBlock find(int slave, BlockKey key) {
    for (CachedBlock b = table[bucket(key.getBlockId(), key.getGenerationStamp())]; b != null;
        b = b.nextInBucket) {
      if (b.slave == slave && b.sameBlock(key)) {
        return b;
      }
    }
    return null;
  }

  /** Records a block on a slave for a dataset; the caller checked that it is not there yet. */
  CachedBlock add(int slave, BlockKey key, long bytes, DatasetEntry dataset) {
    if (size >= table.length) {
      resize();
    }
    CachedBlock b = new CachedBlock(key, bytes, slave, dataset);
    int i = bucket(b.blockId, b.generationStamp);
    if (!hasCopy(table[i], b)) {
      dataset.distinctCached(1);
    }
    b.nextInBucket = table[i];
    table[i] = b;
    b.nextInDataset = dataset.firstBlock;
    if (dataset.firstBlock != null) {
      dataset.firstBlock.prevInDataset = b;
    }
    dataset.firstBlock = b;
    dataset.bytesPerSlave.add(slave, bytes);
    dataset.cachedBytes(bytes);
    size++;
    return b;
  }

  /** Forgets one entry, unlinking it from its bucket and its dataset. */
  void remove(CachedBlock b) {
    int i = bucket(b.blockId, b.generationStamp);
    if (table[i] == b) {
      table[i] = b.nextInBucket;
    } else {
      CachedBlock p = table[i];
      while (p.nextInBucket != b) {
        p = p.nextInBucket;
      }
      p.nextInBucket = b.nextInBucket;
    }
    b.nextInBucket = null;
    if (!hasCopy(table[i], b)) {
      b.dataset.distinctCached(-1);
    }
    if (b.prevInDataset != null) {
      b.prevInDataset.nextInDataset = b.nextInDataset;
    } else {
      b.dataset.firstBlock = b.nextInDataset;
    }
    if (b.nextInDataset != null) {
      b.nextInDataset.prevInDataset = b.prevInDataset;
    }
    b.prevInDataset = null;
    b.nextInDataset = null;
    b.dataset.bytesPerSlave.add(b.slave, -b.bytes);
    b.dataset.cachedBytes(-b.bytes);
    size--;
  }

  /**
   * Calls {@code action} on every entry of a slave; the action may remove that entry and no other.
   * O(all entries), for the rare lost slave.
   */
  void forEachOnSlave(int slave, Consumer<CachedBlock> action) {
    for (CachedBlock head : table) {
      for (CachedBlock b = head; b != null; ) {
        CachedBlock next = b.nextInBucket;
        if (b.slave == slave) {
          action.accept(b);
        }
        b = next;
      }
    }
  }

  private static boolean hasCopy(CachedBlock chain, CachedBlock of) {
    for (CachedBlock b = chain; b != null; b = b.nextInBucket) {
      if (b != of && b.sameBlock(of)) {
        return true;
      }
    }
    return false;
  }

  private int bucket(long blockId, long generationStamp) {
    long h = (blockId * 31 + generationStamp) * 0x9E3779B97F4A7C15L;
    return (int) (h >>> 32) & (table.length - 1);
  }

  private void resize() {
    CachedBlock[] old = table;
    table = new CachedBlock[old.length * 2];
    for (CachedBlock head : old) {
      for (CachedBlock b = head; b != null; ) {
        CachedBlock next = b.nextInBucket;
        int i = bucket(b.blockId, b.generationStamp);
        b.nextInBucket = table[i];
        table[i] = b;
        b = next;
      }
    }
  }
}
