package org.mpcache.master.arbitrator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.mpcache.common.BlockKey;

/**
 * The mpcache policy freeing Input Cache space for localized data (paper Section 2.1, by Algorithm
 * 1's replacement): whole lowest-priority datasets, the requester's blocks returned, the others
 * queued in To_Del, nothing evicted when not enough can be freed.
 */
class MpCachePolicyReclaimTest {
  private static final double EPS = 1e-12;
  private final MpCachePolicy policy =
      new MpCachePolicy(new PolicyParameters(1.0, 16), new PlacementIndex());

  private static BlockKey block(long id) {
    return new BlockKey("BP-1", id, 1);
  }

  private void cache(String slave, long block, String dataset, int size, String job) {
    CacheDecision d = policy.onMiss(new BlockAccess(slave, block(block), 100, dataset, size, job,
        0), 1_000);
    assertTrue(d.admitted());
    policy.onCached(slave, block(block));
  }

  @Test
  void onReclaim_evictsTheLowestPriorityDatasetEverywhere() {
    cache("s1", 1, "A", 2, "jA");
    cache("s2", 2, "A", 2, "jA");
    cache("s1", 3, "B", 2, "jB");
    cache("s1", 4, "B", 2, "jB");
    policy.onHit(new BlockAccess("s1", block(3), 100, "B", 2, "jB2", 0));
    double priorityOfA = policy.priorityOf("A");
    assertTrue(priorityOfA < policy.priorityOf("B"));

    assertEquals(List.of(block(1)), policy.onReclaim("s1", 50));
    assertEquals(List.of(block(2)), policy.pendingEvictions("s2"), "To_Del of the other slave");
    assertTrue(Double.isNaN(policy.priorityOf("A")), "A left the main cache");
    assertEquals(priorityOfA, policy.clock(), EPS, "Clock raised to the victim's priority");
    assertFalse(Double.isNaN(policy.priorityOf("B")));
  }

  @Test
  void onReclaim_moreThanTheSlaveHolds_evictsNothing() {
    cache("s1", 1, "A", 1, "jA");
    cache("s2", 2, "B", 1, "jB");
    assertEquals(List.of(), policy.onReclaim("s1", 101));
    assertFalse(Double.isNaN(policy.priorityOf("A")));
    assertEquals(List.of(), policy.pendingEvictions("s2"));
  }

  @Test
  void onReclaim_pendingToDelComesFirst() {
    cache("s1", 1, "A", 2, "jA");
    cache("s2", 2, "A", 2, "jA");
    cache("s1", 3, "B", 1, "jB");
    assertEquals(List.of(block(2)), policy.onReclaim("s2", 100));
    // s1 still holds A's block 1 in its To_Del: a reclaim on s1 takes it without a new victim.
    assertEquals(List.of(block(1)), policy.onReclaim("s1", 100));
    assertFalse(Double.isNaN(policy.priorityOf("B")), "B was not needed");
  }

  @Test
  void onReclaim_defaultPolicy_freesNothing() {
    assertEquals(List.of(), CachePolicies.create(CachePolicies.NONE,
        new PolicyParameters(1.0, 16)).onReclaim("s1", 100));
  }
}
