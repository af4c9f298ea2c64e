package org.mpcache.master.status;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.AdminProtos.DatasetStatusProto;
import org.mpcache.common.proto.AdminProtos.SlaveBlocksProto;
import org.mpcache.common.proto.SlaveMasterProtos.DatasetCountersProto;
import org.mpcache.master.arbitrator.BlockAccess;
import org.mpcache.master.arbitrator.CacheDecision;
import org.mpcache.master.arbitrator.DatasetFigures;
import org.mpcache.master.arbitrator.DatasetRecord;
import org.mpcache.master.arbitrator.DatasetRecords;
import org.mpcache.master.arbitrator.DatasetStanding;
import org.mpcache.master.arbitrator.PlacementIndex;

/**
 * The operators' view of the master's datasets ({@code mpcache admin datasets} and
 * {@code explain}), and the evictions the master orders itself rather than the policy (an
 * operator's {@code evict}, a slave's decommissioning). It keeps no dataset record of its own: it
 * reads and updates the {@linkplain DatasetRecord.History history} part of the records in the
 * Replace Arbitrator's {@link PlacementIndex} (the last read, the last admission verdict, the last
 * eviction with its cause, the slaves' figures per dataset), and reads from the index where each
 * dataset's blocks are; the rest it learns from the events the arbitrator passes through, so it
 * works with every policy.
 *
 * <p>Bounded: the records keep at most {@code maxDatasets} datasets that have no block in the
 * cache and that the policy does not track (least recently read dropped first,
 * {@link DatasetRecords}); a record's size does not depend on its history. The catalog's own
 * state is bounded by the evictions ordered and not yet carried out.
 *
 * <p>Not thread-safe: the Replace Arbitrator calls it under its lock, which guards the index too.
 * Where a block report is handled, the catalog hears of a removal before the policy updates the
 * index, and of a stored block after.
 */
public final class DatasetCatalog {

  private final ArbitratorStats stats;
  private final PlacementIndex placement;
  /** The index's dataset records, whose history the catalog keeps. */
  private final DatasetRecords datasets;
  /** Evictions the master ordered itself, per slave, not yet handed out, with their cause. */
  private final Map<String, LinkedHashMap<BlockKey, EvictionCause>> queued = new HashMap<>();
  /** Block replicas handed out for eviction and not yet reported removed, per slave. */
  private final Map<String, Set<BlockKey>> orderedOut = new HashMap<>();
  /** Blocks an operator evicted while they were filling: each is ordered out once cached. */
  private final Set<BlockKey> doomed = new HashSet<>();

  /**
   * @param maxDatasets how many records of datasets with nothing cached to keep, at least 1
   * @param placement the index of block copies it reports from (read only)
   */
  public DatasetCatalog(int maxDatasets, ArbitratorStats stats, PlacementIndex placement) {
    this.stats = stats;
    this.placement = placement;
    this.datasets = placement.records();
    setMaxDatasets(maxDatasets);
  }

  /** Changes the bound (a reloadable setting); extra records go at the next access. */
  public void setMaxDatasets(int maxDatasets) {
    datasets.setMaxDatasets(maxDatasets);
  }

  public ArbitratorStats stats() {
    return stats;
  }

  /** Datasets the master holds a record of. */
  public int size() {
    return datasets.size();
  }

  /** The history of the dataset a block was admitted for, or null. */
  private DatasetRecord.History ownerOf(BlockKey key) {
    String id = placement.ownerOf(key);
    DatasetRecord d = id == null ? null : datasets.get(id);
    return d == null ? null : d.history();
  }

  /** A read (hit or miss) of a dataset's block. */
  public void access(BlockAccess a) {
    DatasetRecord.History h = datasets.read(a.datasetId()).history(a.datasetBlocks());
    h.access(a);
  }

  /**
   * The arbitrator answered a replace request with {@code d}: the blocks the slave must evict
   * first are ordered out, charged to their datasets as a replacement in favour of this one.
   */
  public void verdict(BlockAccess a, CacheDecision d) {
    access(a);
    datasets.get(a.datasetId()).history().verdict(d, a.slaveId(), a.jobId(), a.timeMillis());
    stats.verdict(d);
    handedOut(a.slaveId(), d.evict(), "to admit " + a.datasetId() + " on " + a.slaveId(),
        a.timeMillis());
  }

