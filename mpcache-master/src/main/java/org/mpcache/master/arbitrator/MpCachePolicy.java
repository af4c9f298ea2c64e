package org.mpcache.master.arbitrator;

import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.MasterStateProtos.PolicyStateProto;

/**
 * mpCache's cache policy (paper Section 2.2): admission control with an auxiliary cache of dataset
 * identities, and replacement by a priority queue of datasets with
 * {@code Pr = Full + Clock + Fr/Size}, evicting whole datasets from every slave (Algorithm 1). It is
 * the variation of {@link DatasetEvictionPolicy}, where Algorithm 1 is written, that supplies the
 * admission test and the Pr order, and keeps the Clock and the auxiliary cache.
 *
 * <p>Choices where the paper is silent (docs/policy.md gives the reasons):
 * <ul>
 *   <li>A dataset's {@code Size} is the blocks its jobs read, not its whole input path
 *       ({@link DatasetRecord#sizeFromReads}): admission, Full and {@code Fr/Size} weigh what a
 *       job needs whole.</li>
 *   <li>A dataset access is the first request of a new job for the dataset (every request when
 *       the job is unknown).</li>
 *   <li>Admission is decided once per dataset access, at its first missed block, for the whole
 *       dataset: admitted when the cache's room (the free bytes slaves last reported, less what
 *       was admitted since, plus every To_Del list) holds all its missing blocks; otherwise only
 *       if it was in the auxiliary cache and its accesses per block, {@code accesses/Size},
 *       beat the {@code Fr/Size} of the lowest-priority datasets that hold the bytes the room
 *       lacks, averaged over those bytes. (The paper's test, {@code 1/(Size*Delta)}
 *       against the victims' sum, does not grow however often a dataset is read, so a large
 *       dataset never got into a full cache.) A dataset entering the main cache starts with the
 *       accesses the auxiliary cache remembered, counted as whole reads.</li>
 *   <li>Every accessed dataset is remembered in the auxiliary cache (LRU); whether it "occurs" there
 *       is judged as of the start of its current access, so a job's own first block does not
 *       admit the rest.</li>
 *   <li>A dataset with blocks already in the main cache skips admission control (completing a
 *       dataset is what all-or-nothing rewards); it still needs victims.</li>
 *   <li>Replacement victims are the lowest-priority datasets holding blocks on the requesting
 *       slave, chosen before anything is evicted: a request that cannot be satisfied evicts
 *       nothing. A dataset is never evicted to make room for itself.</li>
 *   <li>Pending To_Del blocks of the requesting slave are used first (Algorithm 1 line 12-13); if
 *       they do not free enough, further victims are chosen.</li>
 *   <li>A block reported cached for a dataset evicted meanwhile is queued for eviction.</li>
 *   <li>While the cluster is over its SSD write budget ({@link #setOverWriteBudget}), a dataset
 *       outside the main cache is admitted only when the auxiliary cache saw an access of it
 *       begin within the hour before this one ({@code REJECTED_WRITE_BUDGET} otherwise).</li>
 *   <li>An operator's size exponent {@code b} ({@link PolicyParameters#sizeExponent}, default 1)
 *       replaces every {@code Fr/Size} above and in the priority by {@code Fr/Size^b}, so that a
 *       large, often-read dataset is valued closer to the bytes it serves.</li>
 * </ul>
 *
 * <p>Pure and deterministic; not thread-safe (the caller serializes calls).
 */
final class MpCachePolicy extends DatasetEvictionPolicy {

  private final PolicyParameters params;
  private final TreeSet<DatasetRecord> queue = new TreeSet<>(DatasetRecord.BY_PRIORITY);
  /** The auxiliary cache; a dataset it forgets is forgotten unless it holds blocks. */
  private final AuxiliaryCache auxiliary;
  /** Each slave's free Input Cache bytes as last reported, less what was admitted since. */
  private final Map<String, long[]> freeBySlave = new HashMap<>();
  /** The slave whose free bytes were looked up last, and its entry: a miss sets them twice. */
  private String lastFreeSlave;
  private long[] lastFree;
  /** The sum of {@code freeBySlave}. */
  private long reportedFree;
  private double clock;

  MpCachePolicy(PolicyParameters params, PlacementIndex placement) {
    super(placement);
    this.params = params;
    this.auxiliary = new AuxiliaryCache(params.auxiliaryCapacity(), WriteRateMeter.WINDOW_MS,
        this::forgetIfIdle);
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
    DatasetRecord d = datasets.tracked(datasetId);
    return d != null && d.queued ? d.priority : Double.NaN;
  }

