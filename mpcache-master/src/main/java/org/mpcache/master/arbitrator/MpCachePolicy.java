package org.mpcache.master.arbitrator;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.mpcache.common.BlockKey;

/**
 * mpCache's cache policy (paper Section 2.2): admission control with an auxiliary cache of dataset
 * identities, and replacement by a priority queue of datasets with
 * {@code Pr = Full + Clock + Fr/Size}, evicting whole datasets from every slave (Algorithm 1).
 *
 * <p>Choices where the paper is silent (docs/policy.md gives the reasons):
 * <ul>
 *   <li>A dataset access is the first request of a new job for the dataset (every request when
 *       the job is unknown); Delta counts dataset accesses cluster-wide.</li>
 *   <li>Every accessed dataset is remembered in the auxiliary cache (LRU); whether it "occurs" there
 *       is judged as of the start of its current access, so a job's own first block does not
 *       admit the rest.</li>
 *   <li>A dataset with blocks already in the main cache is admitted without the profitability
 *       test (completing a dataset is what all-or-nothing rewards); it still needs victims.</li>
 *   <li>Victims are chosen, and the test made, before anything is evicted: a request that cannot
 *       be satisfied evicts nothing. A dataset is never evicted to make room for itself.</li>
 *   <li>Pending To_Del blocks of the requesting slave are used first (Algorithm 1 line 12-13); if
 *       they do not free enough, further victims are chosen.</li>
 *   <li>A block reported cached for a dataset evicted meanwhile is queued for eviction.</li>
 * </ul>
 *
 * <p>Pure and deterministic; not thread-safe (the caller serializes calls).
 */
final class MpCachePolicy implements CachePolicy {

  /** One block the policy tracks: its dataset, size, and where it is cached or filling. */
  private static final class BlockState {
    final DatasetState dataset;
    final long bytes;
    final Set<String> cachedOn = new HashSet<>(2);
    final Set<String> fillingOn = new HashSet<>(2);

    BlockState(DatasetState dataset, long bytes) {
      this.dataset = dataset;
      this.bytes = bytes;
    }
  }

  private final PolicyParameters params;
  private final Map<String, DatasetState> datasets = new HashMap<>();
  private final Map<BlockKey, BlockState> blocks = new HashMap<>();
  private final TreeSet<DatasetState> queue = new TreeSet<>(DatasetState.BY_PRIORITY);
  /** The auxiliary cache: dataset ids in LRU order (eldest first). */
  private final LinkedHashMap<String, Boolean> auxiliary = new LinkedHashMap<>(16, 0.75f, true);
  /** To_Del: per slave, blocks of evicted datasets it has not been told to drop, with sizes. */
  private final Map<String, LinkedHashMap<BlockKey, Long>> toDel = new HashMap<>();
  private double clock;
  private long accessSeq;

  MpCachePolicy(PolicyParameters params) {
    this.params = params;
  }

  @Override
  public String name() {
    return CachePolicies.MPCACHE;
  }

  /** The running Clock (for tests and reports). */
  double clock() {
    return clock;
  }

  /** The priority of a dataset in the main cache, or NaN when it is not there. */
  double priorityOf(String datasetId) {
    DatasetState d = datasets.get(datasetId);
    return d != null && queue.contains(d) ? d.priority : Double.NaN;
  }

  /** Whether a dataset's blocks are all cached (its Full bonus applies). */
  boolean isFull(String datasetId) {
    DatasetState d = datasets.get(datasetId);
    return d != null && d.full;
  }

  /** Whether the auxiliary cache remembers a dataset. */
  boolean inAuxiliaryCache(String datasetId) {
    return auxiliary.containsKey(datasetId);
  }

  private DatasetState dataset(BlockAccess a) {
    DatasetState d = datasets.computeIfAbsent(a.datasetId(),
        id -> new DatasetState(id, a.datasetBlocks()));
    if (a.datasetBlocks() > d.size) {
      reprioritize(d, () -> d.size = a.datasetBlocks(), false);
    }
    return d;
  }

