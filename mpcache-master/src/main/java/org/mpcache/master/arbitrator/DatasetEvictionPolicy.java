package org.mpcache.master.arbitrator;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.function.Consumer;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.MasterStateProtos.DatasetStateProto;
import org.mpcache.common.proto.MasterStateProtos.PolicyStateProto;

/**
 * Algorithm 1 of the mpCache paper, written once: the shape every dataset-granularity policy
 * shares ({@link MpCachePolicy}, and the baselines {@link GdsfPolicy}, {@link LfuFPolicy},
 * {@link LifePolicy}). A miss counts a dataset access (the first request of a new job for the
 * dataset, every request when the job is unknown), passes the subclass's admission test (the
 * baselines admit everything), and when the requesting slave lacks room uses the slave's pending
 * evictions (To_Del) first, then evicts whole datasets from every slave, in the subclass's victim
 * order, until their blocks on the requesting slave free enough. Victims are chosen before
 * anything is evicted, so a request that cannot be satisfied evicts nothing, and a dataset is
 * never evicted to make room for itself. What differs between policies is in the hooks: the
 * admission test, the victim order, and what each does with the terms of its {@link DatasetRecord}s
 * (the index's {@link DatasetRecords}) on an access, a request, an eviction.
 *
 * <p>Pure and deterministic; not thread-safe (the caller serializes calls).
 */
abstract class DatasetEvictionPolicy extends IndexedPolicy {

  /** The index's records; the policy's terms are in those it tracks. */
  final DatasetRecords datasets;
  /** Dataset accesses so far, cluster-wide. */
  long accessSeq;

  DatasetEvictionPolicy(PlacementIndex placement) {
    super(placement);
    this.datasets = placement.records();
  }

  /**
   * The order victims are taken in, most evictable first; ties end by dataset id. Whether a
   * dataset is complete is in {@link DatasetRecord#completeWhenOrdered} while it is ordered.
   */
  abstract Comparator<DatasetRecord> victimOrder();

  /**
   * The datasets that could free room on {@code slave}, other than {@code keep}, in victim order:
   * at least those holding blocks there. This default takes exactly those and orders them lazily,
   * as they are iterated; a policy that keeps every dataset holding blocks ordered may return its
   * own order.
   */
  Iterable<DatasetRecord> victimCandidates(DatasetRecord keep, String slave) {
    List<DatasetRecord> candidates = new ArrayList<>();
    placement.forEachTrackedOn(slave, (v, cachedBlocks) -> {
      if (v != null && v != keep) {
        v.completeWhenOrdered = cachedBlocks >= v.size;
        candidates.add(v);
      }
    });
    Comparator<DatasetRecord> order = victimOrder();
    Comparator<DatasetRecord> total = (x, y) -> {
      int c = order.compare(x, y);
      return c != 0 ? c : x.id.compareTo(y.id);
    };
    // Taken from a heap as they are asked for, as a miss needs only the first few: sorting every
    // dataset held at each miss dominated the simulator's time on large clusters.
    return () -> new Iterator<>() {
      private final PriorityQueue<DatasetRecord> heap = heapOf(candidates, total);

      @Override
      public boolean hasNext() {
        return !heap.isEmpty();
      }

      @Override
      public DatasetRecord next() {
        if (heap.isEmpty()) {
          throw new NoSuchElementException();
        }
        return heap.poll();
      }
    };
  }

  private static PriorityQueue<DatasetRecord> heapOf(List<DatasetRecord> records,
      Comparator<DatasetRecord> order) {
    PriorityQueue<DatasetRecord> heap = new PriorityQueue<>(Math.max(1, records.size()), order);
    heap.addAll(records);
    return heap;
  }

  /**
   * The admission test for a miss of dataset {@code d} (Section 2.2), after its access was
   * counted: a rejecting reason, or the admitting reason to give when the block needs victims
   * ({@code ADMITTED_BY_FORCE} makes the free-space case say so too). The baselines admit all.
   *
   * @param force an operator's prefetch asks to skip the test
   */
  CacheDecision.Reason admission(DatasetRecord d, BlockAccess a, boolean force) {
    return CacheDecision.Reason.ADMITTED_BY_REPLACEMENT;
  }

  /** The requesting slave's free Input Cache bytes, as reported or as a decision leaves them. */
  void slaveFree(String slaveId, long freeBytes) {
  }

  @Override
  public final void onSlaveRoom(String slaveId, long freeBytes) {
    slaveFree(slaveId, Math.max(0, freeBytes));
  }

  /** A new dataset access was counted (after {@code accesses} and the stamps were updated). */
  void afterAccess(DatasetRecord d, BlockAccess a) {
  }

  /**
   * A dataset was requested and, when admitted, its block is filling (after any evictions it
   * caused); a request rejected for lack of room ends here too. By default a rejected dataset
   * with no blocks is forgotten unless {@link #remembers} it.
   */
  void afterRequest(DatasetRecord d, boolean admitted) {
    if (!admitted) {
      forgetIfIdle(d.id);
    }
  }

