package org.mpcache.master.arbitrator;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import javax.annotation.concurrent.GuardedBy;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.AdminProtos.ControlsProto;
import org.mpcache.common.proto.AdminProtos.DatasetStatusProto;
import org.mpcache.common.proto.MasterStateProtos.MasterStateProto;
import org.mpcache.common.proto.MasterStateProtos.PolicyStateProto;
import org.mpcache.common.proto.MpCacheProtos.QuotaProto;
import org.mpcache.common.proto.SlaveMasterProtos.DatasetCountersProto;
import org.mpcache.master.control.AdmissionFilter;
import org.mpcache.master.control.OperatorControls;
import org.mpcache.master.registry.SlaveHoldings;
import org.mpcache.master.registry.SlaveRegistry;
import org.mpcache.master.status.ArbitratorStats;
import org.mpcache.master.status.DatasetCatalog;
import org.mpcache.master.status.DatasetPaths;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The master's Replace Arbitrator (paper Section 2): the mechanism around a {@link CachePolicy}. It
 * owns the master's one {@link PlacementIndex} of which slave holds or fills which block, which the
 * policy keeps in step with what slaves report and plans against; it serializes those reports into
 * the policy and hands each slave the evictions planned for it. It also feeds the
 * {@link DatasetCatalog} operators query, answers the {@link SlaveRegistry}'s questions about what
 * each slave holds ({@link #holdings()}), and carries out the operators' actions that are mechanism
 * rather than policy: evicting a dataset, draining a decommissioned slave (which the policy learns
 * of as ordinary removals). It keeps the {@link OperatorControls}: admission filters and quotas
 * refuse a request before the policy sees it, pins are the policy's input (never a victim), and
 * times to live are checked at slaves' heartbeats, at most once a second, expiring datasets
 * through the policy's To_Del lists.
 *
 * <p>Thread-safe. Lock order: (1) this arbitrator's lock, (2) the registry's monitor; the registry
 * reads {@link #holdings()} only while it does not hold its monitor.
 */
public final class ReplaceArbitrator {
  private static final Logger LOG = LoggerFactory.getLogger(ReplaceArbitrator.class);

  private final Object lock = new Object();
  @GuardedBy("lock")
  private final PlacementIndex placement = new PlacementIndex();
  @GuardedBy("lock")
  private final CachePolicy policy;
  private final SlaveRegistry registry;
  @GuardedBy("lock")
  private final DatasetCatalog catalog;
  private final LongSupplier wallClock;
  @GuardedBy("lock")
  private final OperatorControls controls = new OperatorControls();
  /** When times to live are next checked, wall clock. */
  @GuardedBy("lock")
  private long nextTtlCheckMs;
  /** How often, at most, times to live are checked (at heartbeats). */
  private static final long TTL_CHECK_MS = 1_000;
  /** The SSD write budget and the slaves' recent writes; the policy asks it at admissions. */
  @GuardedBy("lock")
  private WriteBudget writeBudget = new WriteBudget(0);

  /**
   * @param policy makes the cache policy, given the placement index it is to keep and plan against
   * @param maxDatasets how many records of datasets with nothing cached the catalog keeps
   * @param wallClock the time stamped on evictions (accesses carry their own time)
   */
  public ReplaceArbitrator(Function<PlacementIndex, CachePolicy> policy, SlaveRegistry registry,
      int maxDatasets, ArbitratorStats stats, LongSupplier wallClock) {
    this.policy = policy.apply(placement);
    this.policy.setPinned(controls::pinned);
    // Asked only inside the policy's calls, which hold the lock.
    this.policy.setOverWriteBudget(() -> writeBudget.over(wallClock.getAsLong()));
    this.registry = registry;
    this.catalog = new DatasetCatalog(maxDatasets, stats, placement);
    this.wallClock = wallClock;
  }

  /** What each slave stores, as the placement index knows it; thread-safe (takes the lock). */
  public SlaveHoldings holdings() {
    return new SlaveHoldings() {
      @Override
      public int storedCount(String slaveId) {
        synchronized (lock) {
          return placement.storedCount(slaveId);
        }
      }

      @Override
      public List<BlockKey> storedOn(String slaveId) {
        synchronized (lock) {
          return placement.storedOn(slaveId);
        }
      }
    };
  }

  /**
   * For each block, the slaves whose copy of it is readable and stays ({@link
   * PlacementIndex#readableOn}), in the order given; takes the lock for the lookup only.
   */
  public List<Set<String>> readableOn(List<BlockKey> blocks) {
    List<Set<String>> out = new ArrayList<>(blocks.size());
    synchronized (lock) {
      for (BlockKey b : blocks) {
        out.add(placement.readableOn(b));
      }
    }
    return out;
  }

  /** The arbitrator's running totals (thread-safe to read without its lock). */
  public ArbitratorStats stats() {
    return catalog.stats();
  }

  public String policyName() {
    return policy.name();
  }

  /**
   * The policy's state for the master's checkpoint ({@link CachePolicy#exportState}), taken under
   * the lock; null when the policy keeps none.
   */
  public PolicyStateProto policyState() {
    synchronized (lock) {
      return policy.exportState();
    }
  }

  /**
   * Restores the policy's state from the master's checkpoint, before any slave registers.
   *
   * @return false, with nothing restored, when the state was written by another policy (the
   *     configured one then relearns)
   * @throws IllegalArgumentException when the state is invalid; nothing is restored
   */
  public boolean restorePolicyState(PolicyStateProto state) {
    synchronized (lock) {
      if (!state.getPolicy().equals(policy.name())) {
        return false;
      }
      policy.restoreState(state);
      return true;
    }
  }

  /**
   * A slave (re)registers holding {@code held}, every block on its SSD. Blocks the index already
   * records as stored on the slave (from its previous registration) and that it still holds are
   * kept as they are, doomed or not (a re-registration after a network blip loses nothing); a fill
   * it reports held counts as reported cached. What the index records on the slave and the slave
   * does not report is removed: a lost fill's block, if the fill is still going on, is a stray when
   * reported cached. The other blocks are adopted into the dataset the slave recorded for them
   * ({@link CachePolicy#adopt}), as cached, without counting an access. Evicted are only the
   * blocks that cannot be placed: no usable dataset identity, or more bytes than the slave's Input
   * Cache capacity (blocks in the order reported). Whether HDFS still has the adopted blocks is
   * not known here: the caller has them checked, and {@link #dropStale} orders out those it no
   * longer has.
   *
   * The slave's free Input Cache bytes count toward the cache's room from here on, so that
   * admission by room does not wait for each slave's first request to learn of it.
   *
   * @param inputCacheCapacity the slave's Input Cache capacity as it registered
   * @param freeBytes the slave's free Input Cache bytes as it registered
   * @return the blocks the slave must evict, and the blocks adopted
   */
  public Registration onRegister(String slaveId, List<HeldBlock> held,
      long inputCacheCapacity, long freeBytes) {
    synchronized (lock) {
      policy.onSlaveRoom(slaveId, freeBytes);
      long now = wallClock.getAsLong();
      Set<BlockKey> reported = new HashSet<>();
      for (HeldBlock h : held) {
        reported.add(h.block());
      }
      for (BlockKey b : placement.copiesOn(slaveId)) {
        if (!reported.contains(b)) {
          catalog.removed(slaveId, b, now);
          policy.onRemoved(slaveId, b);
        }
      }
      boolean draining = registry.isDecommissioning(slaveId);
      List<BlockKey> evict = new ArrayList<>();
      List<HeldBlock> adopted = new ArrayList<>();
      long placed = 0;
      int known = 0;
      int unknownDataset = 0;
      for (HeldBlock h : held) {
        BlockKey b = h.block();
        if (placement.isStored(slaveId, b)) {
          placed += h.bytes();
          known++;
        } else if (placement.holders(b).contains(slaveId)) {
          policy.onCached(slaveId, b);
          catalog.cached(slaveId, b, draining, now);
          placed += h.bytes();
          known++;
        } else if (!h.hasDataset()) {
          evict.add(b);
          unknownDataset++;
        } else if (placed + h.bytes() <= inputCacheCapacity) {
          policy.adopt(slaveId, b, h.bytes(), h.datasetId(), h.datasetBlocks());
          catalog.adopted(slaveId, b, h.datasetId(), h.datasetBlocks(), draining, now);
          placed += h.bytes();
          adopted.add(h);
        } else {
          evict.add(b);
        }
      }
      catalog.stats().registered(adopted.size(), evict.size());
      return new Registration(evict, adopted, known, unknownDataset,
          evict.size() - unknownDataset);
    }
  }

  /**
   * Orders out the copies on {@code slaveId} of blocks HDFS no longer has (found by checking
   * adopted blocks against the NameNode, after the registration that adopted them). A block the
   * slave no longer holds is skipped: it left meanwhile.
   *
   * @return how many copies were ordered out
   */
  public int dropStale(String slaveId, Collection<BlockKey> stale) {
    synchronized (lock) {
      long now = wallClock.getAsLong();
      int n = 0;
      for (BlockKey b : stale) {
        if (placement.isStored(slaveId, b)) {
          catalog.stale(slaveId, b, now);
          n++;
        }
      }
      if (n > 0) {
        LOG.info("Ordered {} block(s) out of slave {}: HDFS no longer has them", n, slaveId);
      }
      return n;
    }
  }

  /**
   * Blocks served from a slave's cache (Algorithm 1 lines 1-5). A hit counts for the dataset the
   * block was admitted for, whatever dataset the reader claims: a reader can name any dataset, so
   * a claim would let it keep any dataset's frequency up and its time to live from running out. A
   * hit on a block the master does not place counts for no dataset.
   */
  public void onHits(List<BlockAccess> hits) {
    synchronized (lock) {
      for (BlockAccess a : hits) {
        BlockAccess own = ownDataset(a);
        if (own != null) {
          policy.onHit(own);
          catalog.access(own);
        }
      }
    }
  }

  /** The access as one of the dataset its block was admitted for; null when it has none. */
  @GuardedBy("lock")
  private BlockAccess ownDataset(BlockAccess a) {
    String owner = placement.ownerOf(a.block());
    if (owner == null || owner.equals(a.datasetId())) {
      return owner == null ? null : a;
    }
    // The reader's block count is of its own dataset: the owner's is left as it was.
    return new BlockAccess(a.slaveId(), a.block(), a.blockBytes(), owner, 1, a.jobId(),
        a.timeMillis());
  }

  /** A slave's replace request (Algorithm 1 lines 6-32). */
  public CacheDecision onReplaceRequest(BlockAccess access, long freeBytes) {
    return onReplaceRequest(access, freeBytes, false);
  }

  /**
   * A slave's replace request for a block its caller knows to be the dataset's (the simulator's,
   * tests'); {@code force} (an operator's {@code prefetch -force}) skips the policy's admission
   * test. A decommissioning slave is refused without asking the policy.
   */
  public CacheDecision onReplaceRequest(BlockAccess access, long freeBytes, boolean force) {
    return onReplaceRequest(access, freeBytes, force, null);
  }

  /**
   * A slave's replace request for a block of the file {@code blockPath}, which the master found
   * the block in at the NameNode: the block is cached only for a dataset that file belongs to
   * ({@code REJECTED_NOT_IN_DATASET} else), and the admission filters apply to the file too.
   * Null skips those checks, for a caller that knows the block is the dataset's.
   */
  public CacheDecision onReplaceRequest(BlockAccess access, long freeBytes, boolean force,
      String blockPath) {
    synchronized (lock) {
      CacheDecision.Reason refused = registry.isDecommissioning(access.slaveId())
          ? CacheDecision.Reason.REJECTED_SLAVE_DECOMMISSIONED
          : controlRefusal(access, blockPath);
      CacheDecision d = refused != null ? CacheDecision.reject(refused)
          : policy.onMiss(access, freeBytes, force);
      if (d.reason() == CacheDecision.Reason.REJECTED_NOT_IN_DATASET) {
        catalog.refusedOutsideDataset(d);
      } else {
        catalog.verdict(access, d);
      }
      LOG.debug("Replace request {} with {} bytes free{}: {}", access, freeBytes,
          force ? " (forced)" : "", d);
      return d;
    }
  }

  /**
   * The operators' refusal of a request, before the policy sees it: a block whose file ({@code
   * blockPath}, when known) lies under none of the dataset's input paths; the admission filters,
   * on the dataset's input paths and on the block's file; then the quotas that charge the
   * dataset, each of which must hold this block besides the blocks it charges now (charged per
   * block stored, not on the reader's count of the dataset's blocks).
   */
  @GuardedBy("lock")
  private CacheDecision.Reason controlRefusal(BlockAccess a, String blockPath) {
    if (blockPath != null && !DatasetPaths.holdsFile(a.datasetId(), blockPath)) {
      return CacheDecision.Reason.REJECTED_NOT_IN_DATASET;
    }
    CacheDecision.Reason r = controls.filterRefusal(a.datasetId());
    if (r == null && blockPath != null) {
      r = controls.filterRefusal(blockPath);
    }
    if (r != null || !controls.hasQuotas()) {
      return r;
    }
    return controls.quotaRefusal(a.datasetId(), a.blockBytes(), this::quotaUsed);
  }

  /** The bytes cached now that a quota charges: every dataset under its directory. */
  @GuardedBy("lock")
  private long quotaUsed(QuotaProto q) {
    long[] sum = new long[1];
    placement.forEachHeld((id, bytes) -> {
      if (OperatorControls.charges(q, id)) {
        sum[0] += bytes;
      }
    });
    return sum[0];
  }

  /**
   * Expires the datasets whose time to live ran out, at most once every {@link #TTL_CHECK_MS}:
   * the policy queues their blocks in To_Del, handed out with the heartbeats.
   */
  @GuardedBy("lock")
  private void expireDue(long now) {
    if (!controls.hasTtls() || now < nextTtlCheckMs) {
      return;
    }
    nextTtlCheckMs = now + TTL_CHECK_MS;
    List<String> due = new ArrayList<>();
    placement.forEachHeld((id, bytes) -> {
      if (controls.expiresAtMs(id, catalog.lastAccessMs(id)) <= now) {
        due.add(id);
      }
    });
    for (String id : due) {
      if (policy.expire(id)) {
        catalog.expired(id, null, now);
        LOG.info("Dataset {} expired: its time to live passed since its last read", id);
      }
    }
  }

  /**
   * Pins ({@code on}) or unpins a path: the datasets with an input path at or under it are never
   * chosen as victims.
   *
   * @return false when it was so already
   * @throws IllegalArgumentException when the path is not absolute
   */
  public boolean pin(String path, boolean on) {
    synchronized (lock) {
      return on ? controls.pin(path) : controls.unpin(path);
    }
  }

  /**
   * Sets the time to live of the datasets under a path; 0 clears it.
   *
   * @return false when nothing changed
   * @throws IllegalArgumentException when the path is not absolute or the time negative
   */
  public boolean setTtl(String path, long ttlMs) {
    synchronized (lock) {
      boolean changed = controls.setTtl(path, ttlMs, wallClock.getAsLong());
      nextTtlCheckMs = 0;
      return changed;
    }
  }

  /**
   * Sets a user's or a directory's quota; 0 clears it. Datasets already cached stay.
   *
   * @return false when nothing changed
   * @throws IllegalArgumentException when the name is invalid or the limit negative
   */
  public boolean setQuota(QuotaProto.Kind kind, String name, long limitBytes) {
    synchronized (lock) {
      return controls.setQuota(kind, name, limitBytes);
    }
  }

  /** Replaces the admission filters (the configuration's, at start and on refresh). */
  public void setAdmissionFilter(AdmissionFilter filter) {
    synchronized (lock) {
      controls.setFilter(filter);
    }
  }

  /**
   * Sets the SSD write budget ({@code mpcache.master.admission.write.budget}), bytes per hour
   * per slave, 0 for none; at start, before slaves report (the writes measured so far are
   * forgotten).
   *
   * @throws IllegalArgumentException when it is negative
   */
  public void setWriteBudget(long bytesPerHourPerSlave) {
    synchronized (lock) {
      writeBudget = new WriteBudget(bytesPerHourPerSlave);
    }
  }

  /**
   * A slave's heartbeat counters: the growth of its {@code ssdBytesWritten} counts against the
   * write budget, whose bucket is as deep as the live slaves' {@code inputCacheCapacity}.
   */
  public void onCounters(String slaveId, long ssdBytesWritten, long inputCacheCapacity) {
    synchronized (lock) {
      writeBudget.reported(slaveId, ssdBytesWritten, inputCacheCapacity,
          wallClock.getAsLong());
    }
  }

  /** Every operator control, with each quota's usage now, and the write budget's state. */
  public ControlsProto controls() {
    synchronized (lock) {
      ControlsProto c = controls.report(this::quotaUsed);
      if (writeBudget.bytesPerHourPerSlave() == 0) {
        return c;
      }
      long now = wallClock.getAsLong();
      return c.toBuilder().setWriteBudget(writeBudget.bytesPerHourPerSlave())
          .setWriteBacklogPerSlave(writeBudget.backlogPerSlave(now))
          .setOverWriteBudget(writeBudget.over(now)).build();
    }
  }

  /** Adds the pins, quotas and times to live to the master's checkpoint. */
  public void exportControls(MasterStateProto.Builder state) {
    synchronized (lock) {
      controls.exportTo(state);
    }
  }

  /**
   * Restores the pins, quotas and times to live of the master's checkpoint.
   *
   * @return what was restored, for a log line
   * @throws IllegalArgumentException naming the section and entry when one is invalid; nothing
   *     is restored then
   */
  public String restoreControls(MasterStateProto state) {
    synchronized (lock) {
      controls.restore(state);
      return controls.summary();
    }
  }

  /**
   * A slave's request for Input Cache space back for localized data.
   *
   * @return the slave's blocks to evict now; empty when the policy frees nothing
   */
  public List<BlockKey> onReclaimRequest(String slaveId, long bytes) {
    synchronized (lock) {
      List<BlockKey> evict = policy.onReclaim(slaveId, bytes);
      LOG.debug("Reclaim request of {} for {} bytes: evict {}", slaveId, bytes, evict);
      return evict;
    }
  }

  /**
   * A slave's incremental block report: the policy updates the placement index (the one structure
   * a report changes) and reacts; the catalog hears of removals before, of stored blocks after.
   */
  public void onBlockReport(String slaveId, List<BlockKey> cached, List<BlockKey> removed) {
    synchronized (lock) {
      long now = wallClock.getAsLong();
      boolean draining = registry.isDecommissioning(slaveId);
      for (BlockKey b : cached) {
        policy.onCached(slaveId, b);
        catalog.cached(slaveId, b, draining, now);
      }
      for (BlockKey b : removed) {
        catalog.removed(slaveId, b, now);
        policy.onRemoved(slaveId, b);
      }
    }
  }

  /**
   * Evictions queued for a slave since it last asked: its To_Del entries (with those of datasets
   * whose time to live ran out, checked here), and the evictions operators ordered (evict,
   * decommission).
   */
  public List<BlockKey> takeEvictions(String slaveId) {
    synchronized (lock) {
      expireDue(wallClock.getAsLong());
      List<BlockKey> planned = policy.pendingEvictions(slaveId);
      catalog.policyEvictions(slaveId, planned, wallClock.getAsLong());
      List<BlockKey> ordered = catalog.takeQueued(slaveId);
      if (ordered.isEmpty()) {
        return planned;
      }
      Set<BlockKey> all = new LinkedHashSet<>(planned);
      all.addAll(ordered);
      return new ArrayList<>(all);
    }
  }

  /** A slave expired or left: its blocks are no longer cached anywhere the policy can count. */
  public void onSlaveLost(String slaveId) {
    synchronized (lock) {
      catalog.slaveLost(slaveId, wallClock.getAsLong());
      writeBudget.slaveLost(slaveId);
      policy.onSlaveLost(slaveId);
    }
  }

  /**
   * An operator evicts datasets from every slave: their cached blocks are ordered out with the
   * next heartbeats; the policy forgets them as the slaves report the removals.
   *
   * @return the block replicas ordered out
   */
  public int evictDatasets(List<String> datasetIds) {
    synchronized (lock) {
      int n = 0;
      for (String id : datasetIds) {
        n += catalog.evictDataset(id, wallClock.getAsLong());
      }
      return n;
    }
  }

  /**
   * Starts or stops decommissioning a registered slave. Starting orders out every block it holds;
   * while it lasts the slave is refused admissions and its newly cached blocks are ordered out.
   *
   * @return the block replicas ordered out
   */
  public int decommission(String slaveId, boolean on) {
    synchronized (lock) {
      boolean was = registry.isDecommissioning(slaveId);
      if (!registry.setDecommissioning(slaveId, on) || !on || was) {
        return 0;
      }
      return catalog.drainSlave(slaveId, placement.storedOn(slaveId),
          wallClock.getAsLong());
    }
  }

  /**
   * Replaces the exclude list (slave ids or hosts) and drains the slaves it newly decommissions.
   *
   * @return the slaves newly decommissioning
   */
  public List<String> exclude(Set<String> entries) {
    synchronized (lock) {
      List<String> drained = registry.setExcluded(entries);
      for (String id : drained) {
        catalog.drainSlave(id, placement.storedOn(id), wallClock.getAsLong());
      }
      return drained;
    }
  }

  /**
   * The status of every known dataset {@code filter} accepts, ordered by id, with whether it is
   * pinned and when its time to live runs out.
   */
  public List<DatasetStatusProto> datasets(Predicate<String> filter) {
    synchronized (lock) {
      List<DatasetStatusProto> out = new ArrayList<>();
      for (String id : catalog.datasetIds(filter)) {
        DatasetStatusProto d = catalog.status(id, policy::standing);
        long expires = controls.hasTtls()
            ? controls.expiresAtMs(id, catalog.lastAccessMs(id)) : Long.MAX_VALUE;
        if (controls.pinned(id) || expires != Long.MAX_VALUE) {
          DatasetStatusProto.Builder b = d.toBuilder().setPinned(controls.pinned(id));
          if (expires != Long.MAX_VALUE) {
            b.setExpiresAtMs(expires);
          }
          d = b.build();
        }
        out.add(d);
      }
      return out;
    }
  }

  /**
   * A slave's figures per dataset from its heartbeat (values checked by the caller), kept in the
   * datasets' records ({@link DatasetFigures}).
   */
  public void onDatasetFigures(String slaveId, List<DatasetCountersProto> figures) {
    synchronized (lock) {
      for (DatasetCountersProto p : figures) {
        catalog.figures(slaveId, p);
      }
    }
  }

  /** The {@code n} datasets with the most bytes read, most first ({@link DatasetCatalog}). */
  public List<Map.Entry<String, DatasetFigures.Totals>> topDatasetsByBytesRead(int n) {
    synchronized (lock) {
      return catalog.topByBytesRead(n);
    }
  }

  /** How many datasets the master keeps a record of. */
  public int datasetCount() {
    synchronized (lock) {
      return catalog.size();
    }
  }

  /** The slaves holding or filling a block. */
  public Set<String> holders(BlockKey block) {
    synchronized (lock) {
      return placement.holders(block);
    }
  }

  /** Changes how many records of uncached datasets the catalog keeps (reloadable). */
  public void setMaxDatasets(int max) {
    synchronized (lock) {
      catalog.setMaxDatasets(max);
    }
  }
}