  /** Whether a dataset's blocks are all cached (its Full bonus applies). */
  boolean isFull(String datasetId) {
    DatasetRecord d = datasets.tracked(datasetId);
    return d != null && d.full;
  }

  /** Whether the auxiliary cache remembers a dataset. */
  boolean inAuxiliaryCache(String datasetId) {
    return auxiliary.contains(datasetId);
  }

  @Override
  void sizeChanged(DatasetRecord d) {
    reprioritize(d, false);
  }

  /**
   * The access is remembered in the auxiliary cache; whether the dataset was there is judged as of
   * the start of the access. A dataset the auxiliary cache forgets is forgotten unless it holds
   * blocks.
   */
  @Override
  void afterAccess(DatasetRecord d, BlockAccess a) {
    AuxiliaryCache.Seen seen = auxiliary.access(d.id, d.countedJob, a.timeMillis());
    d.wasInAuxiliary = seen != AuxiliaryCache.Seen.NEW;
    d.seenRecently = seen == AuxiliaryCache.Seen.RECENTLY;
  }

  @Override
  boolean remembers(DatasetRecord d) {
    return auxiliary.contains(d.id);
  }

  @Override
  Comparator<DatasetRecord> victimOrder() {
    return DatasetRecord.BY_PRIORITY;
  }

  /** The main cache's queue: the datasets holding blocks, lowest priority first. */
  @Override
  Iterable<DatasetRecord> victimCandidates(DatasetRecord keep, String slave) {
    return queue;
  }

  /**
   * Recomputes a dataset's priority after a change to its terms, keeping the queue ordered (the
   * queue's key, {@code priority}, changes only here, while the dataset is out of the queue).
   *
   * @param newClockBase whether the priority takes the current Clock (an access) or keeps the
   *     Clock of its last access (a change of size or of the Full flag)
   */
  private void reprioritize(DatasetRecord d, boolean newClockBase) {
    boolean holds = placement.holds(d);
    boolean full = holds && placement.cachedBlocks(d) >= d.size;
    // Most blocks stored do not complete their dataset: with its terms unchanged, a queued
    // dataset keeps its place, and the queue need not be searched twice.
    if (!newClockBase && d.queued && holds && full == d.full
        && Double.compare(d.computePriority(params), d.priority) == 0) {
      return;
    }
    // The queue's order reads only the priority (and the id): the other terms may change first.
    if (newClockBase) {
      d.clockBase = clock;
    }
    d.full = full;
    double priority = d.computePriority(params);
    // An access raises the priority, as a rule not past the next dataset in the queue (the
    // dataset accessed last is near the end): then its place stays right and its key changes in
    // place, one descent of the tree rather than a removal and an insertion, each a descent and
    // a rebalancing through records out of the processor's caches.
    if (d.queued && Double.compare(priority, d.priority) >= 0) {
      DatasetRecord next = queue.higher(d);
      if (next == null || before(priority, d.id, next)) {
        d.priority = priority;
        return;
      }
    }
    boolean queued = dequeue(d);
    d.priority = priority;
    if (queued || holds) {
      queue.add(d);
      d.queued = true;
    }
  }

  /** Whether {@code (priority, id)} comes before {@code next} in {@link DatasetRecord#BY_PRIORITY}. */
  private static boolean before(double priority, String id, DatasetRecord next) {
    int c = Double.compare(priority, next.priority);
    return c != 0 ? c < 0 : id.compareTo(next.id) < 0;
  }

  /** Takes a dataset out of the main cache's queue; whether it was there. */
  private boolean dequeue(DatasetRecord d) {
    if (!d.queued) {
      return false;
    }
    queue.remove(d);
    d.queued = false;
    return true;
  }

  @Override
  public void onHit(BlockAccess a) {
    String id = placement.datasetOf(a.block());
    if (id == null) {
      return;
    }
    DatasetRecord d = datasets.tracked(id);
    noteAccess(d, a);
    d.blocksAccess++;
    reprioritize(d, true);
  }

