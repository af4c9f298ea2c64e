package org.mpcache.master.arbitrator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.mpcache.common.BlockKey;
import org.mpcache.master.arbitrator.CacheDecision.Reason;

/**
 * Walks Algorithm 1 and the admission control branch by branch. Blocks are 1 byte, so free space
 * counts blocks; {@code Full} is 10 so that its presence is obvious in every priority. Each
 * expected priority is worked out by hand from {@code Pr = Full + Clock + Blocks_Access/Size^2}.
 */
class MpCachePolicyTest {
  private static final double EPS = 1e-12;
  private final MpCachePolicy policy =
      MpCachePolicy.mpCache(PolicyParameters.builder().fullBonus(10).build());

  static BlockKey key(String dataset, int block) {
    return new BlockKey("BP-1", dataset.hashCode() * 1000L + block, 1);
  }

  static BlockAccess access(String slave, String dataset, int block, int size, String job) {
    return new BlockAccess(slave, key(dataset, block), 1, dataset, size, job, 0);
  }

  private double priority(String dataset) {
    return policy.priorityOf(dataset).orElseThrow();
  }

  @Test
  void onHit_countsBlockAccessAndLeavesClock() {
    policy.onMiss(access("s1", "a", 0, 2, "j1"), 10);
    assertEquals(0.25, priority("a"), EPS); // 0 + 0 + (1/2)/2
    policy.onHit(access("s1", "a", 0, 2, "j2"));
    assertEquals(0.5, priority("a"), EPS); // 0 + 0 + (2/2)/2
    assertEquals(0, policy.clock(), EPS);
  }

  @Test
  void onMiss_freeSpace_cachesWithoutEvicting() {
    CacheDecision d = policy.onMiss(access("s1", "a", 0, 1, "j1"), 1);
    assertEquals(Reason.ADMITTED_FREE_SPACE, d.reason());
    assertEquals(List.of(), d.evict());
    assertEquals(11, priority("a"), EPS); // Full 10 + 0 + (1/1)/1
  }

  @Test
  void onMiss_fullBonus_setWhenLastBlockCachedAndClearedWhenBlockRemoved() {
    policy.onMiss(access("s1", "a", 0, 2, "j1"), 10);
    assertEquals(0.25, priority("a"), EPS); // incomplete: 0 + 0 + (1/2)/2
    policy.onMiss(access("s2", "a", 1, 2, "j1"), 10);
    assertEquals(10.5, priority("a"), EPS); // complete: 10 + 0 + (2/2)/2
    policy.onRemoved("s2", key("a", 1));
    assertEquals(0.5, priority("a"), EPS); // incomplete again: 0 + 0 + (2/2)/2
  }

  @Test
  void onMiss_notInAuxiliaryCache_rejectedAndRemembered() {
    policy.onMiss(access("s1", "a", 0, 1, "j1"), 1);
    CacheDecision first = policy.onMiss(access("s1", "c", 0, 1, "j2"), 0);
    assertEquals(Reason.REJECTED_NOT_IN_AUXILIARY_CACHE, first.reason());
    assertTrue(policy.isCached("a"));
    CacheDecision second = policy.onMiss(access("s1", "c", 0, 1, "j3"), 0);
    assertEquals(Reason.ADMITTED_BY_REPLACEMENT, second.reason());
  }

  @Test
  void onMiss_newVictim_evictsLowestDatasetEverywhereAndRaisesClock() {
    policy.onMiss(access("s1", "a", 0, 2, "j1"), 2); // access 1
    policy.onMiss(access("s2", "a", 1, 2, "j1"), 1);
    assertEquals(10.5, priority("a"), EPS); // 10 + 0 + (2/2)/2
    policy.onMiss(access("s1", "b", 0, 1, "j2"), 1); // access 2
    assertEquals(11, priority("b"), EPS); // 10 + 0 + 1
    policy.onMiss(access("s1", "c", 0, 1, "j3"), 0); // access 3: rejected, now remembered
    // Access 4 of c: gain 1/(1*(4-3)) = 1; victim a (lowest on s1): 1/(2*(4-1)) = 1/6.
    CacheDecision d = policy.onMiss(access("s1", "c", 0, 1, "j4"), 0);
    assertEquals(Reason.ADMITTED_BY_REPLACEMENT, d.reason());
    assertEquals(List.of(key("a", 0)), d.evict());
    assertEquals(10.5, policy.clock(), EPS);
    assertFalse(policy.isCached("a"));
    assertEquals(List.of(key("a", 1)), policy.pendingEvictions("s2"));
    assertEquals(List.of(), policy.pendingEvictions("s2"));
    assertEquals(11, priority("b"), EPS); // untouched
    assertEquals(21.5, priority("c"), EPS); // 10 + 10.5 + 1
  }

