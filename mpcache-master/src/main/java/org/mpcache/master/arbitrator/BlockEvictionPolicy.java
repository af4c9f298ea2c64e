package org.mpcache.master.arbitrator;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
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
    final Slave slave;
    /** The block's copy on another slave, if any: the chain {@link #copies} maps the block to. */
    private BlockCopy nextOfBlock;
    long bytes;
    long accesses;
    long lastAccessSeq;
    /** Reported cached (false while the slave is still filling it). */
    boolean cached;
    /** Where it is in its slave's {@link EvictionOrder}: its rank's bucket, null when out. */
    private Bucket bucket;
    private BlockCopy prev;
    private BlockCopy next;

    BlockCopy(BlockKey block, Slave slave, long bytes) {
      this.block = block;
      this.slave = slave;
      this.bytes = bytes;
    }
  }

  /** The copies of one rank, least recently accessed first, in a list of ranks ascending. */
  private static final class Bucket {
    final long rank;
    Bucket prev;
    Bucket next;
    BlockCopy first;
    BlockCopy last;

    Bucket(long rank) {
      this.rank = rank;
    }
  }

  /**
   * A slave's cached copies, first out first: by {@link #rank} ascending, then least recently
   * accessed (stamps are unique, so this is a total order). A linked list of rank buckets, each
   * a linked list of copies, rather than a sorted tree: an access stamps the copy with the
   * newest stamp, so it goes to the end of its (new) rank's bucket, and with ranks that grow by
   * at most one step per access that bucket is the old one or its successor, which makes an
   * access O(1) (an LRU list, or LFU's frequency buckets). A copy joining with an older stamp
   * (one that was filling while others were accessed) walks to its place.
   */
  private static final class EvictionOrder implements Iterable<BlockCopy> {
    private Bucket head;

    /** Takes a copy out; returns the bucket of at most its rank to search from, or null. */
    Bucket remove(BlockCopy c) {
      Bucket b = c.bucket;
      if (c.prev == null) {
        b.first = c.next;
      } else {
        c.prev.next = c.next;
      }
      if (c.next == null) {
        b.last = c.prev;
      } else {
        c.next.prev = c.prev;
      }
      c.bucket = null;
      c.prev = null;
      c.next = null;
      if (b.first != null) {
        return b;
      }
      if (b.prev == null) {
        head = b.next;
      } else {
        b.prev.next = b.next;
      }
      if (b.next != null) {
        b.next.prev = b.prev;
      }
      return b.prev;
    }

    /** Puts a copy of {@code rank} in its place, searching from {@code from} (of no higher rank). */
    void add(BlockCopy c, long rank, Bucket from) {
      Bucket before = null;
      Bucket b = from == null ? head : from;
      while (b != null && b.rank < rank) {
        before = b;
        b = b.next;
      }
      if (b == null || b.rank != rank) {
        Bucket n = new Bucket(rank);
        n.prev = before;
        n.next = b;
        if (before == null) {
          head = n;
        } else {
          before.next = n;
        }
        if (b != null) {
          b.prev = n;
        }
        b = n;
      }
      BlockCopy after = b.last;
      while (after != null && after.lastAccessSeq > c.lastAccessSeq) {
        after = after.prev;
      }
      c.bucket = b;
      c.prev = after;
      c.next = after == null ? b.first : after.next;
      if (c.next == null) {
        b.last = c;
      } else {
        c.next.prev = c;
      }
      if (after == null) {
        b.first = c;
      } else {
        after.next = c;
      }
    }

    @Override
    public Iterator<BlockCopy> iterator() {
      return new Iterator<>() {
        private BlockCopy next = head == null ? null : head.first;

        @Override
        public boolean hasNext() {
          return next != null;
        }

        @Override
        public BlockCopy next() {
          BlockCopy c = next;
          if (c == null) {
            throw new NoSuchElementException();
          }
          next = c.next != null ? c.next : c.bucket.next == null ? null : c.bucket.next.first;
          return c;
        }
      };
    }
  }

  /** One slave: its cached copies in eviction order (first out first). */
  private static final class Slave {
    final String id;
    final EvictionOrder evictionOrder = new EvictionOrder();

    Slave(String id) {
      this.id = id;
    }
  }

  private final Map<String, Slave> slaves = new HashMap<>();
  /**
   * Every tracked copy by block, the copies of a block on several slaves chained. One map for the
   * policy, not one per slave: finding a copy reads one table rather than the slave's record and
   * then its own table, and a block tracked nowhere (nearly every miss) costs one probe. On
   * hundreds of slaves those per-slave tables were each cold at every access.
   */
  private final Map<BlockKey, BlockCopy> copies = new HashMap<>();
  /** The datasets accessed recently, for the write-budget mode. */
  private final AuxiliaryCache auxiliary;
  private long seq;

  BlockEvictionPolicy(PlacementIndex placement, PolicyParameters params) {
    super(placement);
    this.auxiliary = new AuxiliaryCache(params.auxiliaryCapacity(), WriteRateMeter.WINDOW_MS,
        id -> { });
  }

  /**
   * The class of a copy in the victim order: lower ranks go first, and within a rank the least
   * recently accessed. It may grow by at most one per access of the copy, never shrink.
   */
  abstract long rank(BlockCopy c);

  private Slave slave(String slaveId) {
    return slaves.computeIfAbsent(slaveId, Slave::new);
  }

  /** A slave's copy of a block, or null when untracked. */
  private BlockCopy copy(String slaveId, BlockKey block) {
    BlockCopy c = copies.get(block);
    while (c != null && !c.slave.id.equals(slaveId)) {
      c = c.nextOfBlock;
    }
    return c;
  }

  /** Tracks a new copy. */
  private BlockCopy track(BlockKey block, Slave s, long bytes) {
    BlockCopy c = new BlockCopy(block, s, bytes);
    c.nextOfBlock = copies.put(block, c);
    return c;
  }

  /** Stops tracking a copy (it is out of the eviction order). */
  private void untrack(BlockCopy c) {
    BlockCopy first = copies.get(c.block);
    if (first == c) {
      if (c.nextOfBlock == null) {
        copies.remove(c.block);
      } else {
        copies.put(c.block, c.nextOfBlock);
      }
    } else {
      BlockCopy before = first;
      while (before.nextOfBlock != c) {
        before = before.nextOfBlock;
      }
      before.nextOfBlock = c.nextOfBlock;
    }
    c.nextOfBlock = null;
  }

  /** Counts one access to a copy, keeping its slave's eviction order. */
  private void touch(BlockCopy c) {
    EvictionOrder order = c.slave.evictionOrder;
    boolean ordered = c.bucket != null;
    Bucket from = ordered ? order.remove(c) : null;
    c.accesses++;
    c.lastAccessSeq = ++seq;
    if (ordered) {
      order.add(c, rank(c), from);
    }
  }

  /** The access count of a slave's copy of a block, 0 when untracked (for tests). */
  long accessesOf(String slaveId, BlockKey block) {
    BlockCopy c = copy(slaveId, block);
    return c == null ? 0 : c.accesses;
  }

  @Override
  public void onHit(BlockAccess a) {
    auxiliary.access(a.datasetId(), a.jobId(), a.timeMillis());
    BlockCopy c = copy(a.slaveId(), a.block());
    if (c != null) {
      touch(c);
    }
  }

  @Override
  public CacheDecision onMiss(BlockAccess a, long slaveFreeBytes) {
    if (auxiliary.access(a.datasetId(), a.jobId(), a.timeMillis()) != AuxiliaryCache.Seen.RECENTLY
        && overWriteBudget.getAsBoolean()) {
      return CacheDecision.reject(CacheDecision.Reason.REJECTED_WRITE_BUDGET);
    }
    Slave s = slave(a.slaveId());
    // The requested block's own copy, if tracked there, is found once and passed over by
    // identity: comparing block keys would read every candidate's key.
    BlockCopy own = copy(a.slaveId(), a.block());
    long need = a.blockBytes() - Math.max(0, slaveFreeBytes);
    List<BlockCopy> victims = new ArrayList<>();
    long freed = 0;
    long pinnedBytes = 0;
    for (BlockCopy c : s.evictionOrder) {
      if (freed >= need) {
        break;
      }
      if (c == own) {
        continue;
      }
      if (pinnedBlock(c.block)) {
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
    BlockKey[] evict = new BlockKey[victims.size()];
    for (int i = 0; i < evict.length; i++) {
      BlockCopy v = victims.get(i);
      s.evictionOrder.remove(v);
      untrack(v);
      evict[i] = v.block;
    }
    if (own == null) {
      own = track(a.block(), s, a.blockBytes());
    }
    own.bytes = a.blockBytes();
    touch(own);
    placement.fill(a.datasetId(), a.block(), a.blockBytes(), a.slaveId());
    return evict.length == 0
        ? CacheDecision.admit(CacheDecision.Reason.ADMITTED_FREE_SPACE, List.of())
        : CacheDecision.admit(CacheDecision.Reason.ADMITTED_BY_REPLACEMENT, List.of(evict));
  }

  /** A block the slave finished storing joins its eviction order. */
  @Override
  void afterStored(String slaveId, BlockKey block) {
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
    BlockCopy c = copy(slaveId, block);
    if (c == null) {
      c = track(block, slave(slaveId), bytes);
      touch(c);
    }
    if (!c.cached) {
      c.cached = true;
      c.slave.evictionOrder.add(c, rank(c), null);
    }
  }

  @Override
  void afterRemoved(String slaveId, BlockKey block, String datasetId) {
    BlockCopy c = copy(slaveId, block);
    if (c == null) {
      return;
    }
    if (c.bucket != null) {
      c.slave.evictionOrder.remove(c);
    }
    untrack(c);
  }

  /** The slave's copies are dropped from every block's chain: a scan, as slaves are seldom lost. */
  @Override
  void afterSlaveLost(String slaveId, Set<String> datasets) {
    Slave lost = slaves.remove(slaveId);
    if (lost == null) {
      return;
    }
    for (Iterator<Map.Entry<BlockKey, BlockCopy>> it = copies.entrySet().iterator();
        it.hasNext(); ) {
      Map.Entry<BlockKey, BlockCopy> e = it.next();
      BlockCopy kept = null;
      for (BlockCopy c = e.getValue(), next; c != null; c = next) {
        next = c.nextOfBlock;
        if (c.slave != lost) {
          c.nextOfBlock = kept;
          kept = c;
        }
      }
      if (kept == null) {
        it.remove();
      } else {
        e.setValue(kept);
      }
    }
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
