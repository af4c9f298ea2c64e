package org.mpcache.master.arbitrator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.master.arbitrator.MpCachePolicyTest.access;
import static org.mpcache.master.arbitrator.MpCachePolicyTest.key;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.mpcache.master.arbitrator.CacheDecision.Reason;

/** The baselines' eviction orders, one scenario each, with 1-byte blocks. */
class BaselinePoliciesTest {
  private final PolicyParameters params = PolicyParameters.defaults();

  @Test
  void gdsf_admitsUnseenDatasetAndEvictsLowestPriority() {
    MpCachePolicy gdsf = MpCachePolicy.gdsf(params);
    gdsf.onMiss(access("s1", "a", 0, 1, "j1"), 2);
    gdsf.onMiss(access("s1", "b", 0, 2, "j2"), 1);
    assertEquals(1, gdsf.priorityOf("a").orElseThrow(), 1e-12); // no Full: 0 + 1/1
    assertEquals(0.25, gdsf.priorityOf("b").orElseThrow(), 1e-12); // 0 + (1/2)/2
    CacheDecision d = gdsf.onMiss(access("s1", "c", 0, 1, "j3"), 0);
    assertEquals(Reason.ADMITTED_BY_REPLACEMENT, d.reason());
    assertEquals(List.of(key("b", 0)), d.evict());
    assertEquals(0.25, gdsf.clock(), 1e-12);
  }

  @Test
  void life_evictsIncompleteLargestWaveWidthFirst() {
    PacManPolicy life = PacManPolicy.life(params);
    life.onMiss(access("s1", "small", 0, 2, "j1"), 3); // incomplete, width 2
    life.onMiss(access("s1", "large", 0, 5, "j2"), 2); // incomplete, width 5
    life.onMiss(access("s1", "whole", 0, 1, "j3"), 1); // complete, width 1
    CacheDecision d = life.onMiss(access("s1", "new", 0, 1, "j4"), 0);
    assertEquals(List.of(key("large", 0)), d.evict());
    d = life.onMiss(access("s1", "new2", 0, 1, "j5"), 0);
    assertEquals(List.of(key("small", 0)), d.evict());
    assertTrue(life.isCached("whole"));
  }

  @Test
  void lfuF_evictsIncompleteLeastFrequentFirst() {
    PacManPolicy lfuF = PacManPolicy.lfuF(params);
    lfuF.onMiss(access("s1", "often", 0, 2, "j1"), 3);
    lfuF.onHit(access("s1", "often", 0, 2, "j2"));
    lfuF.onMiss(access("s1", "once", 0, 2, "j3"), 2);
    lfuF.onMiss(access("s1", "whole", 0, 1, "j4"), 1); // complete, accessed once
    CacheDecision d = lfuF.onMiss(access("s1", "new", 0, 1, "j5"), 0);
    assertEquals(List.of(key("once", 0)), d.evict());
    assertTrue(lfuF.isCached("whole"));
    assertTrue(lfuF.isCached("often"));
  }

  @Test
  void lfuF_agedCounts_recentAccessOutweighsOldOnes() {
    PacManPolicy lfuF = PacManPolicy.lfuF(
        PolicyParameters.builder().frequencyHalfLifeAccesses(1).build());
    lfuF.onMiss(access("s1", "old", 0, 2, "j1"), 2); // weight 2^1
    lfuF.onHit(access("s1", "old", 0, 2, "j2")); // weight 2^2: total 6
    lfuF.onMiss(access("s1", "recent", 0, 2, "j3"), 1); // weight 2^3 = 8 > 6
    CacheDecision d = lfuF.onMiss(access("s1", "new", 0, 1, "j4"), 0);
    assertEquals(List.of(key("old", 0)), d.evict());
  }

  @Test
  void lru_evictsLeastRecentlyUsedBlockOfTheSlave() {
    BlockCachePolicy lru = BlockCachePolicy.lru();
    lru.onMiss(access("s1", "a", 0, 2, "j1"), 2);
    lru.onMiss(access("s1", "a", 1, 2, "j1"), 1);
    lru.onHit(access("s1", "a", 0, 2, "j2"));
    CacheDecision d = lru.onMiss(access("s1", "b", 0, 1, "j3"), 0);
    assertEquals(Reason.ADMITTED_BY_REPLACEMENT, d.reason());
    assertEquals(List.of(key("a", 1)), d.evict());
  }

  @Test
  void lfu_evictsLeastFrequentlyUsedBlockOfTheSlave() {
    BlockCachePolicy lfu = BlockCachePolicy.lfu();
    lfu.onMiss(access("s1", "a", 0, 2, "j1"), 2);
    lfu.onMiss(access("s1", "a", 1, 2, "j1"), 1);
    lfu.onHit(access("s1", "a", 1, 2, "j2"));
    lfu.onHit(access("s1", "a", 0, 2, "j3"));
    lfu.onHit(access("s1", "a", 0, 2, "j4"));
    CacheDecision d = lfu.onMiss(access("s1", "b", 0, 1, "j5"), 0);
    assertEquals(List.of(key("a", 1)), d.evict());
  }

  @Test
  void lru_blockLargerThanSlave_rejected() {
    BlockCachePolicy lru = BlockCachePolicy.lru();
    CacheDecision d = lru.onMiss(access("s1", "a", 0, 1, "j1"), 0);
    assertEquals(Reason.REJECTED_TOO_LARGE, d.reason());
  }

  @Test
  void none_neverAdmits() {
    CacheDecision d = new NullCachePolicy().onMiss(access("s1", "a", 0, 1, "j1"), 100);
    assertFalse(d.admitted());
    assertEquals(Reason.REJECTED_BY_POLICY, d.reason());
  }
}
