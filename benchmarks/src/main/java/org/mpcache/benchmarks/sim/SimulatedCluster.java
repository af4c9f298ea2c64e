package org.mpcache.benchmarks.sim;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.mpcache.common.BlockKey;

/**
 * The simulated cluster: N slaves with an SSD Input Cache of a fixed capacity each, and the HDFS
 * layout of every dataset (blocks of a fixed size, the last one shorter, each with its replicas on
 * distinct nodes chosen by a seeded hash, so that a layout needs no storage and the same seed gives
 * the same placement). A slave's cache is the set of block ids it holds and their total bytes; the
 * simulator checks every write against the capacity.
 *
 * <p>Not thread-safe: one simulation run owns it.
 */
final class SimulatedCluster {
  static final String BLOCK_POOL = "BP-sim";

  /**
   * A dataset's HDFS layout. Block ids are handed out sequentially, dataset after dataset, as the
   * NameNode does, so that the block keys hash as they would on a real cluster.
   */
  record Layout(long firstBlockId, String datasetId, int blocks, long blockBytes,
      long lastBlockBytes) {
    long bytesOf(int index) {
      return index == blocks - 1 ? lastBlockBytes : blockBytes;
    }
  }

  private final int nodes;
  private final int replicas;
  private final long blockBytes;
  private final long capacityBytes;
  private final long seed;
  private final String[] slaveIds;
  private final List<Set<Long>> cached = new ArrayList<>();
  private final long[] used;
  private final Map<String, Layout> layouts = new HashMap<>();
  private final List<Layout> byFirstId = new ArrayList<>();
  private long nextBlockId = 1L << 30;

  SimulatedCluster(int nodes, int replicas, long blockBytes, long capacityBytes, long seed) {
    if (nodes < 1 || replicas < 1 || replicas > nodes || blockBytes < 1 || capacityBytes < 0) {
      throw new IllegalArgumentException("need 1 <= replicas <= nodes, positive block size and "
          + "non-negative capacity: nodes=" + nodes + " replicas=" + replicas);
    }
    this.nodes = nodes;
    this.replicas = replicas;
    this.blockBytes = blockBytes;
    this.capacityBytes = capacityBytes;
    this.seed = seed;
    this.slaveIds = new String[nodes];
    this.used = new long[nodes];
    for (int i = 0; i < nodes; i++) {
      slaveIds[i] = "slave-" + i;
      cached.add(new HashSet<>());
    }
  }

  String slaveId(int node) {
    return slaveIds[node];
  }

  /** The dataset's layout, created on first sight from its size. */
  Layout layout(String datasetId, long inputBytes) {
    Layout l = layouts.get(datasetId);
    if (l == null) {
      int blocks = (int) ((inputBytes + blockBytes - 1) / blockBytes);
      l = new Layout(nextBlockId, datasetId, blocks, blockBytes,
          inputBytes - (blocks - 1) * blockBytes);
      nextBlockId += blocks;
      layouts.put(datasetId, l);
      byFirstId.add(l);
    }
    return l;
  }

  static long blockId(Layout l, int index) {
    return l.firstBlockId() + index;
  }

  static BlockKey key(long blockId) {
    return new BlockKey(BLOCK_POOL, blockId, 1);
  }

  /** The size of a block, found by binary search over the layouts. */
  long bytesOf(long blockId) {
    int lo = 0;
    int hi = byFirstId.size() - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (byFirstId.get(mid).firstBlockId() <= blockId) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    Layout l = byFirstId.get(lo);
    return l.bytesOf((int) (blockId - l.firstBlockId()));
  }

  /**
   * Fills {@code out[0..replicas)} with the block's replica nodes: distinct, drawn by a hash of
   * the seed and the block id (rejection of repeats), so the placement is stable and uniform.
   */
  void replicaNodes(long blockId, int[] out) {
    long h = seed ^ blockId;
    int n = 0;
    while (n < replicas) {
      h = mix(h + 0x9E3779B97F4A7C15L);
      int node = (int) Long.remainderUnsigned(h, nodes);
      boolean repeat = false;
      for (int i = 0; i < n; i++) {
        repeat |= out[i] == node;
      }
      if (!repeat) {
        out[n++] = node;
      }
    }
  }

  boolean holds(int node, long blockId) {
    return cached.get(node).contains(blockId);
  }

  long free(int node) {
    return capacityBytes - used[node];
  }

  void store(int node, long blockId) {
    long bytes = bytesOf(blockId);
    if (used[node] + bytes > capacityBytes) {
      throw new IllegalStateException("policy overfilled " + slaveIds[node] + ": used "
          + used[node] + " + " + bytes + " > " + capacityBytes);
    }
    if (cached.get(node).add(blockId)) {
      used[node] += bytes;
    }
  }

  void drop(int node, long blockId) {
    if (!cached.get(node).remove(blockId)) {
      throw new IllegalStateException("policy evicted block " + blockId + " that "
          + slaveIds[node] + " does not hold");
    }
    used[node] -= bytesOf(blockId);
  }

  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
