package org.mpcache.master.arbitrator;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.mpcache.common.BlockKey;

/** Placeholder factory until the policy package lands: admits while the slave has room. */
public final class CachePolicies {
  private CachePolicies() {
  }

  public static CachePolicy create(String name, Configuration conf) {
    return new CachePolicy() {
      private final Map<String, List<BlockKey>> none = new HashMap<>();

      @Override
      public String name() {
        return name;
      }

      @Override
      public void onHit(BlockAccess access) {
      }

      @Override
      public CacheDecision onMiss(BlockAccess access, long slaveFreeBytes) {
        return slaveFreeBytes >= access.blockBytes()
            ? CacheDecision.admit(CacheDecision.Reason.ADMITTED_FREE_SPACE, List.of())
            : CacheDecision.reject(CacheDecision.Reason.REJECTED_NOT_PROFITABLE);
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
        return new ArrayList<>(none.getOrDefault(slaveId, List.of()));
      }
    };
  }
}
