package org.mpcache.master.status;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.AdminProtos.AdmissionVerdictProto;
import org.mpcache.common.proto.AdminProtos.DatasetStatusProto;
import org.mpcache.common.proto.AdminProtos.EvictionRecordProto;
import org.mpcache.common.proto.AdminProtos.SlaveBlocksProto;
import org.mpcache.common.proto.AdminProtos.VerdictCountProto;
import org.mpcache.master.arbitrator.BlockAccess;
import org.mpcache.master.arbitrator.CacheDecision;
import org.mpcache.master.arbitrator.DatasetStanding;

/**
 * What the master remembers about datasets for its operators, beside (not inside) the cache
 * policy: which blocks of each dataset are cached or filling on which slave, the last admission
 * verdict and the last eviction with its cause ({@code mpcache admin datasets} and
 * {@code explain}), and the evictions the master orders itself rather than the policy (an
 * operator's {@code evict}, a slave's decommissioning). It learns everything from the events the
 * Replace Arbitrator passes through, so it works with every policy.
 *
 * <p>Bounded: at most {@code maxDatasets} records of datasets with no block in the cache are kept
 * (least recently accessed dropped first); a record's size does not depend on its history.
 *
 * <p>Not thread-safe: the Replace Arbitrator calls it under its lock.
 */
public final class DatasetCatalog {

  /** One block the catalog tracks: its dataset and size, where it is cached or filling. */
  private static final class BlockRecord {
    final DatasetRecord dataset;
    final long bytes;
    final Set<String> cachedOn = new HashSet<>(2);
    final Set<String> fillingOn = new HashSet<>(2);
    /** An operator evicted the dataset while this block was filling: evict it once cached. */
    boolean doomed;

    BlockRecord(DatasetRecord dataset, long bytes) {
      this.dataset = dataset;
      this.bytes = bytes;
    }
  }

  private final ArbitratorStats stats;
  /** Dataset records, least recently accessed first. */
  private final LinkedHashMap<String, DatasetRecord> datasets =
      new LinkedHashMap<>(16, 0.75f, true);
  private final Map<BlockKey, BlockRecord> blocks = new HashMap<>();
  /** Evictions the master ordered itself, per slave, not yet handed out, with their cause. */
  private final Map<String, LinkedHashMap<BlockKey, EvictionCause>> queued = new HashMap<>();
  /** Block replicas handed out for eviction and not yet reported removed, per slave. */
  private final Map<String, Set<BlockKey>> orderedOut = new HashMap<>();
  private int maxDatasets;

  /**
   * @param maxDatasets how many records of datasets with nothing cached to keep, at least 1
   */
  public DatasetCatalog(int maxDatasets, ArbitratorStats stats) {
    setMaxDatasets(maxDatasets);
    this.stats = stats;
  }

  /** Changes the bound (a reloadable setting); extra records go at the next access. */
  public void setMaxDatasets(int maxDatasets) {
    if (maxDatasets < 1) {
      throw new IllegalArgumentException("maxDatasets must be at least 1: " + maxDatasets);
    }
    this.maxDatasets = maxDatasets;
  }

  public ArbitratorStats stats() {
    return stats;
  }

  /** Datasets the catalog holds a record of. */
  public int size() {
    return datasets.size();
  }

  /** A read (hit or miss) of a dataset's block. */
  public void access(BlockAccess a) {
    DatasetRecord d = datasets.get(a.datasetId());
    if (d == null) {
      d = new DatasetRecord(a.datasetId(), a.datasetBlocks());
      datasets.put(d.id, d);
      trim();
    }
    d.size = Math.max(d.size, a.datasetBlocks());
    d.lastAccessMs = Math.max(d.lastAccessMs, a.timeMillis());
    if (!a.jobId().isEmpty()) {
      d.lastJob = a.jobId();
    }
  }

  private void trim() {
    Iterator<DatasetRecord> it = datasets.values().iterator();
    while (datasets.size() > maxDatasets && it.hasNext()) {
      if (it.next().blocks.isEmpty()) {
        it.remove();
      }
    }
  }

