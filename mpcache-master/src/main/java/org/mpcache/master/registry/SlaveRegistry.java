package org.mpcache.master.registry;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import javax.annotation.concurrent.GuardedBy;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.AdminProtos.SlaveReportProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveInfoProto;
import org.mpcache.common.proto.MpCacheProtos.SpaceReportProto;

/**
 * The master's table of live slaves: registration, heartbeats, which blocks each slave holds, and
 * the expiry of slaves that stopped heartbeating. It answers "who is alive and what do they hold";
 * what to cache is the {@code ReplaceArbitrator}'s business.
 *
 * <p>Thread-safe: every method takes this object's monitor. Time comes from the injected
 * monotonic clock.
 */
public final class SlaveRegistry {
  private final LongSupplier clock;
  private final long expiryMs;

  @GuardedBy("this")
  private final Map<String, SlaveRecord> slaves = new TreeMap<>();

  /**
   * @param clock a monotonic clock in milliseconds
   * @param expiryMs how long a slave may stay silent before it is declared dead
   */
  public SlaveRegistry(LongSupplier clock, long expiryMs) {
    this.clock = clock;
    this.expiryMs = expiryMs;
  }

  /**
   * Registers a slave, replacing any earlier registration under the same id.
   *
   * @return the blocks the earlier registration held, which the caller must forget
   */
  public synchronized List<BlockKey> register(SlaveInfoProto info, SpaceReportProto space) {
    SlaveRecord old = slaves.put(info.getSlaveId(), new SlaveRecord(info, space, clock.getAsLong()));
    return old == null ? List.of() : new ArrayList<>(old.blocks);
  }

  /** Records a heartbeat; false when the slave is unknown (it must register again). */
  public synchronized boolean heartbeat(String slaveId, SpaceReportProto space,
      SlaveCountersProto counters) {
    SlaveRecord r = slaves.get(slaveId);
    if (r == null) {
      return false;
    }
    r.lastHeartbeat = clock.getAsLong();
    r.space = space;
    r.counters = counters;
    return true;
  }

  public synchronized boolean isRegistered(String slaveId) {
    return slaves.containsKey(slaveId);
  }

  /** Records that a slave now holds a block; false when the slave is unknown. */
  public synchronized boolean addBlock(String slaveId, BlockKey block) {
    SlaveRecord r = slaves.get(slaveId);
    if (r == null) {
      return false;
    }
    r.blocks.add(block);
    return true;
  }

  /** Records that a slave no longer holds a block; false when the slave is unknown. */
  public synchronized boolean removeBlock(String slaveId, BlockKey block) {
    SlaveRecord r = slaves.get(slaveId);
    if (r == null) {
      return false;
    }
    r.blocks.remove(block);
    return true;
  }

  /**
   * Removes every slave silent for longer than the expiry.
   *
   * @return the ids of the slaves removed
   */
  public synchronized List<String> expire() {
    long now = clock.getAsLong();
    List<String> dead = new ArrayList<>();
    slaves.values().removeIf(r -> {
      if (now - r.lastHeartbeat > expiryMs) {
        dead.add(r.info.getSlaveId());
        return true;
      }
      return false;
    });
    return dead;
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

  /** One report line per registered slave, ordered by id. */
  public synchronized List<SlaveReportProto> report() {
    long now = clock.getAsLong();
    Collection<SlaveRecord> all = slaves.values();
    List<SlaveReportProto> out = new ArrayList<>(all.size());
    for (SlaveRecord r : all) {
      out.add(SlaveReportProto.newBuilder().setSlave(r.info).setLive(true)
          .setLastHeartbeatAgeMs(Math.max(0, now - r.lastHeartbeat)).setSpace(r.space)
          .setCounters(r.counters).setCachedBlocks(r.blocks.size()).build());
    }
    return out;
  }
}
