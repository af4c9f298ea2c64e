package org.mpcache.master.arbitrator;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.mpcache.common.BlockKey;

/**
 * The shared shape of the dataset-granularity baselines ({@link GdsfPolicy}, {@link LfuFPolicy},
 * {@link LifePolicy}): every miss is admitted (no admission control); when the requesting slave
 * lacks room, the slave's pending evictions are used first, then whole datasets are evicted from
 * every slave, in the order the subclass defines, until their blocks on the requesting slave free
 * enough (as Algorithm 1 does, without its admission test). A dataset is never evicted to make room
 * for itself. A dataset access is the first request of a new job for the dataset (every request
 * when the job is unknown), as in {@link MpCachePolicy}.
 *
 * <p>Pure and deterministic; not thread-safe (the caller serializes calls).
 */
abstract class DatasetEvictionPolicy extends IndexedPolicy {

  /** What the policy knows of one dataset. */
  static final class Dataset {
    final String id;
    /** Its blocks, as the largest estimate any reader reported. */
    int size;
    /** Dataset accesses counted by the subclass's rule (reset, aged or kept). */
    long accesses;
    /** The number of dataset accesses (cluster-wide) at this dataset's last access. */
    long lastAccessSeq;
    /** Kept up to date by {@link GdsfPolicy}; unused by the others. */
    double priority;
    String lastJob;

    Dataset(String id, int size) {
      this.id = id;
      this.size = size;
    }
  }

  final Map<String, Dataset> datasets = new HashMap<>();
  /** Dataset accesses so far, cluster-wide. */
  long accessSeq;

  DatasetEvictionPolicy(PlacementIndex placement) {
    super(placement);
  }

  /** The order victims are taken in, most evictable first; ties end by dataset id. */
  abstract Comparator<Dataset> victimOrder();

  /** A new dataset access was counted (after {@code accesses} and the stamps were updated). */
  void afterAccess(Dataset d) {
  }

  /** A dataset was requested and, when admitted, after any evictions it caused. */
  void afterRequest(Dataset d) {
  }

  /** A dataset is about to be evicted as a victim. */
  void beforeEvict(Dataset d) {
  }

  /** Whether a dataset with no cached blocks is still worth remembering (its history counts). */
  boolean remembers(Dataset d) {
    return false;
  }

  /** Whether every block of a dataset is cached on some slave. */
  final boolean complete(Dataset d) {
    return placement.cachedBlocks(d.id) >= d.size;
  }

  /** Forgets a dataset that holds no blocks and is not worth remembering. */
  final void forgetIfIdle(String datasetId) {
    Dataset d = datasets.get(datasetId);
    if (d != null && !placement.holds(datasetId) && !remembers(d)) {
      datasets.remove(datasetId);
    }
  }

  /**
   * Forgets every dataset that holds no blocks and is not worth remembering, except {@code current},
   * the dataset whose request is being handled: it may be about to get its first block, and a
   * dataset with blocks must stay tracked for as long as it has them.
   */
  final void forgetIdle(Dataset current) {
    Iterator<Dataset> it = datasets.values().iterator();
    while (it.hasNext()) {
      Dataset d = it.next();
      if (d != current && !placement.holds(d.id) && !remembers(d)) {
        it.remove();
      }
    }
  }

  /** Whether the policy tracks a dataset (for tests). */
  boolean tracks(String datasetId) {
    return datasets.containsKey(datasetId);
  }

  /** The access count of a dataset, 0 when unknown (for tests). */
  long accessesOf(String datasetId) {
    Dataset d = datasets.get(datasetId);
    return d == null ? 0 : d.accesses;
  }

  private Dataset dataset(String id, int size) {
    Dataset d = datasets.computeIfAbsent(id, k -> new Dataset(k, size));
    d.size = Math.max(d.size, size);
    return d;
  }

  private void noteAccess(Dataset d, BlockAccess a) {
    if (!a.jobId().isEmpty() && a.jobId().equals(d.lastJob)) {
      return;
    }
    accessSeq++;
    d.accesses++;
    d.lastAccessSeq = accessSeq;
    d.lastJob = a.jobId();
    afterAccess(d);
  }

  @Override
  public void onHit(BlockAccess a) {
    String id = placement.datasetOf(a.block());
    if (id == null) {
      return;
    }
    Dataset d = dataset(id, id.equals(a.datasetId()) ? a.datasetBlocks() : 1);
    noteAccess(d, a);
    afterRequest(d);
  }

  @Override
  public CacheDecision onMiss(BlockAccess a, long slaveFreeBytes) {
    Dataset d = dataset(a.datasetId(), a.datasetBlocks());
    noteAccess(d, a);
    String slave = a.slaveId();
    long need = a.blockBytes() - Math.max(0, slaveFreeBytes);
    if (need <= 0) {
      placement.fill(d.id, a.block(), a.blockBytes(), slave);
      afterRequest(d);
      return CacheDecision.admit(CacheDecision.Reason.ADMITTED_FREE_SPACE, List.of());
    }
    long pending = placement.pendingBytes(slave);
    if (pending < need) {
      List<Dataset> victims = chooseVictims(slave, need - pending, d);
      if (victims == null) {
        afterRequest(d);
        forgetIfIdle(d.id);
        return CacheDecision.reject(CacheDecision.Reason.REJECTED_TOO_LARGE);
      }
      for (Dataset v : victims) {
        beforeEvict(v);
        placement.evict(v.id);
        forgetIfIdle(v.id);
      }
    }
    List<BlockKey> evictHere = placement.takePending(slave);
    placement.fill(d.id, a.block(), a.blockBytes(), slave);
    afterRequest(d);
    return CacheDecision.admit(CacheDecision.Reason.ADMITTED_BY_REPLACEMENT, evictHere);
  }

  /**
   * The first datasets in victim order (not {@code keep}) whose blocks cached on {@code slave} free
   * at least {@code bytes} there; null when all of them would not.
   */
  private List<Dataset> chooseVictims(String slave, long bytes, Dataset keep) {
    List<Dataset> candidates = new ArrayList<>();
    for (Dataset v : datasets.values()) {
      if (v != keep && placement.holds(v.id)) {
        candidates.add(v);
      }
    }
    candidates.sort(victimOrder().thenComparing(v -> v.id));
    return PlacementIndex.covering(candidates, keep, bytes, v -> placement.bytesOn(v.id, slave));
  }

  /** The adopted block's dataset is recorded with its size; no access is counted. */
  @Override
  void afterAdopted(String slaveId, BlockKey block, String datasetId, int datasetBlocks) {
    dataset(datasetId, datasetBlocks);
  }

  @Override
  void afterRemoved(String slaveId, BlockKey block, String datasetId) {
    if (datasetId != null) {
      forgetIfIdle(datasetId);
    }
  }

  @Override
  void afterSlaveLost(String slaveId, Set<String> lost) {
    lost.forEach(this::forgetIfIdle);
  }

  @Override
  public List<BlockKey> pendingEvictions(String slaveId) {
    return placement.takePending(slaveId);
  }
}