  /**
   * Admission control for a dataset outside the main cache (a forced prefetch skips it); a dataset
   * with blocks in the main cache is admitted as such.
   */
  @Override
  CacheDecision.Reason admission(DatasetRecord d, BlockAccess a, boolean force) {
    if (d.queued) {
      return CacheDecision.Reason.ADMITTED_DATASET_CACHED;
    }
    if (force) {
      return CacheDecision.Reason.ADMITTED_BY_FORCE;
    }
    CacheDecision.Reason refused = verdict(d, a);
    return refused != null ? refused : CacheDecision.Reason.ADMITTED_BY_REPLACEMENT;
  }

  /** Records a slave's free Input Cache bytes, as it reported them or as a decision leaves them. */
  @Override
  void slaveFree(String slave, long free) {
    long[] held = lastFree;
    if (held == null || !slave.equals(lastFreeSlave)) {
      held = freeBySlave.computeIfAbsent(slave, s -> new long[1]);
      lastFreeSlave = slave;
      lastFree = held;
    }
    reportedFree += Math.max(0, free) - held[0];
    held[0] = Math.max(0, free);
  }

  /**
   * The admission control (Section 2.2) for a dataset outside the main cache, decided once per
   * dataset access (at its first missed block) and held for the rest of the access: admit when
   * the cache's room holds the whole dataset; otherwise reject unless the dataset was in the
   * auxiliary cache, and then admit only if it is {@link #profitable} against the
   * lowest-priority datasets that would have to go to make room for all of it.
   *
   * @return null to admit, else why not
   */
  private CacheDecision.Reason verdict(DatasetRecord d, BlockAccess a) {
    if (d.verdictSeq != d.lastAccessSeq) {
      d.verdictSeq = d.lastAccessSeq;
      d.verdict = judge(d, a.blockBytes());
    }
    return d.verdict;
  }

  private CacheDecision.Reason judge(DatasetRecord d, long blockBytes) {
    long missing = d.bytesOf(d.size - placement.cachedBlocks(d), blockBytes);
    long deficit = missing - (reportedFree + placement.pendingBytes());
    if (deficit > 0 && !d.wasInAuxiliary) {
      return CacheDecision.Reason.REJECTED_NOT_IN_AUXILIARY_CACHE;
    }
    if (!d.seenRecently && overWriteBudget.getAsBoolean()) {
      return CacheDecision.Reason.REJECTED_WRITE_BUDGET;
    }
    if (deficit <= 0) {
      return null;
    }
    List<DatasetRecord> victims = PlacementIndex.covering(queue, d, deficit,
        v -> pinned.test(v.id) ? 0 : placement.bytesHeld(v));
    if (victims == null) {
      return PlacementIndex.covering(queue, d, deficit, v -> placement.bytesHeld(v)) != null
          ? CacheDecision.Reason.REJECTED_PINNED : CacheDecision.Reason.REJECTED_TOO_LARGE;
    }
    return profitable(d, victims) ? null : CacheDecision.Reason.REJECTED_NOT_PROFITABLE;
  }

  /**
   * The slave's To_Del blocks, handed out to be deleted: their bytes move from the To_Del lists to
   * the slave's free figure, so the cache's room does not shrink until the slave asks again.
   */
  @Override
  public List<BlockKey> pendingEvictions(String slaveId) {
    long freed = placement.pendingBytes(slaveId);
    long[] free = freeBySlave.get(slaveId);
    if (freed > 0 && free != null) {
      slaveFree(slaveId, free[0] + freed);
    }
    return super.pendingEvictions(slaveId);
  }

  /**
   * Frees Input Cache space for localized data as a miss would (Algorithm 1 lines 12-21): the
   * slave's pending To_Del blocks first, then whole lowest-priority datasets; nothing when that
   * cannot free {@code bytes} on the slave.
   */
  @Override
  public List<BlockKey> onReclaim(String slaveId, long bytes) {
    long pending = placement.pendingBytes(slaveId);
    if (pending < bytes) {
      List<DatasetRecord> victims = chooseVictims(slaveId, bytes - pending, null);
      if (victims == null) {
        return List.of();
      }
      victims.forEach(this::evict);
    }
    return placement.takePending(slaveId);
  }

