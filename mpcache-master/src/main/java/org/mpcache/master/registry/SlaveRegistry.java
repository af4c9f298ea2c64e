package org.mpcache.master.registry;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import java.util.function.ToIntFunction;
import javax.annotation.concurrent.GuardedBy;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.AdminProtos.AdoptionProto;
import org.mpcache.common.proto.AdminProtos.SlaveReportProto;
import org.mpcache.common.proto.MpCacheProtos.JobSpacePredictionProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveInfoProto;
import org.mpcache.common.proto.MpCacheProtos.SpaceReportProto;

/**
 * The master's table of live slaves: registration, heartbeats, and the expiry of slaves that
 * stopped heartbeating. It answers "who is alive and what do they hold", the latter from a
 * {@link SlaveHoldings} view of the {@code ReplaceArbitrator}'s placement index; what to cache is
 * the arbitrator's business.
 *
 * <p>Thread-safe: every method but {@link #blocksOf} and {@link #report} takes this object's
 * monitor; those two read the holdings view (and the report the pending HDFS checks) without it
 * (the arbitrator's lock comes first in the master's lock order, the check queue's never meets
 * this monitor). Time comes from the injected monotonic clock.
 */
public final class SlaveRegistry {
  private final LongSupplier clock;
  @GuardedBy("this")
  private long expiryMs;

  @GuardedBy("this")
  private final Map<String, SlaveRecord> slaves = new TreeMap<>();
  /** How many expired slaves the report keeps listing (the longest dead are dropped first). */
  static final int MAX_DEAD = 1024;

  /** Slaves that expired and have not registered again, with their last figures, oldest first. */
  @GuardedBy("this")
  private final Map<String, SlaveRecord> dead = new LinkedHashMap<>();
  /** Slaves an operator decommissioned, by id; kept across re-registrations. */
  @GuardedBy("this")
  private final Set<String> decommissioning = new HashSet<>();
  /** Slave ids or hosts listed in the exclude file: decommissioning whenever they register. */
  @GuardedBy("this")
  private Set<String> excluded = Set.of();
  private volatile SlaveHoldings holdings = SlaveHoldings.NONE;
  /** How many blocks adopted at each slave's registration still wait for their HDFS check. */
  private volatile ToIntFunction<String> checksPending = slaveId -> 0;

  /**
   * @param clock a monotonic clock in milliseconds
   * @param expiryMs how long a slave may stay silent before it is declared dead
   */
  public SlaveRegistry(LongSupplier clock, long expiryMs) {
    this.clock = clock;
    this.expiryMs = expiryMs;
  }

  /** Where the registry reads what each slave holds from; set once, when the master is wired. */
  public void readHoldingsFrom(SlaveHoldings view) {
    this.holdings = view;
  }

  /** Where the report reads how many adopted blocks of a slave wait for their HDFS check. */
  public void readChecksPendingFrom(ToIntFunction<String> view) {
    this.checksPending = view;
  }

  /**
   * Records what became of the blocks a slave held when it registered: kept, or handed back for
   * an unusable dataset record or for passing its Input Cache capacity. No-op for an unknown slave.
   */
  public synchronized void adoption(String slaveId, int kept, int unknownDataset,
      int overCapacity) {
    SlaveRecord r = slaves.get(slaveId);
    if (r != null) {
      r.adopted = kept;
      r.stale = 0;
      r.unknownDataset = unknownDataset;
      r.overCapacity = overCapacity;
    }
  }

  /**
   * Records that {@code n} blocks kept at a slave's registration were ordered out since, HDFS no
   * longer having them. No-op for an unknown slave.
   */
  public synchronized void staleDropped(String slaveId, int n) {
    SlaveRecord r = slaves.get(slaveId);
    if (r != null) {
      int moved = Math.min(n, r.adopted);
      r.adopted -= moved;
      r.stale += moved;
    }
  }

