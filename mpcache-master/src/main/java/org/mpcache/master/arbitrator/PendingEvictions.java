package org.mpcache.master.arbitrator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.mpcache.common.BlockKey;

/**
 * The To_Del list of Algorithm 1: per slave, the blocks of evicted datasets that the slave still
 * holds and has not been told to drop, and their total bytes. The master no longer counts these
 * blocks as cached; their bytes count as reclaimable room on that slave (lines 12-13). A block the
 * master never sized counts 0 bytes, so the reclaimable room errs low, never high.
 *
 * <p>Not thread-safe: owned by one policy.
 */
final class PendingEvictions {
  private record Pending(BlockKey key, long bytes) {
  }

  private List<Pending>[] blocks = newLists(16);
  private long[] bytes = new long[16];
  private long totalBytes;

  void add(int slave, BlockKey key, long blockBytes) {
    ensure(slave);
    if (blocks[slave] == null) {
      blocks[slave] = new ArrayList<>();
    }
    blocks[slave].add(new Pending(key, blockBytes));
    bytes[slave] += blockBytes;
    totalBytes += blockBytes;
  }

  /** Pending bytes over all slaves. */
  long totalBytes() {
    return totalBytes;
  }

  long bytes(int slave) {
    return slave < bytes.length ? bytes[slave] : 0;
  }

  /** Removes and returns the slave's pending blocks, in the order they were planned. */
  List<BlockKey> take(int slave) {
    if (slave >= blocks.length || blocks[slave] == null) {
      return List.of();
    }
    List<Pending> taken = blocks[slave];
    blocks[slave] = null;
    totalBytes -= bytes[slave];
    bytes[slave] = 0;
    List<BlockKey> keys = new ArrayList<>(taken.size());
    for (Pending p : taken) {
      keys.add(p.key());
    }
    return keys;
  }

  /**
   * Forgets a pending block the slave dropped by itself, so its bytes stop counting as
   * reclaimable; returns those bytes (0 if the block was not pending). O(pending blocks of the
   * slave).
   */
  long remove(int slave, BlockKey key) {
    if (slave >= blocks.length || blocks[slave] == null) {
      return 0;
    }
    List<Pending> list = blocks[slave];
    for (int i = 0; i < list.size(); i++) {
      if (list.get(i).key().equals(key)) {
        long b = list.remove(i).bytes();
        bytes[slave] -= b;
        totalBytes -= b;
        return b;
      }
    }
    return 0;
  }

  private void ensure(int slave) {
    if (slave >= blocks.length) {
      int n = Math.max(slave + 1, blocks.length * 2);
      blocks = Arrays.copyOf(blocks, n);
      bytes = Arrays.copyOf(bytes, n);
    }
  }

  @SuppressWarnings("unchecked")
  private static List<Pending>[] newLists(int n) {
    return (List<Pending>[]) new List<?>[n];
  }
}