  /** A victim was evicted (its blocks queued in To_Del); by default it is forgotten if idle. */
  void afterEvict(DatasetRecord d) {
    forgetIfIdle(d.id);
  }

  /** Whether a dataset with no cached blocks is still worth remembering (its history counts). */
  boolean remembers(DatasetRecord d) {
    return false;
  }

  /** Whether every block of a dataset is cached on some slave. */
  final boolean complete(DatasetRecord d) {
    return placement.cachedBlocks(d) >= d.size;
  }

  /** Forgets a dataset that holds no blocks and is not worth remembering. */
  final void forgetIfIdle(String datasetId) {
    DatasetRecord d = datasets.tracked(datasetId);
    if (d != null && !placement.holds(datasetId) && !remembers(d)) {
      datasets.untrack(d);
    }
  }

  /**
   * Ages every tracked record ({@code age} changes its terms), then forgets it if it holds no
   * blocks and is no longer worth remembering, unless it is {@code current}, the dataset whose
   * request is being handled: it may be about to get its first block, and a dataset with blocks
   * must stay tracked for as long as it has them. One sweep over the records, as LFU-F ages them
   * every hundred accesses: a sweep to age and another to forget were a tenth of its replay.
   */
  final void ageAndForgetIdle(DatasetRecord current, Consumer<DatasetRecord> age) {
    datasets.untrackIf(d -> {
      age.accept(d);
      // The policy's own term first: asking the index about every record was most of the sweep.
      return d != current && !remembers(d) && !placement.holds(d);
    });
  }

  /** Whether the policy tracks a dataset (for tests). */
  boolean tracks(String datasetId) {
    return datasets.tracked(datasetId) != null;
  }

  /** The access count of a dataset, 0 when unknown (for tests). */
  long accessesOf(String datasetId) {
    DatasetRecord d = datasets.tracked(datasetId);
    return d == null ? 0 : d.accesses;
  }

  /**
   * The record of a dataset, tracked from now if new; its paths' size grows to the largest
   * estimate readers report, and Size(jd) follows ({@link DatasetRecord#sizeFromReads}).
   */
  final DatasetRecord dataset(String id, int pathBlocks) {
    DatasetRecord d = datasets.track(id, pathBlocks);
    if (pathBlocks > d.pathBlocks) {
      d.pathBlocks = pathBlocks;
      resize(d);
    }
    return d;
  }

  /** The record of the accessed dataset, its paths' blocks and bytes grown to the reader's. */
  private DatasetRecord dataset(BlockAccess a) {
    DatasetRecord d = dataset(a.datasetId(), a.datasetBlocks());
    d.pathBytes = Math.max(d.pathBytes, a.datasetBytes());
    return d;
  }

  /** Sets Size(jd) from the paths' size and the reads, telling the subclass when it changed. */
  private void resize(DatasetRecord d) {
    int size = d.sizeFromReads();
    if (size != d.size) {
      d.size = size;
      sizeChanged(d);
    }
  }

  /** A dataset's size, Size(jd), changed. */
  void sizeChanged(DatasetRecord d) {
  }

  /**
   * Counts the block read, sizing the dataset by what its jobs read, and counts a dataset access
   * when this request starts one, and stamps it. A request of an unknown job is an access of its
   * own and says nothing of what a job reads: such a dataset keeps its paths' size.
   */
  final void noteAccess(DatasetRecord d, BlockAccess a) {
    boolean known = !a.jobId().isEmpty();
    if (known && a.jobId().equals(d.countedJob)) {
      d.readBlocks++;
      resize(d);
      return;
    }
    if (known) {
      if (d.readBlocks > 0 && d.countedJob != null && !d.countedJob.isEmpty()) {
        d.lastReadBlocks = d.readBlocks;
      }
      d.readBlocks = 1;
      resize(d);
    }
    accessSeq++;
    d.accesses++;
    d.lastAccessSeq = accessSeq;
    d.countedJob = a.jobId();
    afterAccess(d, a);
  }

  /** A hit on a block of a tracked dataset counts an access (Algorithm 1 lines 1-5). */
  @Override
  public void onHit(BlockAccess a) {
    String id = placement.datasetOf(a.block());
    if (id == null) {
      return;
    }
    DatasetRecord d = id.equals(a.datasetId()) ? dataset(a) : dataset(id, 1);
    noteAccess(d, a);
    afterRequest(d, true);
  }

  @Override
  public final CacheDecision onMiss(BlockAccess a, long slaveFreeBytes) {
    return onMiss(a, slaveFreeBytes, false);
  }