  /**
   * The arbitrator answered a replace request with {@code d}: the block starts filling on the
   * slave when admitted, and the blocks the slave must evict first are ordered out, charged to
   * their datasets as a replacement in favour of this one.
   */
  public void verdict(BlockAccess a, CacheDecision d) {
    access(a);
    DatasetRecord rec = datasets.get(a.datasetId());
    rec.verdict(d, a.slaveId(), a.jobId(), a.timeMillis());
    stats.verdict(d);
    if (d.admitted()) {
      BlockRecord b = blocks.computeIfAbsent(a.block(), k -> new BlockRecord(rec, a.blockBytes()));
      b.fillingOn.add(a.slaveId());
      b.dataset.blocks.add(a.block());
    }
    handedOut(a.slaveId(), d.evict(), "to admit " + a.datasetId() + " on " + a.slaveId(),
        a.timeMillis());
  }

  /** Evictions the policy planned (its To_Del), handed to a slave now. */
  public void policyEvictions(String slaveId, List<BlockKey> keys, long now) {
    handedOut(slaveId, keys, null, now);
  }

  private void handedOut(String slaveId, List<BlockKey> keys, String detail, long now) {
    if (keys.isEmpty()) {
      return;
    }
    orderedOut.computeIfAbsent(slaveId, s -> new HashSet<>()).addAll(keys);
    Map<DatasetRecord, Integer> byDataset = new LinkedHashMap<>();
    for (BlockKey k : keys) {
      BlockRecord b = blocks.get(k);
      if (b != null) {
        byDataset.merge(b.dataset, 1, Integer::sum);
      }
    }
    for (Map.Entry<DatasetRecord, Integer> e : byDataset.entrySet()) {
      DatasetRecord v = e.getKey();
      String why = detail != null ? detail
          : v.lastEvictionCause == EvictionCause.REPLACEMENT ? v.lastEvictionDetail : null;
      v.evicted(EvictionCause.REPLACEMENT, why, e.getValue(), now);
    }
    stats.evicted(EvictionCause.REPLACEMENT, keys.size());
  }

  /** Takes the evictions the master ordered itself for a slave (operator evict, decommission). */
  public List<BlockKey> takeQueued(String slaveId) {
    LinkedHashMap<BlockKey, EvictionCause> q = queued.remove(slaveId);
    if (q == null) {
      return List.of();
    }
    orderedOut.computeIfAbsent(slaveId, s -> new HashSet<>()).addAll(q.keySet());
    return new ArrayList<>(q.keySet());
  }

  /** Orders the master's own eviction of a block replica, charged to its dataset. */
  private void order(String slaveId, BlockKey key, EvictionCause cause, String detail, long now) {
    if (queued.computeIfAbsent(slaveId, s -> new LinkedHashMap<>()).put(key, cause) != null) {
      return;
    }
    stats.evicted(cause, 1);
    BlockRecord b = blocks.get(key);
    if (b != null) {
      b.dataset.evicted(cause, detail, 1, now);
    }
  }

  /**
   * A slave finished caching a block. Returns normally; if the block's dataset was evicted by an
   * operator while it filled, or the slave is draining, the block is queued for eviction.
   *
   * @param draining whether the slave is being decommissioned
   */
  public void cached(String slaveId, BlockKey key, boolean draining, long now) {
    BlockRecord b = blocks.get(key);
    if (b != null) {
      b.fillingOn.remove(slaveId);
      b.cachedOn.add(slaveId);
      if (b.doomed) {
        order(slaveId, key, EvictionCause.ADMIN_EVICT, "filled after the eviction", now);
        return;
      }
    }
    if (draining) {
      order(slaveId, key, EvictionCause.DECOMMISSION, "slave " + slaveId + " is decommissioning",
          now);
    }
  }