  /**
   * A request refused because its block is not of the dataset the reader named: counted, and no
   * dataset's record is touched, so that naming a dataset cannot renew its last read.
   */
  public void refusedOutsideDataset(CacheDecision d) {
    stats.verdict(d);
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
    Map<DatasetRecord.History, Integer> byDataset = new LinkedHashMap<>();
    for (BlockKey k : keys) {
      DatasetRecord.History owner = ownerOf(k);
      if (owner != null) {
        byDataset.merge(owner, 1, Integer::sum);
      }
    }
    int replaced = keys.size();
    for (Map.Entry<DatasetRecord.History, Integer> e : byDataset.entrySet()) {
      DatasetRecord.History v = e.getKey();
      // A dataset whose time to live ran out, and not read since, leaves through To_Del too.
      EvictionCause cause = v.lastEvictionCause() == EvictionCause.TTL_EXPIRED
          && v.lastAccessMs() <= v.lastEvictionMs() ? EvictionCause.TTL_EXPIRED
          : EvictionCause.REPLACEMENT;
      String why = detail != null ? detail
          : v.lastEvictionCause() == cause ? v.lastEvictionDetail() : null;
      v.evicted(cause, why, e.getValue(), now);
      if (cause != EvictionCause.REPLACEMENT) {
        stats.evicted(cause, e.getValue());
        replaced -= e.getValue();
      }
    }
    stats.evicted(EvictionCause.REPLACEMENT, replaced);
  }

  /**
   * The policy evicted a dataset whose time to live ran out: its blocks, handed out from the
   * To_Del lists, are recorded as {@link EvictionCause#TTL_EXPIRED}.
   */
  public void expired(String datasetId, String detail, long now) {
    DatasetRecord.History d = history(datasetId);
    if (d != null) {
      d.evicted(EvictionCause.TTL_EXPIRED, detail, 0, now);
    }
  }

  /**
   * A slave's figures for a dataset (checked by the caller); a dataset the master had no record
   * of gets one (after a master restart, the slaves' next registration resends their figures).
   */
  public void figures(String slaveId, DatasetCountersProto p) {
    datasets.getOrCreate(p.getDatasetId()).history(0).figures().report(slaveId, p);
  }

  /**
   * The {@code n} datasets slaves reported most bytes read for (from the SSDs and from HDFS), most
   * first, ties by id.
   */
  public List<Map.Entry<String, DatasetFigures.Totals>> topByBytesRead(int n) {
    Comparator<Map.Entry<String, DatasetFigures.Totals>> order = Comparator
        .comparingLong((Map.Entry<String, DatasetFigures.Totals> e) -> e.getValue().bytesRead())
        .reversed().thenComparing(Map.Entry::getKey);
    PriorityQueue<Map.Entry<String, DatasetFigures.Totals>> top =
        new PriorityQueue<>(order.reversed());
    for (String id : datasets.seenIds(id -> true)) {
      DatasetRecord.History h = history(id);
      if (!h.hasFigures()) {
        continue;
      }
      top.add(Map.entry(id, h.figures().totals()));
      if (top.size() > n) {
        top.poll();
      }
    }
    List<Map.Entry<String, DatasetFigures.Totals>> out = new ArrayList<>(top);
    out.sort(order);
    return out;
  }

  /** The wall clock of a dataset's last read; 0 when unknown. */
  public long lastAccessMs(String datasetId) {
    DatasetRecord.History d = history(datasetId);
    return d == null ? 0 : d.lastAccessMs();
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
    DatasetRecord.History owner = ownerOf(key);
    if (owner != null) {
      owner.evicted(cause, detail, 1, now);
    }
  }

  /**
   * A slave finished caching a block. Returns normally; if the block's dataset was evicted by an
   * operator while it filled, or the slave is draining, the block is queued for eviction.
   *
   * @param draining whether the slave is being decommissioned
   */
  public void cached(String slaveId, BlockKey key, boolean draining, long now) {
    if (doomed.contains(key)) {
      order(slaveId, key, EvictionCause.ADMIN_EVICT, "filled after the eviction", now);
      return;
    }
    if (draining) {
      order(slaveId, key, EvictionCause.DECOMMISSION, "slave " + slaveId + " is decommissioning",
          now);
    }
  }

  /**
   * A registering slave already held a block the policy adopted (told after the index records
   * it): it is cached there for the dataset the index put it in, {@code datasetId} unless another
   * copy of it is in another one, without an access counted.
   *
   * @param datasetBlocks {@code datasetId}'s blocks as the slave recorded them
   * @param draining whether the slave is being decommissioned: the block is then ordered out
   */
  public void adopted(String slaveId, BlockKey key, String datasetId, int datasetBlocks,
      boolean draining, long now) {
    String owner = placement.ownerOf(key);
    if (owner != null) {
      int size = owner.equals(datasetId) ? datasetBlocks : 1;
      datasets.getOrCreate(owner).history(size).grow(size);
    }
    cached(slaveId, key, draining, now);
  }