  /** Counts a dataset access when this request starts one, and stamps it. */
  private void noteAccess(DatasetState d, BlockAccess a) {
    boolean newAccess = a.jobId().isEmpty() || !a.jobId().equals(d.lastJob);
    if (!newAccess) {
      return;
    }
    accessSeq++;
    d.delta = d.lastAccessSeq == 0 ? accessSeq : accessSeq - d.lastAccessSeq;
    d.lastAccessSeq = accessSeq;
    d.lastAccessTime = a.timeMillis();
    d.lastJob = a.jobId();
    d.wasInAuxiliary = auxiliary.containsKey(d.id);
    auxiliary.put(d.id, Boolean.TRUE);
    if (auxiliary.size() > params.auxiliaryCapacity()) {
      Iterator<String> eldest = auxiliary.keySet().iterator();
      String gone = eldest.next();
      eldest.remove();
      DatasetState g = datasets.get(gone);
      if (g != null && g.blocks.isEmpty()) {
        datasets.remove(gone);
      }
    }
  }

  /**
   * Changes a dataset and recomputes its priority, keeping the queue ordered.
   *
   * @param newClockBase whether the priority takes the current Clock (an access) or keeps the
   *     Clock of its last access (a change of size or of the Full flag)
   */
  private void reprioritize(DatasetState d, Runnable change, boolean newClockBase) {
    boolean queued = queue.remove(d);
    change.run();
    if (newClockBase) {
      d.clockBase = clock;
    }
    d.full = !d.blocks.isEmpty() && d.cachedBlocks >= d.size;
    d.priority = d.computePriority(params.fullBonus());
    if (queued || !d.blocks.isEmpty()) {
      queue.add(d);
    }
  }

  @Override
  public void onHit(BlockAccess a) {
    BlockState b = blocks.get(a.block());
    if (b == null) {
      return;
    }
    DatasetState d = b.dataset;
    noteAccess(d, a);
    reprioritize(d, () -> d.blocksAccess++, true);
  }

  @Override
  public CacheDecision onMiss(BlockAccess a, long slaveFreeBytes) {
    return onMiss(a, slaveFreeBytes, false);
  }

  @Override
  public CacheDecision onMiss(BlockAccess a, long slaveFreeBytes, boolean force) {
    DatasetState d = dataset(a);
    noteAccess(d, a);
    String slave = a.slaveId();
    long need = a.blockBytes() - Math.max(0, slaveFreeBytes);
    if (need <= 0) {
      admit(d, a);
      return CacheDecision.admit(CacheDecision.Reason.ADMITTED_FREE_SPACE, List.of());
    }
    boolean inMain = queue.contains(d);
    boolean forced = force && !inMain;
    if (!inMain && !d.wasInAuxiliary && !forced) {
      return CacheDecision.reject(CacheDecision.Reason.REJECTED_NOT_IN_AUXILIARY_CACHE);
    }
    CacheDecision.Reason reason = inMain ? CacheDecision.Reason.ADMITTED_DATASET_CACHED
        : forced ? CacheDecision.Reason.ADMITTED_BY_FORCE
        : CacheDecision.Reason.ADMITTED_BY_REPLACEMENT;
    long pending = 0;
    for (long bytes : toDel.getOrDefault(slave, new LinkedHashMap<>()).values()) {
      pending += bytes;
    }
    if (pending < need) {
      List<DatasetState> victims = chooseVictims(slave, need - pending, d);
      if (victims == null) {
        return CacheDecision.reject(CacheDecision.Reason.REJECTED_TOO_LARGE);
      }
      if (!inMain && !forced && !profitable(d, victims)) {
        return CacheDecision.reject(CacheDecision.Reason.REJECTED_NOT_PROFITABLE);
      }
      for (DatasetState v : victims) {
        evict(v);
      }
    }
    List<BlockKey> evictHere = pendingEvictions(slave);
    admit(d, a);
    return CacheDecision.admit(reason, evictHere);
  }

  /**
   * The lowest-priority datasets (not {@code keep}) whose blocks cached on {@code slave} free at
   * least {@code bytes} there; null when all of them would not.
   */
  private List<DatasetState> chooseVictims(String slave, long bytes, DatasetState keep) {
    List<DatasetState> victims = new ArrayList<>();
    long freed = 0;
    for (DatasetState v : queue) {
      if (freed >= bytes) {
        break;
      }
      if (v == keep) {
        continue;
      }
      long here = 0;
      for (BlockKey k : v.blocks) {
        BlockState b = blocks.get(k);
        if (b.cachedOn.contains(slave)) {
          here += b.bytes;
        }
      }
      if (here > 0) {
        victims.add(v);
        freed += here;
      }
    }
    return freed >= bytes ? victims : null;
  }

