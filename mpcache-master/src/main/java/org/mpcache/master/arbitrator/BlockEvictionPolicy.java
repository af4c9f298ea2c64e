package org.mpcache.master.arbitrator;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.mpcache.common.BlockKey;

/**
 * The shared shape of the block-granularity baselines ({@link LruPolicy}, {@link LfuPolicy}): every
 * miss is admitted (no admission control), except while the cluster is over its SSD write budget,
 * when a block is admitted only if its dataset's previous access, remembered by an
 * {@link AuxiliaryCache}, began within the hour before (the write-budget mode, as
 * {@link MpCachePolicy} has it); when the requesting slave lacks room, its own cached
 * blocks are evicted in the order the subclass defines until the new block fits. Each slave's copy
 * of a block is tracked on its own, with its access count and the sequence number of its last
 * access (counted over every event the policy sees, so stamps are unique). Counts live while the
 * copy is tracked; a block evicted and read again starts over. Evictions are always returned with
 * the decision, so {@link #pendingEvictions} has nothing to hand out.
 *
 * <p>Pure and deterministic; not thread-safe (the caller serializes calls).
 */
abstract class BlockEvictionPolicy extends IndexedPolicy {

  /** One slave's copy of one block. Its ordering fields change only while out of the order. */
  static final class BlockCopy {
    final BlockKey block;
    long bytes;
    long accesses;
    long lastAccessSeq;
    /** Reported cached (false while the slave is still filling it). */
    boolean cached;

    BlockCopy(BlockKey block, long bytes) {
      this.block = block;
      this.bytes = bytes;
    }
  }

  /** One slave: all its copies, and the cached ones in eviction order (first out first). */
  private final class Slave {
    final Map<BlockKey, BlockCopy> copies = new HashMap<>();
    final TreeSet<BlockCopy> evictionOrder = new TreeSet<>(order);
  }

  /**
   * The subclass's victim order, then least recently accessed, then by block. Written out rather
   * than chained with {@code thenComparing}: the shared lambdas of a chain are called from every
   * comparator in the process and were most of a replay's time in the simulator. A copy compared
   * with itself (as the tree does to find it) is equal at once, not after comparing block keys.
   */
  private final Comparator<BlockCopy> order = (x, y) -> {
    if (x == y) {
      return 0;
    }
    int c = compareVictims(x, y);
    if (c == 0) {
      c = Long.compare(x.lastAccessSeq, y.lastAccessSeq);
    }
    return c != 0 ? c : x.block.compareTo(y.block);
  };

  private final Map<String, Slave> slaves = new HashMap<>();
  /** The datasets accessed recently, for the write-budget mode. */
  private final AuxiliaryCache auxiliary;
  private long seq;

  BlockEvictionPolicy(PlacementIndex placement, PolicyParameters params) {
    super(placement);
    this.auxiliary = new AuxiliaryCache(params.auxiliaryCapacity(), WriteRateMeter.WINDOW_MS,
        id -> { });
  }

  /** The order victims are taken in, most evictable first (negative: {@code x} first). */
  abstract int compareVictims(BlockCopy x, BlockCopy y);

  private Slave slave(String slaveId) {
    return slaves.computeIfAbsent(slaveId, s -> new Slave());
  }

  /** Counts one access to a copy, keeping the eviction order. */
  private void touch(Slave s, BlockCopy c) {
    boolean ordered = s.evictionOrder.remove(c);
    c.accesses++;
    c.lastAccessSeq = ++seq;
    if (ordered) {
      s.evictionOrder.add(c);
    }
  }

  /** The access count of a slave's copy of a block, 0 when untracked (for tests). */
  long accessesOf(String slaveId, BlockKey block) {
    Slave s = slaves.get(slaveId);
    BlockCopy c = s == null ? null : s.copies.get(block);
    return c == null ? 0 : c.accesses;
  }

  @Override
  public void onHit(BlockAccess a) {
    auxiliary.access(a.datasetId(), a.jobId(), a.timeMillis());
    Slave s = slaves.get(a.slaveId());
    BlockCopy c = s == null ? null : s.copies.get(a.block());
    if (c != null) {
      touch(s, c);
    }
  }