  /**
   * A registering slave already held a block the policy adopted: it is cached there for
   * {@code datasetId} (or the dataset another copy of it is in), without an access counted.
   *
   * @param draining whether the slave is being decommissioned: the block is then ordered out
   */
  public void adopted(String slaveId, BlockKey key, long bytes, String datasetId,
      int datasetBlocks, boolean draining, long now) {
    BlockRecord b = blocks.get(key);
    if (b == null) {
      DatasetRecord d = datasets.get(datasetId);
      if (d == null) {
        d = new DatasetRecord(datasetId, datasetBlocks);
        datasets.put(datasetId, d);
        trim();
      }
      d.size = Math.max(d.size, datasetBlocks);
      b = new BlockRecord(d, bytes);
      blocks.put(key, b);
      d.blocks.add(key);
    }
    cached(slaveId, key, draining, now);
  }

  /** The blocks a slave is filling, as far as the catalog knows. */
  public List<BlockKey> fillingOn(String slaveId) {
    List<BlockKey> out = new ArrayList<>();
    blocks.forEach((k, b) -> {
      if (b.fillingOn.contains(slaveId)) {
        out.add(k);
      }
    });
    return out;
  }

  /** A slave no longer holds a block; removals the master did not order count as drops. */
  public void removed(String slaveId, BlockKey key, long now) {
    Set<BlockKey> ordered = orderedOut.get(slaveId);
    boolean wasOrdered = ordered != null && ordered.remove(key);
    LinkedHashMap<BlockKey, EvictionCause> q = queued.get(slaveId);
    if (q != null && q.remove(key) != null) {
      wasOrdered = true;
    }
    BlockRecord b = blocks.get(key);
    if (b == null) {
      return;
    }
    if (!wasOrdered && b.cachedOn.contains(slaveId)) {
      b.dataset.evicted(EvictionCause.SLAVE_DROPPED, "dropped by " + slaveId, 1, now);
      stats.evicted(EvictionCause.SLAVE_DROPPED, 1);
    }
    b.cachedOn.remove(slaveId);
    b.fillingOn.remove(slaveId);
    forgetIfGone(key, b);
  }

  private void forgetIfGone(BlockKey key, BlockRecord b) {
    if (b.cachedOn.isEmpty() && b.fillingOn.isEmpty()) {
      blocks.remove(key);
      b.dataset.blocks.remove(key);
    }
  }