  /** Algorithm 1 lines 6-32. */
  @Override
  public final CacheDecision onMiss(BlockAccess a, long slaveFreeBytes, boolean force) {
    DatasetRecord d = dataset(a);
    noteAccess(d, a);
    String slave = a.slaveId();
    long free = Math.max(0, slaveFreeBytes);
    slaveFree(slave, free);
    CacheDecision.Reason verdict = admission(d, a, force);
    if (!verdict.name().startsWith("ADMITTED")) {
      return CacheDecision.reject(verdict);
    }
    long need = a.blockBytes() - free;
    if (need <= 0) {
      admit(d, a);
      slaveFree(slave, free - a.blockBytes());
      return CacheDecision.admit(verdict == CacheDecision.Reason.ADMITTED_BY_FORCE ? verdict
          : CacheDecision.Reason.ADMITTED_FREE_SPACE, List.of());
    }
    long pending = placement.pendingBytes(slave);
    if (pending < need) {
      List<DatasetRecord> victims = chooseVictims(slave, need - pending, d);
      if (victims == null) {
        afterRequest(d, false);
        return CacheDecision.reject(PlacementIndex.covering(victimCandidates(d, slave), d,
            need - pending, v -> placement.bytesOn(v, slave)) != null
            ? CacheDecision.Reason.REJECTED_PINNED : CacheDecision.Reason.REJECTED_TOO_LARGE);
      }
      victims.forEach(this::evict);
    }
    long freed = placement.pendingBytes(slave);
    List<BlockKey> evictHere = placement.takePending(slave);
    admit(d, a);
    slaveFree(slave, free + freed - a.blockBytes());
    return CacheDecision.admit(verdict, evictHere);
  }

  /** Lines 8 and 25-31: the block joins its dataset and fills on the slave. */
  private void admit(DatasetRecord d, BlockAccess a) {
    placement.fill(d.id, a.block(), a.blockBytes(), a.slaveId());
    afterRequest(d, true);
  }

  /**
   * The first datasets in victim order (not {@code keep}, not pinned) whose blocks cached on
   * {@code slave} free at least {@code bytes} there; null when all of them would not (with pins,
   * {@code onMiss} then tells whether evicting the pinned ones too would have).
   */
  final List<DatasetRecord> chooseVictims(String slave, long bytes, DatasetRecord keep) {
    return PlacementIndex.covering(victimCandidates(keep, slave), keep, bytes,
        v -> pinned.test(v.id) ? 0 : placement.bytesOn(v, slave));
  }

  /** Lines 15-21: every block of the victim is queued for deletion on its slaves. */
  final void evict(DatasetRecord v) {
    placement.evict(v.id);
    afterEvict(v);
  }

  /** Evicts the dataset as a victim's blocks go, but leaves the policy's terms as they are. */
  @Override
  public final boolean expire(String datasetId) {
    DatasetRecord d = datasets.tracked(datasetId);
    if (d == null || !placement.holds(datasetId)) {
      return false;
    }
    placement.evict(datasetId);
    afterExpired(d);
    return true;
  }

  /** A dataset's time to live ran out and its blocks are queued in To_Del. */
  void afterExpired(DatasetRecord d) {
    forgetIfIdle(d.id);
  }

  /** The adopted block's dataset is recorded with its size; no access is counted. */
  @Override
  void afterAdopted(String slaveId, BlockKey block, long blockBytes, String datasetId,
      int datasetBlocks) {
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

  /**
   * Every tracked dataset record, ordered by id, with the access count and the subclass's terms
   * (and each record's last read, for operators).
   */
  @Override
  public final PolicyStateProto exportState() {
    PolicyStateProto.Builder b = PolicyStateProto.newBuilder().setPolicy(name())
        .setAccessSeq(accessSeq);
    List<DatasetRecord> tracked = new ArrayList<>();
    datasets.forEachTracked(tracked::add);
    tracked.sort(Comparator.comparing(d -> d.id));
    for (DatasetRecord d : tracked) {
      b.addDatasets(d.toProto());
    }
    exportTerms(b);
    return b.build();
  }

  /**
   * Every record is validated before any is restored; the datasets join no queue until their
   * blocks are adopted ({@link #afterAdopted}), which computes their standing from the record.
   */
  @Override
  public final void restoreState(PolicyStateProto state) {
    if (!datasets.noneTracked() || accessSeq != 0) {
      throw new IllegalStateException("a policy's state is restored before any event");
    }
    if (state.getAccessSeq() < 0 || !Double.isFinite(state.getClock())) {
      throw new IllegalArgumentException("field accessSeq or clock out of range: "
          + state.getAccessSeq() + ", " + state.getClock());
    }
    Map<String, DatasetRecord> restored = new LinkedHashMap<>();
    for (DatasetStateProto p : state.getDatasetsList()) {
      DatasetRecord d = DatasetRecord.fromProto(p);
      if (restored.put(d.id, d) != null) {
        throw new IllegalArgumentException("dataset " + d.id + " is recorded twice");
      }
    }
    datasets.restore(new ArrayList<>(restored.values()));
    accessSeq = state.getAccessSeq();
    restoreTerms(state);
  }

  /** Adds the subclass's own terms (the Clock, the auxiliary cache) to an exported state. */
  void exportTerms(PolicyStateProto.Builder state) {
  }

  /** Restores the subclass's terms, after the dataset records (the clock field is finite). */
  void restoreTerms(PolicyStateProto state) {
  }

  @Override
  public List<BlockKey> pendingEvictions(String slaveId) {
    return placement.takePending(slaveId);
  }

  @Override
  public final Set<String> slavesWithPendingEvictions() {
    return placement.slavesWithPending();
  }
}