  /**
   * Registers a slave bound to {@code identity}, replacing any earlier registration under the same
   * id, provided the identity holding the id is still {@code holder}: the caller decides with
   * {@link #holder} and {@link SlaveAdmission}, outside this lock, and asks again when the holder
   * changed meanwhile. What the slave holds is the placement index's record, not the registry's.
   *
   * @param holder the identity the caller found holding the id (empty: none)
   * @return whether the slave is registered; false when the holder is no longer {@code holder}
   *     and nothing changed
   */
  public synchronized boolean register(SlaveInfoProto info, SpaceReportProto space,
      SlaveIdentity identity, Optional<SlaveIdentity> holder) {
    if (!holder(info.getSlaveId()).equals(holder)) {
      return false;
    }
    slaves.put(info.getSlaveId(), new SlaveRecord(info, identity, space, clock.getAsLong()));
    dead.remove(info.getSlaveId());
    return true;
  }

  /** The identity that registered a live slave id; empty when the id is not registered. */
  public synchronized Optional<SlaveIdentity> holder(String slaveId) {
    SlaveRecord r = slaves.get(slaveId);
    return r == null ? Optional.empty() : Optional.of(r.identity);
  }

  /**
   * Records a heartbeat with the predictions the slave's running jobs started from; false when the
   * slave is unknown (it must register again).
   */
  public synchronized boolean heartbeat(String slaveId, SpaceReportProto space,
      SlaveCountersProto counters, List<JobSpacePredictionProto> predictions) {
    SlaveRecord r = slaves.get(slaveId);
    if (r == null) {
      return false;
    }
    r.lastHeartbeat = clock.getAsLong();
    r.space = space;
    r.counters = counters;
    r.predictions = List.copyOf(predictions);
    return true;
  }

  /**
   * Asks every registered slave that last reported an SSD directory out of service to return
   * them at its next heartbeat ({@code mpcache admin refresh}).
   *
   * @return the ids of those slaves, ordered
   */
  public synchronized List<String> returnVolumes() {
    List<String> out = new ArrayList<>();
    slaves.forEach((id, r) -> {
      if (r.space.getDirsList().stream().anyMatch(d -> !d.getInService())) {
        r.returnVolumes = true;
        out.add(id);
      }
    });
    out.sort(null);
    return out;
  }

  /** Whether to tell the slave to return its SSD directories now; asked once per refresh. */
  public synchronized boolean takeReturnVolumes(String slaveId) {
    SlaveRecord r = slaves.get(slaveId);
    if (r == null || !r.returnVolumes) {
      return false;
    }
    r.returnVolumes = false;
    return true;
  }

  /** The space a registered slave last reported; empty when it is unknown. */
  public synchronized Optional<SpaceReportProto> space(String slaveId) {
    SlaveRecord r = slaves.get(slaveId);
    return r == null ? Optional.empty() : Optional.of(r.space);
  }

  public synchronized boolean isRegistered(String slaveId) {
    return slaves.containsKey(slaveId);
  }

  /**
   * Removes every slave silent for longer than the expiry.
   *
   * @return the ids of the slaves removed
   */
  public synchronized List<String> expire() {
    long now = clock.getAsLong();
    List<String> expired = new ArrayList<>();
    slaves.values().removeIf(r -> {
      if (now - r.lastHeartbeat > expiryMs) {
        expired.add(r.info.getSlaveId());
        dead.remove(r.info.getSlaveId());
        dead.put(r.info.getSlaveId(), r);
        if (dead.size() > MAX_DEAD) {
          dead.remove(dead.keySet().iterator().next());
        }
        return true;
      }
      return false;
    });
    return expired;
  }

  /** Changes the expiry (a reloadable setting); it applies from the next expiry pass. */
  public synchronized void setExpiryMs(long expiryMs) {
    this.expiryMs = expiryMs;
  }

  public synchronized long expiryMs() {
    return expiryMs;
  }

  /**
   * Marks a registered slave as decommissioned by an operator (or not). A slave the exclude file
   * lists stays decommissioning either way.
   *
   * @return false when no slave is registered under that id
   */
  public synchronized boolean setDecommissioning(String slaveId, boolean on) {
    if (!slaves.containsKey(slaveId)) {
      return false;
    }
    if (on) {
      decommissioning.add(slaveId);
    } else {
      decommissioning.remove(slaveId);
    }
    return true;
  }

  /**
   * Replaces the exclude list (slave ids or hosts).
   *
   * @return the registered slaves that were serving and are decommissioning now
   */
  public synchronized List<String> setExcluded(Set<String> entries) {
    List<String> before = decommissioning();
    excluded = Set.copyOf(entries);
    List<String> now = decommissioning();
    now.removeAll(before);
    return now;
  }

