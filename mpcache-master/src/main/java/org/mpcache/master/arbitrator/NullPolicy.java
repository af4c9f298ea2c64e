package org.mpcache.master.arbitrator;

import java.util.List;
import org.mpcache.common.BlockKey;

/**
 * The policy that never admits a block: with it the daemons run and count, and every read goes to
 * HDFS. Useful to measure the cache's own overhead. Stateless; thread-safe.
 */
final class NullPolicy implements CachePolicy {

  @Override
  public String name() {
    return CachePolicies.NONE;
  }

  @Override
  public void onHit(BlockAccess access) {
  }

  @Override
  public CacheDecision onMiss(BlockAccess access, long slaveFreeBytes) {
    return CacheDecision.reject(CacheDecision.Reason.REJECTED_BY_POLICY);
  }

  @Override
  public void onCached(String slaveId, BlockKey block) {
  }

  @Override
  public void onRemoved(String slaveId, BlockKey block) {
  }

  @Override
  public void onSlaveLost(String slaveId) {
  }

  @Override
  public List<BlockKey> pendingEvictions(String slaveId) {
    return List.of();
  }
}
