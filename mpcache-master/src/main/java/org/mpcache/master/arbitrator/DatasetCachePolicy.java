package org.mpcache.master.arbitrator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeSet;
import org.mpcache.common.BlockKey;

/**
 * The skeleton of Algorithm 1 (mpCache paper, Section 2.2) shared by every policy that caches and
 * evicts whole datasets: mpCache itself, GDSF, PACMan's LIFE and LFU-F, and the simulator's
 * clairvoyant bound. It keeps the main cache (datasets in a priority queue ordered by tier, then
 * rank, then age), the cluster-wide index of cached blocks, the To_Del list and the auxiliary cache
 * of dataset identities; subclasses say how a dataset is ranked and whether a dataset that needs
 * room is worth it.
 *
 * <p>Design notes, with Algorithm 1's line numbers:
 * <ul>
 *   <li>A hit (lines 1-5) counts the block access and re-ranks the dataset; the clock is untouched.
 *   <li>A miss with room on the slave (lines 7-8) is admitted without further checks. Bytes of the
 *       slave's To_Del entries count as room (lines 12-13): they belong to datasets already evicted.
 *   <li>Otherwise victims are chosen lowest-first (lines 15-22), but only among datasets holding
 *       bytes on the requesting slave: a dataset with nothing there frees nothing for the request.
 *       In the paper's seven-node cluster every dataset spans every node, so this is the literal
 *       rule there; on a large cluster the literal rule would evict datasets uselessly. A victim is
 *       evicted from every slave: the requester's blocks come back in the decision, the others go
 *       to To_Del. The dataset being served is never its own victim.
 *   <li>Admission is a dataset decision, taken once per dataset access: the first block a new
 *       access misses of a dataset not yet in the main cache goes through
 *       {@link #refuseAdmission}, and the verdict holds for the access's further blocks. It may
 *       weigh the whole dataset against the
 *       cluster's room ({@link #reclaimableBytes}) and the datasets it would displace
 *       ({@link #lowestCovering}). Once a block is admitted the dataset is in the main cache, and
 *       its further blocks are admitted whenever victims exist ({@code ADMITTED_DATASET_CACHED}),
 *       because a partly cached input speeds up no job and the dataset already paid its
 *       admission.
 *   <li>Admitted blocks count as cached from the moment they are admitted (the slave reserves the
 *       space first); a fill that fails comes back through {@link #onRemoved}.
 * </ul>
 * Each event costs O(log d) for d cached datasets, plus the blocks an eviction removes and the
 * datasets skipped while looking for victims on the requesting slave.
 *
 * <p>Not thread-safe: the caller serializes every call, as {@link CachePolicy} requires.
 */
public abstract class DatasetCachePolicy implements CachePolicy {
  private final String name;
  private final SlaveRegistry slaves = new SlaveRegistry();
  private final CachedBlockIndex index = new CachedBlockIndex();
  private final PendingEvictions toDel = new PendingEvictions();
  private final AuxiliaryCache auxiliary;
  private final Map<String, DatasetEntry> datasets = new HashMap<>();
  private final TreeSet<DatasetEntry> queue = new TreeSet<>(DatasetCachePolicy::compare);
  private long[] lastFree = new long[16];
  private long knownFree;
  private long datasetAccesses;
  private long entries;

  protected DatasetCachePolicy(String name, PolicyParameters parameters) {
    this.name = name;
    this.auxiliary = new AuxiliaryCache(parameters.auxiliaryCacheDatasets());
  }

  /** The dataset's priority within its tier; the lowest is evicted first. */
  protected abstract double rank(DatasetEntry dataset);

  /** The dataset's tier: every dataset of a lower tier is evicted before any of a higher one. */
  protected int tier(DatasetEntry dataset) {
    return 0;
  }

  /** Called once per dataset access (a new job reading the dataset), after its stamp moved. */
  protected void onDatasetAccess(AccessStamp stamp, BlockAccess access) {
  }

  /** Called for each victim, lowest first, just before it leaves the main cache. */
  protected void onEvicted(DatasetEntry victim) {
  }

  /**
   * Whether a block of a dataset not in the main cache may be cached: null to admit, or the reason
   * to refuse. Admits by default.
   *
   * @param stamp the incoming dataset's stamp, already updated for the current access
   */
  protected CacheDecision.Reason refuseAdmission(BlockAccess access, AccessStamp stamp) {
    return null;
  }