  /**
   * The slave ids an operator decommissioned, registered or not, ordered; not the slaves the
   * exclude file names (it is read again at start).
   */
  public synchronized List<String> decommissionFlags() {
    List<String> out = new ArrayList<>(decommissioning);
    out.sort(null);
    return out;
  }

  /**
   * Marks slave ids as decommissioned by an operator, whether registered or not: a restarted
   * master's flags, restored before slaves register, so that each drains when it registers.
   */
  public synchronized void restoreDecommissioned(Collection<String> slaveIds) {
    decommissioning.addAll(slaveIds);
  }

  public synchronized boolean isDecommissioning(String slaveId) {
    if (decommissioning.contains(slaveId) || excluded.contains(slaveId)) {
      return true;
    }
    SlaveRecord r = slaves.get(slaveId);
    return r != null && excluded.contains(r.info.getHost());
  }

  /** The ids of the registered slaves being decommissioned, ordered. */
  public synchronized List<String> decommissioning() {
    List<String> out = new ArrayList<>();
    for (String id : slaves.keySet()) {
      if (isDecommissioning(id)) {
        out.add(id);
      }
    }
    return out;
  }

  /** The blocks a registered slave holds; empty when it is unknown. */
  public List<BlockKey> blocksOf(String slaveId) {
    return isRegistered(slaveId) ? holdings.storedOn(slaveId) : List.of();
  }

  /** The live slaves clients may read from: every registered slave not being decommissioned. */
  public synchronized List<SlaveInfoProto> servingSlaves() {
    List<SlaveInfoProto> out = new ArrayList<>(slaves.size());
    for (SlaveRecord r : slaves.values()) {
      if (!isDecommissioning(r.info.getSlaveId())) {
        out.add(r.info);
      }
    }
    return out;
  }

  /** Removes one slave (it is shutting down); returns whether it was registered. */
  public synchronized boolean remove(String slaveId) {
    return slaves.remove(slaveId) != null;
  }

  /** The addresses of every registered slave, ordered by id. */
  public synchronized List<SlaveInfoProto> liveSlaves() {
    List<SlaveInfoProto> out = new ArrayList<>(slaves.size());
    for (SlaveRecord r : slaves.values()) {
      out.add(r.info);
    }
    return out;
  }

  /**
   * One report line per registered slave, ordered by id, then one per slave that expired and has
   * not come back (live false, its last figures; the most recent {@value #MAX_DEAD}).
   */
  public List<SlaveReportProto> report() {
    List<SlaveReportProto> out;
    synchronized (this) {
      long now = clock.getAsLong();
      out = new ArrayList<>(slaves.size() + dead.size());
      addReports(out, slaves.values(), true, now);
      addReports(out, dead.values(), false, now);
    }
    SlaveHoldings view = holdings;
    ToIntFunction<String> pending = checksPending;
    out.replaceAll(r -> r.getLive() ? r.toBuilder()
        .setCachedBlocks(view.storedCount(r.getSlave().getSlaveId()))
        .setAdoption(r.getAdoption().toBuilder()
            .setChecksPending(pending.applyAsInt(r.getSlave().getSlaveId())))
        .build() : r);
    return out;
  }

  @GuardedBy("this")
  private void addReports(List<SlaveReportProto> out, Collection<SlaveRecord> records,
      boolean live, long now) {
    for (SlaveRecord r : records) {
      out.add(SlaveReportProto.newBuilder().setSlave(r.info).setLive(live)
          .setLastHeartbeatAgeMs(Math.max(0, now - r.lastHeartbeat)).setSpace(r.space)
          .setCounters(r.counters).setCachedBlocks(0) // a live slave's is set by report()
          .setAdoption(AdoptionProto.newBuilder().setAdopted(r.adopted).setStale(r.stale)
              .setUnknownDataset(r.unknownDataset).setOverCapacity(r.overCapacity)
              .setChecksPending(0)) // a live slave's is set by report()
          .setDecommissioning(live && isDecommissioning(r.info.getSlaveId()))
          .addAllPredictions(live ? r.predictions : List.of()).build());
    }
  }

  /** Slaves that expired and have not registered again. */
  public synchronized int deadCount() {
    return dead.size();
  }

  /** Registered slaves. */
  public synchronized int liveCount() {
    return slaves.size();
  }
}
