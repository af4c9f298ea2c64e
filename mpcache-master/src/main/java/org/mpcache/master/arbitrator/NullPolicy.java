package org.mpcache.master.arbitrator;

import java.util.List;
import java.util.Set;
import org.mpcache.common.BlockKey;

/**
 * The policy that never admits a block: with it the daemons run and count, and every read goes to
 * HDFS. Useful to measure the cache's own overhead. Blocks slaves report or the master adopts
 * nonetheless are kept in the index, not evicted. Not thread-safe (the caller serializes calls).
 */
final class NullPolicy extends IndexedPolicy {

  NullPolicy(PlacementIndex placement) {
    super(placement);
  }

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
  void afterAdopted(String slaveId, BlockKey block, long blockBytes, String datasetId,
      int datasetBlocks) {
  }

  @Override
  void onStray(String slaveId, BlockKey block) {
  }

  @Override
  public List<BlockKey> pendingEvictions(String slaveId) {
    return List.of();
  }

  @Override
  public Set<String> slavesWithPendingEvictions() {
    return Set.of();
  }
}