  @Override
  public CacheDecision onMiss(BlockAccess a, long slaveFreeBytes) {
    if (auxiliary.access(a.datasetId(), a.jobId(), a.timeMillis()) != AuxiliaryCache.Seen.RECENTLY
        && overWriteBudget.getAsBoolean()) {
      return CacheDecision.reject(CacheDecision.Reason.REJECTED_WRITE_BUDGET);
    }
    Slave s = slave(a.slaveId());
    long need = a.blockBytes() - Math.max(0, slaveFreeBytes);
    List<BlockCopy> victims = new ArrayList<>();
    long freed = 0;
    long pinnedBytes = 0;
    for (BlockCopy c : s.evictionOrder) {
      if (freed >= need) {
        break;
      }
      if (c.block.equals(a.block())) {
        continue;
      }
      String owner = placement.datasetOf(c.block);
      if (owner != null && pinned.test(owner)) {
        pinnedBytes += c.bytes;
      } else {
        victims.add(c);
        freed += c.bytes;
      }
    }
    if (freed < need) {
      return CacheDecision.reject(freed + pinnedBytes >= need
          ? CacheDecision.Reason.REJECTED_PINNED : CacheDecision.Reason.REJECTED_TOO_LARGE);
    }
    List<BlockKey> evict = new ArrayList<>(victims.size());
    for (BlockCopy v : victims) {
      s.evictionOrder.remove(v);
      s.copies.remove(v.block);
      evict.add(v.block);
    }
    BlockCopy c = s.copies.computeIfAbsent(a.block(), k -> new BlockCopy(k, a.blockBytes()));
    boolean ordered = s.evictionOrder.remove(c);
    c.bytes = a.blockBytes();
    if (ordered) {
      s.evictionOrder.add(c);
    }
    touch(s, c);
    placement.fill(a.datasetId(), a.block(), a.blockBytes(), a.slaveId());
    return evict.isEmpty()
        ? CacheDecision.admit(CacheDecision.Reason.ADMITTED_FREE_SPACE, List.of())
        : CacheDecision.admit(CacheDecision.Reason.ADMITTED_BY_REPLACEMENT, evict);
  }

  /** A block the slave finished storing joins its eviction order. */
  @Override
  void afterStored(String slaveId, BlockKey block, String datasetId) {
    join(slaveId, block, 0);
  }

  /** An adopted block joins its slave's eviction order as a stray does, with its size. */
  @Override
  void afterAdopted(String slaveId, BlockKey block, long blockBytes, String datasetId,
      int datasetBlocks) {
    join(slaveId, block, blockBytes);
  }

  /**
   * A block the policy does not track there (its copy was dropped while filling) is adopted as if
   * just accessed, so that everything a slave holds remains evictable.
   */
  @Override
  void onStray(String slaveId, BlockKey block) {
    join(slaveId, block, 0);
  }

  /**
   * A stored block joins the slave's eviction order; an untracked one is tracked with
   * {@code bytes} (0 when unknown: evicting it is then counted as freeing nothing).
   */
  private void join(String slaveId, BlockKey block, long bytes) {
    Slave s = slave(slaveId);
    BlockCopy c = s.copies.get(block);
    if (c == null) {
      c = new BlockCopy(block, bytes);
      s.copies.put(block, c);
      touch(s, c);
    }
    if (!c.cached) {
      c.cached = true;
      s.evictionOrder.add(c);
    }
  }

  @Override
  void afterRemoved(String slaveId, BlockKey block, String datasetId) {
    Slave s = slaves.get(slaveId);
    BlockCopy c = s == null ? null : s.copies.remove(block);
    if (c != null) {
      s.evictionOrder.remove(c);
    }
  }

  @Override
  void afterSlaveLost(String slaveId, Set<String> datasets) {
    slaves.remove(slaveId);
  }

  @Override
  public List<BlockKey> pendingEvictions(String slaveId) {
    return List.of();
  }

  @Override
  public Set<String> slavesWithPendingEvictions() {
    return Set.of();
  }
}