  /** A slave expired or left: everything it held is gone. */
  public void slaveLost(String slaveId, long now) {
    queued.remove(slaveId);
    orderedOut.remove(slaveId);
    Map<DatasetRecord, Integer> lost = new LinkedHashMap<>();
    Iterator<Map.Entry<BlockKey, BlockRecord>> it = blocks.entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<BlockKey, BlockRecord> e = it.next();
      BlockRecord b = e.getValue();
      if (b.cachedOn.remove(slaveId)) {
        lost.merge(b.dataset, 1, Integer::sum);
      }
      b.fillingOn.remove(slaveId);
      if (b.cachedOn.isEmpty() && b.fillingOn.isEmpty()) {
        it.remove();
        b.dataset.blocks.remove(e.getKey());
      }
    }
    int total = 0;
    for (Map.Entry<DatasetRecord, Integer> e : lost.entrySet()) {
      e.getKey().evicted(EvictionCause.SLAVE_LOST, "slave " + slaveId + " lost", e.getValue(),
          now);
      total += e.getValue();
    }
    stats.evicted(EvictionCause.SLAVE_LOST, total);
  }

  /**
   * An operator evicts a dataset: every cached replica is ordered out; blocks still filling are
   * ordered out once cached.
   *
   * @return the replicas ordered out now
   */
  public int evictDataset(String datasetId, long now) {
    DatasetRecord d = datasets.get(datasetId);
    if (d == null) {
      return 0;
    }
    int n = 0;
    for (BlockKey k : new ArrayList<>(d.blocks)) {
      BlockRecord b = blocks.get(k);
      b.doomed = !b.fillingOn.isEmpty();
      for (String s : b.cachedOn) {
        order(s, k, EvictionCause.ADMIN_EVICT, "mpcache admin evict", now);
        n++;
      }
    }
    if (n == 0) {
      d.evicted(EvictionCause.ADMIN_EVICT, "mpcache admin evict", 0, now);
    }
    return n;
  }

  /** A slave starts decommissioning: every block it holds is ordered out. */
  public int drainSlave(String slaveId, Collection<BlockKey> held, long now) {
    int n = 0;
    for (BlockKey k : held) {
      order(slaveId, k, EvictionCause.DECOMMISSION, "slave " + slaveId + " is decommissioning",
          now);
      n++;
    }
    return n;
  }

  /** Every dataset the catalog knows whose id {@code filter} accepts, ordered by id. */
  public List<String> datasetIds(Predicate<String> filter) {
    List<String> out = new ArrayList<>();
    for (String id : datasets.keySet()) {
      if (filter.test(id)) {
        out.add(id);
      }
    }
    out.sort(null);
    return out;
  }

  /**
   * The status of one dataset, with the policy's standing for it; null when the catalog has no
   * record of it.
   */
  public DatasetStatusProto status(String datasetId, Function<String, DatasetStanding> policy) {
    DatasetRecord d = datasets.get(datasetId);
    if (d == null) {
      return null;
    }
    int cached = 0;
    int filling = 0;
    long bytes = 0;
    Map<String, long[]> perSlave = new TreeMap<>();
    for (BlockKey k : d.blocks) {
      BlockRecord b = blocks.get(k);
      if (!b.cachedOn.isEmpty()) {
        cached++;
        bytes += b.bytes;
      } else {
        filling++;
      }
      for (String s : b.cachedOn) {
        long[] c = perSlave.computeIfAbsent(s, x -> new long[2]);
        c[0]++;
        c[1] += b.bytes;
      }
    }
    DatasetStanding st = policy.apply(datasetId);
    DatasetStatusProto.Builder p = DatasetStatusProto.newBuilder().setDatasetId(d.id)
        .setSizeBlocks(d.size).setCachedBlocks(cached).setCachedBytes(bytes)
        .setFillingBlocks(filling).setFull(cached > 0 && cached >= d.size)
        .setFrequency(st == null ? 0 : st.frequency()).setLastAccessMs(d.lastAccessMs)
        .setInAuxiliaryCache(st != null && st.inAuxiliaryCache()).setLastJob(d.lastJob);
    if (st != null && !Double.isNaN(st.priority())) {
      p.setPriority(st.priority());
    }
    for (Map.Entry<String, long[]> e : perSlave.entrySet()) {
      p.addSlaves(SlaveBlocksProto.newBuilder().setSlaveId(e.getKey())
          .setBlocks((int) e.getValue()[0]).setBytes(e.getValue()[1]));
    }
    if (d.lastReason != null) {
      p.setLastVerdict(AdmissionVerdictProto.newBuilder().setReason(d.lastReason.name())
          .setAdmitted(d.lastAdmitted).setTimeMs(d.lastVerdictMs).setSlaveId(d.lastVerdictSlave)
          .setJobId(d.lastVerdictJob));
    }
    for (Map.Entry<CacheDecision.Reason, Long> e : d.verdicts.entrySet()) {
      p.addVerdicts(VerdictCountProto.newBuilder().setReason(e.getKey().name())
          .setCount(e.getValue()));
    }
    if (d.lastEvictionCause != null) {
      EvictionRecordProto.Builder e = EvictionRecordProto.newBuilder()
          .setCause(d.lastEvictionCause.name()).setTimeMs(d.lastEvictionMs)
          .setBlocks(d.lastEvictionBlocks);
      if (d.lastEvictionDetail != null) {
        e.setDetail(d.lastEvictionDetail);
      }
      p.setLastEviction(e);
    }
    return p.build();
  }

  /** The slaves that hold or are filling a block, for prefetch planning. */
  public Set<String> holders(BlockKey key) {
    BlockRecord b = blocks.get(key);
    if (b == null) {
      return Set.of();
    }
    Set<String> out = new LinkedHashSet<>(b.cachedOn);
    out.addAll(b.fillingOn);
    return out;
  }
}