  /**
   * The admission test: the newcomer's 1/(Size*Delta), Delta being the dataset accesses since its
   * previous access, beats the sum over the victims, whose Delta is the accesses since their last
   * access up to now.
   */
  private boolean profitable(DatasetState d, List<DatasetState> victims) {
    double lost = 0;
    for (DatasetState v : victims) {
      lost += 1.0 / ((double) v.size * Math.max(1, accessSeq - v.lastAccessSeq));
    }
    return 1.0 / ((double) d.size * d.delta) > lost;
  }

  /** Algorithm 1 lines 15-21: raise the Clock, queue every block for deletion on its slaves. */
  private void evict(DatasetState v) {
    queue.remove(v);
    clock = v.priority;
    for (BlockKey k : v.blocks) {
      BlockState b = blocks.remove(k);
      for (String s : b.cachedOn) {
        toDel.computeIfAbsent(s, x -> new LinkedHashMap<>()).put(k, b.bytes);
      }
    }
    v.blocks.clear();
    v.cachedBlocks = 0;
    v.blocksAccess = 0;
    v.full = false;
    if (!auxiliary.containsKey(v.id)) {
      datasets.remove(v.id);
    }
  }

  /** Lines 8 and 25-31: the block joins its dataset, Blocks_Access grows, Pr is recomputed. */
  private void admit(DatasetState d, BlockAccess a) {
    reprioritize(d, () -> {
      BlockState b = blocks.computeIfAbsent(a.block(), k -> new BlockState(d, a.blockBytes()));
      b.fillingOn.add(a.slaveId());
      d.blocks.add(a.block());
      d.blocksAccess++;
    }, true);
  }

  @Override
  public void onCached(String slaveId, BlockKey block) {
    BlockState b = blocks.get(block);
    if (b == null || !b.fillingOn.remove(slaveId)) {
      if (b == null || !b.cachedOn.contains(slaveId)) {
        toDel.computeIfAbsent(slaveId, x -> new LinkedHashMap<>()).put(block, 0L);
      }
      return;
    }
    DatasetState d = b.dataset;
    reprioritize(d, () -> {
      if (b.cachedOn.isEmpty()) {
        d.cachedBlocks++;
      }
      b.cachedOn.add(slaveId);
    }, false);
  }

  @Override
  public void onRemoved(String slaveId, BlockKey block) {
    LinkedHashMap<BlockKey, Long> pending = toDel.get(slaveId);
    if (pending != null) {
      pending.remove(block);
    }
    BlockState b = blocks.get(block);
    if (b == null || !b.cachedOn.contains(slaveId) && !b.fillingOn.contains(slaveId)) {
      return;
    }
    DatasetState d = b.dataset;
    reprioritize(d, () -> {
      b.fillingOn.remove(slaveId);
      if (b.cachedOn.remove(slaveId) && b.cachedOn.isEmpty()) {
        d.cachedBlocks--;
      }
      if (b.cachedOn.isEmpty() && b.fillingOn.isEmpty()) {
        blocks.remove(block);
        d.blocks.remove(block);
      }
    }, false);
    if (d.blocks.isEmpty()) {
      queue.remove(d);
      d.blocksAccess = 0;
    }
  }

  @Override
  public void onSlaveLost(String slaveId) {
    toDel.remove(slaveId);
    List<BlockKey> held = new ArrayList<>();
    for (Map.Entry<BlockKey, BlockState> e : blocks.entrySet()) {
      if (e.getValue().cachedOn.contains(slaveId) || e.getValue().fillingOn.contains(slaveId)) {
        held.add(e.getKey());
      }
    }
    for (BlockKey k : held) {
      onRemoved(slaveId, k);
    }
  }

  @Override
  public DatasetStanding standing(String datasetId) {
    DatasetState d = datasets.get(datasetId);
    if (d == null) {
      return null;
    }
    return new DatasetStanding(queue.contains(d) ? d.priority : Double.NaN, d.frequency(),
        d.full, auxiliary.containsKey(datasetId));
  }

  @Override
  public List<BlockKey> pendingEvictions(String slaveId) {
    LinkedHashMap<BlockKey, Long> pending = toDel.remove(slaveId);
    return pending == null ? List.of() : new ArrayList<>(pending.keySet());
  }
}