  /**
   * The admission test, value per block against value per block: the newcomer's accesses per
   * block, {@code accesses/Size} (its accesses being those counted while the auxiliary cache
   * remembered it, each taken as a read of the whole dataset: the {@code Fr/Size} term of
   * Equation 2 it would have had, cached all along), must beat the victims' {@code Fr/Size}
   * averaged over the bytes each would free, that is the block accesses the victims served per
   * byte they hold (each {@code Size} raised to the size exponent). The mean is at most the
   * largest {@code Fr/Size} in the main cache, so a dataset re-read often enough always gets in
   * (docs/policy.md states the bound). Neither the
   * Clock nor the Full bonus enters: the Clock would favour every newcomer over every dataset
   * accessed before the last eviction, which churns the cache.
   */
  private boolean profitable(DatasetRecord d, List<DatasetRecord> victims) {
    double served = 0;
    double bytes = 0;
    for (DatasetRecord v : victims) {
      double held = placement.bytesHeld(v);
      served += held * v.frequency() / params.sizeWeight(v.size);
      bytes += held;
    }
    return d.accesses / params.sizeWeight(d.size) > served / bytes;
  }

  /** Algorithm 1 lines 15-21: the victim leaves the main cache and raises the Clock. */
  @Override
  void afterEvict(DatasetRecord v) {
    clock = v.priority;
    afterExpired(v);
  }

  /** An expired dataset leaves the main cache as a victim does, but the Clock stays. */
  @Override
  void afterExpired(DatasetRecord v) {
    dequeue(v);
    v.blocksAccess = 0;
    v.full = false;
    super.afterExpired(v);
  }

  /**
   * Lines 8 and 25-31: Blocks_Access grows and Pr is recomputed; a rejection changes nothing. A
   * dataset entering the main cache starts with its earlier accesses, those the auxiliary cache
   * remembered, counted as whole reads, so that it ranks with the value it was admitted for and
   * is not the next victim of the first dataset that follows (for a dataset read for the first
   * time this is the paper's Blocks_Access of 0).
   */
  @Override
  void afterRequest(DatasetRecord d, boolean admitted) {
    if (admitted) {
      if (!d.queued) {
        d.blocksAccess = (d.accesses - 1) * d.size;
      }
      d.blocksAccess++;
      reprioritize(d, true);
    }
  }

  /**
   * The adopted block's dataset is recorded with its size and joins the main cache, its Pr
   * computed from its record (Full once all its blocks are adopted); no access is counted, so its
   * frequency, Blocks_Access and the auxiliary cache are unchanged. A dataset the policy
   * did not know starts at the current Clock, like a dataset accessed now but with no frequency.
   */
  @Override
  void afterAdopted(String slaveId, BlockKey block, long blockBytes, String datasetId,
      int datasetBlocks) {
    boolean known = datasets.tracked(datasetId) != null;
    reprioritize(dataset(datasetId, datasetBlocks), !known);
  }

  @Override
  void afterStored(String slaveId, BlockKey block) {
    reprioritize(datasets.tracked(placement.datasetOf(block)), false);
  }

  @Override
  void afterRemoved(String slaveId, BlockKey block, String datasetId) {
    if (datasetId != null) {
      afterRemoval(datasets.tracked(datasetId));
    }
  }

  @Override
  void afterSlaveLost(String slaveId, Set<String> lost) {
    long[] free = freeBySlave.remove(slaveId);
    if (slaveId.equals(lastFreeSlave)) {
      lastFreeSlave = null;
      lastFree = null;
    }
    reportedFree -= free == null ? 0 : free[0];
    for (String id : lost) {
      afterRemoval(datasets.tracked(id));
    }
  }

  /** A dataset lost blocks: Full and Pr are recomputed; an emptied one leaves the main cache. */
  private void afterRemoval(DatasetRecord d) {
    reprioritize(d, false);
    if (!placement.holds(d)) {
      dequeue(d);
      d.blocksAccess = 0;
    }
  }

  /** The Clock and the auxiliary cache, eldest first. */
  @Override
  void exportTerms(PolicyStateProto.Builder state) {
    state.setClock(clock).addAllAuxiliary(auxiliary.idsEldestFirst());
  }

  /**
   * The Clock, and the auxiliary cache in its order; when its capacity shrank meanwhile, the
   * most recently accessed entries are kept.
   */
  @Override
  void restoreTerms(PolicyStateProto state) {
    clock = state.getClock();
    auxiliary.restore(state.getAuxiliaryList());
  }

  @Override
  public DatasetStanding standing(String datasetId) {
    DatasetRecord d = datasets.tracked(datasetId);
    if (d == null) {
      return null;
    }
    return new DatasetStanding(d.queued ? d.priority : Double.NaN, d.frequency(),
        d.full, auxiliary.contains(datasetId));
  }
}