  /**
   * A slave no longer holds a block (told before the index forgets the copy); removals the master
   * did not order count as drops.
   */
  public void removed(String slaveId, BlockKey key, long now) {
    Set<BlockKey> ordered = orderedOut.get(slaveId);
    boolean wasOrdered = ordered != null && ordered.remove(key);
    LinkedHashMap<BlockKey, EvictionCause> q = queued.get(slaveId);
    if (q != null && q.remove(key) != null) {
      wasOrdered = true;
    }
    if (!doomed.isEmpty() && placement.holders(key).size() <= 1) {
      doomed.remove(key);
    }
    DatasetRecord.History owner = ownerOf(key);
    if (owner != null && !wasOrdered && placement.isStored(slaveId, key)) {
      owner.evicted(EvictionCause.SLAVE_DROPPED, "dropped by " + slaveId, 1, now);
      stats.evicted(EvictionCause.SLAVE_DROPPED, 1);
    }
  }

  /**
   * A slave expired or left: everything it held is gone (told before the index forgets its
   * copies).
   */
  public void slaveLost(String slaveId, long now) {
    queued.remove(slaveId);
    orderedOut.remove(slaveId);
    Map<DatasetRecord.History, Integer> lost = new LinkedHashMap<>();
    for (BlockKey k : placement.storedOn(slaveId)) {
      DatasetRecord.History owner = ownerOf(k);
      if (owner != null) {
        lost.merge(owner, 1, Integer::sum);
      }
    }
    int total = 0;
    for (Map.Entry<DatasetRecord.History, Integer> e : lost.entrySet()) {
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
    DatasetRecord.History d = history(datasetId);
    if (d == null) {
      return 0;
    }
    List<Map.Entry<String, BlockKey>> stored = new ArrayList<>();
    placement.forEachCopy(datasetId, (slave, key, bytes, isStored) -> {
      if (isStored) {
        stored.add(Map.entry(slave, key));
      } else {
        doomed.add(key);
      }
    });
    int n = 0;
    for (Map.Entry<String, BlockKey> e : stored) {
      order(e.getKey(), e.getValue(), EvictionCause.ADMIN_EVICT, "mpcache admin evict", now);
      n++;
    }
    if (n == 0) {
      d.evicted(EvictionCause.ADMIN_EVICT, "mpcache admin evict", 0, now);
    }
    return n;
  }

  /**
   * A block the slave holds is one HDFS no longer has (its file or its generation stamp is gone):
   * it is ordered out.
   */
  public void stale(String slaveId, BlockKey key, long now) {
    order(slaveId, key, EvictionCause.STALE, "HDFS no longer has this block of its dataset", now);
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

  /** Every dataset operators have seen whose id {@code filter} accepts, ordered by id. */
  public List<String> datasetIds(Predicate<String> filter) {
    return datasets.seenIds(filter);
  }

  /** The operators' history of a dataset, null when there is none. */
  private DatasetRecord.History history(String datasetId) {
    DatasetRecord d = datasets.get(datasetId);
    return d == null ? null : d.history();
  }

  /**
   * The status of one dataset, with the policy's standing for it; null when the catalog has no
   * record of it.
   */
  public DatasetStatusProto status(String datasetId, Function<String, DatasetStanding> policy) {
    DatasetRecord.History d = history(datasetId);
    if (d == null) {
      return null;
    }
    Map<BlockKey, long[]> byBlock = new HashMap<>();
    Map<String, long[]> perSlave = new TreeMap<>();
    placement.forEachCopy(datasetId, (slave, key, blockBytes, stored) -> {
      long[] b = byBlock.computeIfAbsent(key, k -> new long[2]);
      b[0] = blockBytes;
      if (stored) {
        b[1] = 1;
        long[] c = perSlave.computeIfAbsent(slave, x -> new long[2]);
        c[0]++;
        c[1] += blockBytes;
      }
    });
    int cached = 0;
    int filling = 0;
    long bytes = 0;
    for (long[] b : byBlock.values()) {
      if (b[1] == 1) {
        cached++;
        bytes += b[0];
      } else {
        filling++;
      }
    }
    DatasetStanding st = policy.apply(datasetId);
    DatasetStatusProto.Builder p = DatasetStatusProto.newBuilder().setDatasetId(datasetId)
        .setCachedBlocks(cached).setCachedBytes(bytes).setFillingBlocks(filling)
        .setFull(cached > 0 && cached >= d.size())
        .setFrequency(st == null ? 0 : st.frequency())
        .setInAuxiliaryCache(st != null && st.inAuxiliaryCache());
    d.describe(p);
    if (st != null && !Double.isNaN(st.priority())) {
      p.setPriority(st.priority());
    }
    for (Map.Entry<String, long[]> e : perSlave.entrySet()) {
      p.addSlaves(SlaveBlocksProto.newBuilder().setSlaveId(e.getKey())
          .setBlocks((int) e.getValue()[0]).setBytes(e.getValue()[1]));
    }
    return p.build();
  }
}
