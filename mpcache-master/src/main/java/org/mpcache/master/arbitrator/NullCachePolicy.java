package org.mpcache.master.arbitrator;

import java.util.List;
import org.mpcache.common.BlockKey;

/**
 * The null policy, "none": never admits a block, so the cluster runs as plain Hadoop. The
 * reference point every other policy's speedup is measured against, and the safe choice when the
 * Input Cache must be switched off without stopping the daemons.
 *
 * <p>Stateless and thread-safe.
 */
public final class NullCachePolicy implements CachePolicy {
  /** The name the null policy is selected by. */
  public static final String NAME = "none";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onHit(BlockAccess access) {
    // Nothing is cached, so nothing is ranked.
  }

  @Override
  public CacheDecision onMiss(BlockAccess access, long slaveFreeBytes) {
    return CacheDecision.reject(CacheDecision.Reason.REJECTED_BY_POLICY);
  }

  @Override
  public void onCached(String slaveId, BlockKey block) {
    // Never admitted, so never expected.
  }

  @Override
  public void onRemoved(String slaveId, BlockKey block) {
    // Nothing is tracked.
  }

  @Override
  public void onSlaveLost(String slaveId) {
    // Nothing is tracked.
  }

  @Override
  public List<BlockKey> pendingEvictions(String slaveId) {
    return List.of();
  }
}