  @Test
  void onMiss_toDelHoldsNode_returnsItsBlocksWithoutNewVictim() {
    policy.onMiss(access("s1", "a", 0, 2, "j1"), 2); // room for all of a: admitted on sight
    policy.onMiss(access("s2", "a", 1, 2, "j1"), 1);
    policy.onMiss(access("s1", "c", 0, 1, "j2"), 0);
    policy.onMiss(access("s1", "c", 0, 1, "j3"), 0); // evicts a: a/1 now in To_Del for s2
    assertEquals(10.5, policy.clock(), EPS);
    // s2 is full, but To_Del holds it: d is admitted although it was never seen before.
    CacheDecision d = policy.onMiss(access("s2", "d", 0, 1, "j4"), 0);
    assertEquals(Reason.ADMITTED_BY_REPLACEMENT, d.reason());
    assertEquals(List.of(key("a", 1)), d.evict());
    assertEquals(10.5, policy.clock(), EPS);
    assertTrue(policy.isCached("c"));
    assertEquals(21.5, priority("d"), EPS); // 10 + 10.5 + 1
  }

  @Test
  void onMiss_inAuxiliaryCacheButNotProfitable_rejected() {
    policy.onMiss(access("s1", "a", 0, 1, "j1"), 1); // access 1
    policy.onMiss(access("s1", "c", 0, 1, "j2"), 0); // access 2: rejected, remembered
    policy.onHit(access("s1", "a", 0, 1, "j3")); // access 3
    policy.onHit(access("s1", "a", 0, 1, "j4")); // access 4
    assertEquals(13, priority("a"), EPS); // 10 + 0 + 3
    // Access 5 of c: gain 1/(1*(5-2)) = 1/3; victim a: 1/(1*(5-4)) = 1. Not profitable.
    CacheDecision d = policy.onMiss(access("s1", "c", 0, 1, "j5"), 0);
    assertEquals(Reason.REJECTED_NOT_PROFITABLE, d.reason());
    assertTrue(policy.isCached("a"));
    assertEquals(0, policy.clock(), EPS);
  }

  @Test
  void onMiss_clusterHasRoomForWholeDataset_admitsUnseenDataset() {
    policy.onMiss(access("s2", "a", 0, 1, "j1"), 3); // s2 reports 3 free, 2 left after a
    CacheDecision d = policy.onMiss(access("s1", "c", 0, 3, "j2"), 1); // 1 + 2 >= 3 blocks of c
    assertEquals(Reason.ADMITTED_FREE_SPACE, d.reason());
  }

  @Test
  void onMiss_victimsOfWholeDatasetOutweighGain_rejected() {
    policy.onMiss(access("s1", "a", 0, 1, "j1"), 2); // access 1
    policy.onMiss(access("s1", "b", 0, 1, "j2"), 1); // access 2
    policy.onMiss(access("s1", "c", 0, 2, "j3"), 0); // access 3: rejected, remembered
    // Access 4 of c (2 blocks, no room): gain 1/(2*(4-3)) = 1/2. Room for both blocks needs a and
    // b: 1/(1*(4-1)) + 1/(1*(4-2)) = 5/6. One block alone would only displace a (1/3).
    CacheDecision d = policy.onMiss(access("s1", "c", 0, 2, "j4"), 0);
    assertEquals(Reason.REJECTED_NOT_PROFITABLE, d.reason());
    assertTrue(policy.isCached("a"));
    assertTrue(policy.isCached("b"));
  }

  @Test
  void onMiss_datasetAlreadyCached_admittedWithoutAdmissionControl() {
    policy.onMiss(access("s1", "a", 0, 2, "j1"), 2); // room for all of a: admitted on sight
    policy.onMiss(access("s2", "b", 0, 1, "j2"), 1);
    assertEquals(0.25, priority("a"), EPS);
    assertEquals(11, priority("b"), EPS);
    // a outranks nothing, yet its second block displaces b: a is already in the main cache.
    CacheDecision d = policy.onMiss(access("s2", "a", 1, 2, "j1"), 0);
    assertEquals(Reason.ADMITTED_DATASET_CACHED, d.reason());
    assertEquals(List.of(key("b", 0)), d.evict());
    assertEquals(11, policy.clock(), EPS);
    assertEquals(21.5, priority("a"), EPS); // 10 + 11 + (2/2)/2
  }

