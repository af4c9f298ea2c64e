package org.mpcache.master.arbitrator;

import java.util.ArrayList;
import java.util.List;
import javax.annotation.concurrent.GuardedBy;
import org.mpcache.common.BlockKey;
import org.mpcache.master.registry.SlaveRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The master's Replace Arbitrator (paper Section 2): the mechanism around a {@link CachePolicy}. It
 * serializes the events slaves report into the policy, keeps the {@link SlaveRegistry}'s view of
 * which slave holds which block in step with the policy's, and hands each slave the evictions
 * planned for it.
 *
 * <p>Thread-safe. Lock order: (1) this arbitrator's lock, (2) the registry's monitor; the registry
 * never calls back into the arbitrator.
 */
public final class ReplaceArbitrator {
  private static final Logger LOG = LoggerFactory.getLogger(ReplaceArbitrator.class);

  private final Object lock = new Object();
  @GuardedBy("lock")
  private final CachePolicy policy;
  private final SlaveRegistry registry;

  public ReplaceArbitrator(CachePolicy policy, SlaveRegistry registry) {
    this.policy = policy;
    this.registry = registry;
  }

  public String policyName() {
    return policy.name();
  }

  /**
   * A slave (re)registers holding {@code survivingBlocks} from an earlier run. The policy has no
   * dataset identity for them, so they are all handed back for eviction; the blocks a previous
   * registration under the same id held are forgotten.
   *
   * @return the blocks the slave must evict
   */
  public List<BlockKey> onRegister(String slaveId, List<BlockKey> previousBlocks,
      List<BlockKey> survivingBlocks) {
    synchronized (lock) {
      if (!previousBlocks.isEmpty()) {
        policy.onSlaveLost(slaveId);
      }
      return new ArrayList<>(survivingBlocks);
    }
  }

  /** Blocks served from a slave's cache (Algorithm 1 lines 1-5). */
  public void onHits(List<BlockAccess> hits) {
    synchronized (lock) {
      for (BlockAccess a : hits) {
        policy.onHit(a);
      }
    }
  }

  /** A slave's replace request (Algorithm 1 lines 6-32). */
  public CacheDecision onReplaceRequest(BlockAccess access, long freeBytes) {
    synchronized (lock) {
      CacheDecision d = policy.onMiss(access, freeBytes);
      LOG.debug("Replace request {} with {} bytes free: {}", access, freeBytes, d);
      return d;
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

  /** A slave's incremental block report. */
  public void onBlockReport(String slaveId, List<BlockKey> cached, List<BlockKey> removed) {
    synchronized (lock) {
      for (BlockKey b : cached) {
        registry.addBlock(slaveId, b);
        policy.onCached(slaveId, b);
      }
      for (BlockKey b : removed) {
        registry.removeBlock(slaveId, b);
        policy.onRemoved(slaveId, b);
      }
    }
  }

  /** Evictions queued for a slave since it last asked (its To_Del entries). */
  public List<BlockKey> takeEvictions(String slaveId) {
    synchronized (lock) {
      return policy.pendingEvictions(slaveId);
    }
  }

  /** A slave expired or left: its blocks are no longer cached anywhere the policy can count. */
  public void onSlaveLost(String slaveId) {
    synchronized (lock) {
      policy.onSlaveLost(slaveId);
    }
  }
}