  /**
   * An estimate of the bytes the cluster could take without evicting anything more: the free
   * bytes each slave last reported, adjusted by every plan since, plus the To_Del bytes. Slaves
   * that never asked count 0, so the estimate errs low.
   */
  protected final long reclaimableBytes() {
    return knownFree + toDel.totalBytes();
  }

  /**
   * The lowest-ranked datasets, in eviction order, whose cached bytes over all slaves first reach
   * {@code bytes}; all datasets if together they hold less.
   */
  protected final List<DatasetEntry> lowestCovering(long bytes) {
    List<DatasetEntry> victims = new ArrayList<>();
    long covered = 0;
    for (Iterator<DatasetEntry> it = queue.iterator(); it.hasNext() && covered < bytes; ) {
      DatasetEntry v = it.next();
      victims.add(v);
      covered += v.cachedBytes();
    }
    return victims;
  }

  /** The dataset-access counter: how many dataset accesses the policy has seen. */
  protected final long datasetAccesses() {
    return datasetAccesses;
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public void onHit(BlockAccess access) {
    DatasetEntry d = datasets.get(access.datasetId());
    recordAccess(access, d);
    if (d != null) {
      d.size(access.datasetBlocks());
      d.countBlockAccess();
      reposition(d);
    }
  }

  @Override
  public CacheDecision onMiss(BlockAccess access, long slaveFreeBytes) {
    int slave = slaves.indexOf(access.slaveId());
    setFree(slave, slaveFreeBytes);
    DatasetEntry d = datasets.get(access.datasetId());
    AccessStamp stamp = recordAccess(access, d);
    boolean wasCached = d != null;
    if (wasCached && index.find(slave, access.block()) != null) {
      // A repeated request for a block already admitted here: nothing to evict or reserve.
      d.countBlockAccess();
      reposition(d);
      return CacheDecision.admit(CacheDecision.Reason.ADMITTED_DATASET_CACHED, List.of());
    }
    if (!wasCached) {
      if (!stamp.hasVerdict()) {
        stamp.verdict(refuseAdmission(access, stamp));
      }
      CacheDecision.Reason refusal = stamp.verdict();
      if (refusal != null) {
        return CacheDecision.reject(refusal);
      }
    }
    long need = access.blockBytes();
    if (slaveFreeBytes >= need) {
      cache(access, slave, d, stamp);
      return CacheDecision.admit(CacheDecision.Reason.ADMITTED_FREE_SPACE, List.of());
    }
    long room = slaveFreeBytes + toDel.bytes(slave);
    List<DatasetEntry> victims = List.of();
    if (room < need) {
      victims = chooseVictims(slave, d, need - room);
      if (victims == null) {
        return CacheDecision.reject(CacheDecision.Reason.REJECTED_TOO_LARGE);
      }
    }
    List<BlockKey> evict = new ArrayList<>(takePending(slave));
    for (DatasetEntry victim : victims) {
      evict(victim, slave, evict);
    }
    cache(access, slave, d, stamp);
    return CacheDecision.admit(wasCached ? CacheDecision.Reason.ADMITTED_DATASET_CACHED
        : CacheDecision.Reason.ADMITTED_BY_REPLACEMENT, evict);
  }

  @Override
  public void onCached(String slaveId, BlockKey block) {
    int slave = slaves.indexOf(slaveId);
    if (index.find(slave, block) == null) {
      // Stored after its dataset was evicted or the block removed: the slave must drop it again.
      toDel.add(slave, block, 0);
    }
  }

  @Override
  public void onRemoved(String slaveId, BlockKey block) {
    int slave = slaves.find(slaveId);
    if (slave < 0) {
      return;
    }
    addFree(slave, toDel.remove(slave, block));
    CachedBlock b = index.find(slave, block);
    if (b != null) {
      addFree(slave, b.bytes);
      forget(b);
    }
  }

  @Override
  public void onSlaveLost(String slaveId) {
    int slave = slaves.find(slaveId);
    if (slave < 0) {
      return;
    }
    toDel.take(slave);
    setFree(slave, 0);
    index.forEachOnSlave(slave, this::forget);
  }

  @Override
  public List<BlockKey> pendingEvictions(String slaveId) {
    int slave = slaves.find(slaveId);
    return slave < 0 ? List.of() : takePending(slave);
  }

  /** The dataset's current priority, or empty when it is not in the main cache. */
  public OptionalDouble priorityOf(String datasetId) {
    DatasetEntry d = datasets.get(datasetId);
    return d == null ? OptionalDouble.empty() : OptionalDouble.of(d.rank);
  }

  /** Whether the dataset is in the main cache (at least one block admitted and not evicted). */
  public boolean isCached(String datasetId) {
    return datasets.containsKey(datasetId);
  }

  /** How many (slave, block) pairs the master counts as cached. */
  public int cachedBlocks() {
    return index.size();
  }

  private AccessStamp recordAccess(BlockAccess access, DatasetEntry d) {
    AccessStamp stamp = d != null ? d.stamp() : auxiliary.get(access.datasetId());
    if (stamp == null || stamp.isNewAccess(access.jobId())) {
      if (stamp == null) {
        stamp = new AccessStamp();
      }
      stamp.record(access.jobId(), ++datasetAccesses, access.timeMillis());
      auxiliary.touch(access.datasetId(), stamp);
      onDatasetAccess(stamp, access);
    }
    return stamp;
  }

  /** Lowest-ranked datasets other than {@code self} that free {@code deficit} bytes, or null. */
  private List<DatasetEntry> chooseVictims(int slave, DatasetEntry self, long deficit) {
    List<DatasetEntry> victims = new ArrayList<>(2);
    long freed = 0;
    for (Iterator<DatasetEntry> it = queue.iterator(); it.hasNext(); ) {
      DatasetEntry v = it.next();
      long bytes = v == self ? 0 : v.bytesPerSlave.get(slave);
      if (bytes > 0) {
        victims.add(v);
        freed += bytes;
        if (freed >= deficit) {
          return victims;
        }
      }
    }
    return null;
  }

  /** Evicts a whole dataset: requester's blocks into {@code evict}, other slaves' into To_Del. */
  private void evict(DatasetEntry victim, int slave, List<BlockKey> evict) {
    onEvicted(victim);
    queue.remove(victim);
    datasets.remove(victim.id());
    for (CachedBlock b = victim.firstBlock; b != null; ) {
      CachedBlock next = b.nextInDataset;
      if (b.slave == slave) {
        evict.add(b.key());
        addFree(slave, b.bytes);
      } else {
        toDel.add(b.slave, b.key(), b.bytes);
      }
      index.remove(b);
      b = next;
    }
  }

  /** Lines 25-31: records the admitted block, counts the access, re-ranks (Full may change). */
  private void cache(BlockAccess access, int slave, DatasetEntry d, AccessStamp stamp) {
    if (d == null) {
      d = new DatasetEntry(access.datasetId(), entries++, access.datasetBlocks(), stamp);
      datasets.put(d.id(), d);
    } else {
      d.size(access.datasetBlocks());
    }
    index.add(slave, access.block(), access.blockBytes(), d);
    addFree(slave, -access.blockBytes());
    d.countBlockAccess();
    reposition(d);
  }

  /** The slave's pending evictions, whose bytes it will have free once it carries them out. */
  private List<BlockKey> takePending(int slave) {
    addFree(slave, toDel.bytes(slave));
    return toDel.take(slave);
  }

  private void setFree(int slave, long bytes) {
    if (slave >= lastFree.length) {
      lastFree = Arrays.copyOf(lastFree, Math.max(slave + 1, lastFree.length * 2));
    }
    knownFree += bytes - lastFree[slave];
    lastFree[slave] = bytes;
  }

  private void addFree(int slave, long delta) {
    setFree(slave, (slave < lastFree.length ? lastFree[slave] : 0) + delta);
  }

  private void forget(CachedBlock b) {
    DatasetEntry d = b.dataset;
    index.remove(b);
    if (d.firstBlock == null) {
      queue.remove(d);
      datasets.remove(d.id());
    } else {
      reposition(d);
    }
  }

  /** Re-sorts a dataset after its counters changed; the queue orders by the stored tier/rank. */
  private void reposition(DatasetEntry d) {
    queue.remove(d);
    d.tier = tier(d);
    d.rank = rank(d);
    queue.add(d);
  }

  private static int compare(DatasetEntry a, DatasetEntry b) {
    if (a.tier != b.tier) {
      return Integer.compare(a.tier, b.tier);
    }
    int c = Double.compare(a.rank, b.rank);
    return c != 0 ? c : Long.compare(a.sequence(), b.sequence());
  }
}