  @Test
  void onMiss_onlyOwnDatasetOnSlave_rejectedAndKept() {
    policy.onMiss(access("s1", "a", 0, 2, "j1"), 2);
    CacheDecision d = policy.onMiss(access("s1", "a", 1, 2, "j1"), 0);
    assertEquals(Reason.REJECTED_TOO_LARGE, d.reason());
    assertTrue(policy.isCached("a"));
    assertEquals(0.25, priority("a"), EPS);
  }

  @Test
  void onMiss_victimWithoutBlocksOnRequester_skipped() {
    policy.onMiss(access("s1", "a", 0, 1, "j1"), 1); // lowest, but only on s1
    policy.onHit(access("s1", "a", 0, 1, "j1"));
    policy.onMiss(access("s2", "b", 0, 1, "j2"), 1);
    policy.onHit(access("s2", "b", 0, 1, "j3"));
    policy.onHit(access("s2", "b", 0, 1, "j4"));
    assertTrue(priority("a") < priority("b"));
    CacheDecision d = policy.onMiss(access("s2", "a", 0, 1, "j5"), 0);
    assertEquals(Reason.ADMITTED_DATASET_CACHED, d.reason());
    assertEquals(List.of(key("b", 0)), d.evict());
    assertTrue(policy.isCached("a"));
  }

  @Test
  void onMiss_auxiliaryCacheFull_forgetsLeastRecentDataset() {
    MpCachePolicy small = MpCachePolicy.mpCache(
        PolicyParameters.builder().fullBonus(10).auxiliaryCacheDatasets(1).build());
    small.onMiss(access("s1", "a", 0, 1, "j1"), 1);
    small.onMiss(access("s1", "c", 0, 1, "j2"), 0); // c remembered
    small.onMiss(access("s1", "e", 0, 1, "j3"), 0); // e pushes c out (capacity 1)
    CacheDecision d = small.onMiss(access("s1", "c", 0, 1, "j4"), 0);
    assertEquals(Reason.REJECTED_NOT_IN_AUXILIARY_CACHE, d.reason());
  }

  @Test
  void onMiss_auxiliaryEntryOlderThanMaxAge_rejected() {
    MpCachePolicy aging = MpCachePolicy.mpCache(
        PolicyParameters.builder().auxiliaryMaxAgeMillis(1000).build());
    aging.onMiss(new BlockAccess("s1", key("a", 0), 1, "a", 1, "j1", 0), 1);
    aging.onMiss(new BlockAccess("s1", key("c", 0), 1, "c", 1, "j2", 0), 0);
    CacheDecision late = aging.onMiss(new BlockAccess("s1", key("c", 0), 1, "c", 1, "j3", 1001), 0);
    assertEquals(Reason.REJECTED_NOT_IN_AUXILIARY_CACHE, late.reason());
    CacheDecision soon = aging.onMiss(new BlockAccess("s1", key("c", 0), 1, "c", 1, "j4", 1500), 0);
    assertEquals(Reason.ADMITTED_BY_REPLACEMENT, soon.reason());
  }

  @Test
  void onMiss_sameJobReadingMoreBlocks_isOneDatasetAccess() {
    policy.onMiss(access("s1", "a", 0, 3, "j1"), 9);
    policy.onMiss(access("s1", "a", 1, 3, "j1"), 9);
    policy.onMiss(access("s1", "a", 2, 3, "j1"), 9);
    policy.onMiss(access("s1", "b", 0, 1, "j2"), 9);
    assertEquals(2, policy.datasetAccesses());
    policy.onHit(access("s1", "b", 0, 1, ""));
    policy.onHit(access("s1", "b", 0, 1, ""));
    assertEquals(4, policy.datasetAccesses());
  }

  @Test
  void onCached_afterDatasetEvicted_queuesBlockForDeletion() {
    policy.onCached("s3", key("z", 0));
    assertEquals(List.of(key("z", 0)), policy.pendingEvictions("s3"));
  }

  @Test
  void onSlaveLost_forgetsItsBlocksAndEmptyDatasets() {
    policy.onMiss(access("s1", "a", 0, 2, "j1"), 2);
    policy.onMiss(access("s2", "a", 1, 2, "j1"), 1);
    policy.onMiss(access("s2", "b", 0, 1, "j2"), 1);
    policy.onSlaveLost("s2");
    assertFalse(policy.isCached("b"));
    assertEquals(0.5, priority("a"), EPS); // incomplete now: 0 + 0 + (2/2)/2
    assertEquals(1, policy.cachedBlocks());
  }
}
