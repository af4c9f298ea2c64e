package org.mpcache.master.arbitrator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.mpcache.common.BlockKey;

/**
 * Algorithm 1 and the admission control, branch by branch, with every priority worked out by hand
 * from Equations 1-2: {@code Pr = Full + Clock + (Blocks_Access / Size) / Size}, Full = 1.
 */
class MpCachePolicyTest {
  private static final double EPS = 1e-12;
  private final MpCachePolicy policy =
      new MpCachePolicy(new PolicyParameters(1.0, 16), new PlacementIndex());

  private static BlockKey block(long id) {
    return new BlockKey("BP-1", id, 1);
  }

  private static BlockAccess access(String slave, long block, String dataset, int size,
      String job) {
    return new BlockAccess(slave, block(block), 100, dataset, size, job, 0);
  }

  /**
   * Misses on a slave reporting {@code free} bytes, is admitted into free space and caches the
   * block; the slave has {@code free - 100} bytes left, which the policy counts as the cache's room.
   */
  private void cache(String slave, long block, String dataset, int size, String job, long free) {
    CacheDecision d = policy.onMiss(access(slave, block, dataset, size, job), free);
    assertEquals(CacheDecision.Reason.ADMITTED_FREE_SPACE, d.reason());
    policy.onCached(slave, block(block));
  }

  @Test
  void onMiss_noReplacementNeeded() {
    CacheDecision d = policy.onMiss(access("s1", 1, "A", 2, "j1"), 1_000);
    assertTrue(d.admitted());
    assertEquals(CacheDecision.Reason.ADMITTED_FREE_SPACE, d.reason());
    assertEquals(List.of(), d.evict());
    // Blocks_Access 1, Size 2, not full, Clock 0: Pr = 0 + 0 + (1/2)/2.
    assertEquals(0.25, policy.priorityOf("A"), EPS);
  }

  @Test
  void onCached_fullBonusSetWhenEveryBlockIsCachedAndClearedWhenOneGoes() {
    policy.onMiss(access("s1", 1, "A", 2, "j1"), 1_000);
    policy.onMiss(access("s1", 2, "A", 2, "j1"), 1_000);
    assertEquals(0.5, policy.priorityOf("A"), EPS);
    policy.onCached("s1", block(1));
    assertFalse(policy.isFull("A"));
    assertEquals(0.5, policy.priorityOf("A"), EPS);
    policy.onCached("s1", block(2));
    assertTrue(policy.isFull("A"));
    assertEquals(1 + 0.5, policy.priorityOf("A"), EPS);
    policy.onRemoved("s1", block(2));
    assertFalse(policy.isFull("A"));
    assertEquals(0.5, policy.priorityOf("A"), EPS);
  }

  @Test
  void onHit_raisesFrequencyAndKeepsClock() {
    cache("s1", 1, "A", 2, "j1", 1_000);
    cache("s1", 2, "A", 2, "j1", 1_000);
    assertEquals(1.5, policy.priorityOf("A"), EPS);
    policy.onHit(access("s1", 1, "A", 2, "j2"));
    // Blocks_Access 3: Pr = 1 + 0 + (3/2)/2.
    assertEquals(1.75, policy.priorityOf("A"), EPS);
    assertEquals(0.0, policy.clock(), EPS);
  }

  @Test
  void onMiss_newVictimChosenClockRaisedAndToDelQueuedForOtherNodes() {
    cache("s1", 1, "A", 2, "jA", 1_000);
    cache("s2", 2, "A", 2, "jA", 100); // s2 is now full; s1 reports 0 with B's request
    assertEquals(1.5, policy.priorityOf("A"), EPS);
    assertEquals(1.5, policy.priorityOf("A"), EPS);

    CacheDecision first = policy.onMiss(access("s1", 10, "B", 2, "jB1"), 0);
    assertEquals(CacheDecision.Reason.REJECTED_NOT_IN_AUXILIARY_CACHE, first.reason());
    assertTrue(policy.inAuxiliaryCache("B"));

    // B's second access: its first job read one of its 2 blocks, so Size(B) is 1, and its
    // accesses per block, 2/1, beat A's Fr/Size = (2/2)/2 (A is the only victim, so the mean).
    CacheDecision second = policy.onMiss(access("s1", 10, "B", 2, "jB2"), 0);
    assertEquals(CacheDecision.Reason.ADMITTED_BY_REPLACEMENT, second.reason());
    assertEquals(List.of(block(1)), second.evict());
    assertEquals(1.5, policy.clock(), EPS, "Clock is set to the evicted dataset's priority");
    assertTrue(Double.isNaN(policy.priorityOf("A")), "A left the main cache");
    // B enters with its first access counted as a whole read: Blocks_Access (2-1)*1 + 1 = 2,
    // Size 1, not yet full, Clock 1.5: Pr = 1.5 + (2/1)/1.
    assertEquals(3.5, policy.priorityOf("B"), EPS);
    assertEquals(List.of(block(2)), policy.pendingEvictions("s2"), "A's block on s2 in To_Del");
    assertEquals(List.of(), policy.pendingEvictions("s2"), "each eviction is handed out once");
  }

  @Test
  void onMiss_toDelAlreadyHoldsTheNode() {
    cache("s1", 1, "A", 2, "jA", 1_000);
    cache("s2", 2, "A", 2, "jA", 100);
    policy.onMiss(access("s1", 10, "B", 2, "jB1"), 0);
    policy.onMiss(access("s1", 10, "B", 2, "jB2"), 0);
    policy.onCached("s1", block(10));
    double clock = policy.clock();

    CacheDecision d = policy.onMiss(access("s2", 11, "B", 2, "jB2"), 0);
    assertEquals(CacheDecision.Reason.ADMITTED_DATASET_CACHED, d.reason());
    assertEquals(List.of(block(2)), d.evict(), "the To_Del entry of s2 is returned");
    assertEquals(clock, policy.clock(), EPS, "no new victim, Clock unchanged");
    policy.onRemoved("s2", block(2));
    policy.onCached("s2", block(11));
    assertTrue(policy.isFull("B"));
    // jB2 read two blocks, so Size(B) grew to 2. Blocks_Access: jB1's access counted as a read
    // of its one block, then jB2's two: 3. Size 2, Clock base 1.5, Full: Pr = 1 + 1.5 + (3/2)/2.
    assertEquals(3.25, policy.priorityOf("B"), EPS);
  }

  @Test
  void onMiss_admissionRejectsAnUnprofitableDataset() {
    cache("s1", 1, "A", 1, "jA1", 100);
    assertEquals(CacheDecision.Reason.REJECTED_NOT_IN_AUXILIARY_CACHE,
        policy.onMiss(access("s1", 20, "C", 1, "jC1"), 0).reason());
    policy.onHit(access("s1", 1, "A", 1, "jA2"));
    policy.onHit(access("s1", 1, "A", 1, "jA3"));
    // C's accesses per block, 2/1, do not beat A's Fr/Size = (3/1)/1.
    CacheDecision d = policy.onMiss(access("s1", 20, "C", 1, "jC2"), 0);
    assertEquals(CacheDecision.Reason.REJECTED_NOT_PROFITABLE, d.reason());
    assertEquals(List.of(), d.evict());
    assertEquals(List.of(), policy.pendingEvictions("s1"), "a rejection evicts nothing");
    assertFalse(Double.isNaN(policy.priorityOf("A")));
  }

  @Test
  void onMiss_freeSpaceMustHoldTheWholeDataset() {
    // s1 has room for this block but the cache's room (100 bytes) is not enough for the
    // dataset's 5 blocks: not "enough free space for jd_i", and D is not in the auxiliary cache.
    CacheDecision d = policy.onMiss(access("s1", 30, "D", 5, "jD1"), 100);
    assertEquals(CacheDecision.Reason.REJECTED_NOT_IN_AUXILIARY_CACHE, d.reason());
    // With 500 bytes of room reported by two slaves the whole dataset fits: admitted.
    policy.onMiss(access("s2", 99, "E", 1, "jE1"), 400); // E fits; s2 has 300 left
    CacheDecision again = policy.onMiss(access("s1", 30, "D", 5, "jD2"), 200);
    assertEquals(CacheDecision.Reason.ADMITTED_FREE_SPACE, again.reason());
  }

  @Test
  void onMiss_datasetWithAShortLastBlockIsPricedByItsBytesNotWholeBlocks() {
    // 3 full blocks of 100 bytes and a last one of 2: 302 bytes in 4 blocks. 310 bytes of room
    // hold it, though 4 whole blocks (400) would not: a reader that did not measure the bytes
    // has every block priced as long as the one it asks for, and is refused.
    CacheDecision unmeasured = policy.onMiss(access("s1", 50, "U", 4, "jU1"), 310);
    assertEquals(CacheDecision.Reason.REJECTED_NOT_IN_AUXILIARY_CACHE, unmeasured.reason());
    CacheDecision d = policy.onMiss(
        new BlockAccess("s1", block(40), 100, "H", 4, 302, "jH1", 0), 310);
    assertEquals(CacheDecision.Reason.ADMITTED_FREE_SPACE, d.reason());
  }

  @Test
  void onMiss_admissionVerdictHoldsForTheRestOfTheAccess() {
    cache("s1", 1, "A", 2, "jA1", 1_000);
    cache("s1", 2, "A", 2, "jA1", 100); // s1 is full
    // F's first miss is rejected (no room, not in the auxiliary cache); its next block in the
    // same job is rejected too, although s2 could hold that block.
    assertEquals(CacheDecision.Reason.REJECTED_NOT_IN_AUXILIARY_CACHE,
        policy.onMiss(access("s1", 40, "F", 2, "jF1"), 0).reason());
    assertEquals(CacheDecision.Reason.REJECTED_NOT_IN_AUXILIARY_CACHE,
        policy.onMiss(access("s2", 41, "F", 2, "jF1"), 100).reason());
    // The next job's access is judged afresh. Accesses: A 1, F 2, F 3. The room (100 on s2) is
    // short of F's 200 bytes by 100; the lowest-priority dataset holding that much is A.
    // F: 2/2 = 1 beats A's Fr/Size = (2/2)/2: admitted, A goes.
    CacheDecision d = policy.onMiss(access("s1", 40, "F", 2, "jF2"), 0);
    assertEquals(CacheDecision.Reason.ADMITTED_BY_REPLACEMENT, d.reason());
    assertEquals(List.of(block(1), block(2)), d.evict());
    // The rest of the access needs no new test.
    assertEquals(CacheDecision.Reason.ADMITTED_FREE_SPACE,
        policy.onMiss(access("s2", 41, "F", 2, "jF2"), 100).reason());
  }

  @Test
  void onMiss_admissionWeighsVictimsByTheBytesTheyFree() {
    // H: 1 block read twice, Fr/Size = 2/1. C: 3 blocks read once, Fr/Size = (3/3)/3. One
    // block of the 5 is free.
    cache("s1", 1, "H", 1, "jH1", 500);
    policy.onHit(access("s1", 1, "H", 1, "jH2"));
    cache("s1", 2, "C", 3, "jC1", 400);
    cache("s1", 3, "C", 3, "jC1", 300);
    cache("s1", 4, "C", 3, "jC1", 200);
    // Each of N's jobs reads all 5 of its blocks; the first block's verdict holds for the rest.
    assertEquals(CacheDecision.Reason.REJECTED_NOT_IN_AUXILIARY_CACHE,
        policy.onMiss(access("s1", 10, "N", 5, "jN1"), 100).reason());
    readRest(policy, "N", 5, "jN1", 100);
    // N (5 blocks) lacks 400 bytes: victims C (300 bytes) and H (100). Their Fr/Size averaged
    // over those bytes is (300 * 1/3 + 100 * 2) / 400 = 0.75. N's k/5 beats it at k = 4.
    for (int k = 2; k <= 3; k++) {
      assertEquals(CacheDecision.Reason.REJECTED_NOT_PROFITABLE,
          policy.onMiss(access("s1", 10, "N", 5, "jN" + k), 100).reason(), "access " + k);
      readRest(policy, "N", 5, "jN" + k, 100);
    }
    CacheDecision d = policy.onMiss(access("s1", 10, "N", 5, "jN4"), 100);
    assertEquals(CacheDecision.Reason.ADMITTED_FREE_SPACE, d.reason(), "the block fits as is");
    // N enters with its 4 accesses: Blocks_Access 3*5 + 1 = 16, not full, Clock 0: Pr = 16/25.
    assertEquals(16.0 / 25, policy.priorityOf("N"), EPS);
  }

  @Test
  void pendingEvictions_handedOutBlocksCountInTheCachesRoom() {
    cache("s1", 1, "A", 2, "jA", 1_000);
    cache("s2", 2, "A", 2, "jA", 100);
    policy.onMiss(access("s1", 10, "B", 1, "jB1"), 0);
    assertTrue(policy.onMiss(access("s1", 10, "B", 1, "jB2"), 0).admitted());
    policy.onCached("s1", block(10));
    // A's block on s2 is handed out with s2's heartbeat: s2 has 100 bytes free again, though it
    // has not asked since.
    assertEquals(List.of(block(2)), policy.pendingEvictions("s2"));
    policy.onRemoved("s2", block(2));
    // D (1 block) fits in that room, so it needs no admission test although it is new.
    CacheDecision d = policy.onMiss(access("s1", 20, "D", 1, "jD1"), 0);
    assertTrue(d.admitted(), d.toString());
  }

  @Test
  void onMiss_neverEvictsTheRequestersOwnDataset() {
    cache("s1", 1, "A", 3, "jA", 1_000);
    CacheDecision d = policy.onMiss(access("s1", 2, "A", 3, "jA"), 0);
    assertEquals(CacheDecision.Reason.REJECTED_TOO_LARGE, d.reason());
    assertFalse(Double.isNaN(policy.priorityOf("A")));
  }

  /**
   * A 113,918-block path re-read by 25 jobs that each read only its first block, in a cache of
   * two slaves of four blocks kept full by paths read once, four between each of its jobs. What
   * the jobs need whole is one block: the second job, which the auxiliary cache remembers, is
   * admitted against one victim, and every job after it is served from the cache.
   */
  @Test
  void onMiss_hugePathReReadByJobsReadingItsFirstBlockIsAdmitted() {
    long[] free = {400, 400};
    java.util.Map<Long, Integer> held = new java.util.HashMap<>();
    int served = 0;
    List<CacheDecision.Reason> firstVerdicts = new java.util.ArrayList<>();
    for (int job = 0; job < 25; job++) {
      for (int i = 0; i < 4; i++) {
        long b = 1_000 + job * 4 + i;
        readOne(held, free, "s" + (b % 2), b, "D" + b, 1, "jD" + b);
      }
      CacheDecision.Reason r = readOne(held, free, "s0", 1, "/warehouse/huge", 113_918,
          "jH" + job);
      if (r == null) {
        served++;
      } else {
        firstVerdicts.add(r);
      }
    }
    assertTrue(served >= 23, "jobs served " + served + " of 25; verdicts " + firstVerdicts);
  }

  /**
   * One read of one block by a job on a slave whose free bytes are {@code free[slave]}; evictions
   * and admissions are carried out as a slave would. Null on a hit, else the verdict.
   */
  private CacheDecision.Reason readOne(java.util.Map<Long, Integer> held, long[] free,
      String slave, long b, String dataset, int size, String job) {
    int node = slave.charAt(1) - '0';
    BlockAccess a = access(slave, b, dataset, size, job);
    if (held.containsKey(b)) {
      policy.onHit(a);
      return null;
    }
    CacheDecision d = policy.onMiss(a, free[node]);
    for (BlockKey e : d.evict()) {
      if (held.remove(e.getBlockId()) != null) {
        free[node] += 100;
      }
      policy.onRemoved(slave, e);
    }
    if (d.admitted() && free[node] >= 100) {
      held.put(b, node);
      free[node] -= 100;
      policy.onCached(slave, block(b));
    }
    for (int n = 0; n < free.length; n++) {
      for (BlockKey e : policy.pendingEvictions("s" + n)) {
        if (held.remove(e.getBlockId()) != null) {
          free[n] += 100;
        }
        policy.onRemoved("s" + n, e);
      }
    }
    return d.reason();
  }

  @Test
  void onSlaveLost_forgetsItsBlocks() {
    cache("s1", 1, "A", 1, "jA", 1_000);
    policy.onSlaveLost("s1");
    assertTrue(Double.isNaN(policy.priorityOf("A")));
    assertFalse(policy.isFull("A"));
  }

  @Test
  void onCached_ofABlockOfAnEvictedDatasetQueuesItsEviction() {
    cache("s1", 1, "A", 1, "jA", 100);
    policy.onMiss(access("s1", 2, "B", 1, "jB1"), 1_000);
    policy.onMiss(access("s1", 3, "C", 1, "jC1"), 0);
    CacheDecision d = policy.onMiss(access("s1", 3, "C", 1, "jC2"), 0);
    assertTrue(d.admitted(), d.toString());
    policy.onCached("s1", block(99));
    assertTrue(policy.pendingEvictions("s1").contains(block(99)),
        "a block the policy does not track is handed back for eviction");
  }

  @Test
  void create_unknownNameListsTheKnownOnes() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CachePolicies.create("fifo", PolicyParameters.defaults()));
    assertTrue(e.getMessage().contains("mpcache") && e.getMessage().contains("none"));
    assertFalse(CachePolicies.create("none", PolicyParameters.defaults())
        .onMiss(access("s1", 1, "A", 1, "j"), 1_000).admitted());
  }

  @Test
  void parameters_rejectNegativeBonusAndEmptyAuxiliaryCache() {
    assertThrows(IllegalArgumentException.class, () -> new PolicyParameters(-1, 10));
    assertThrows(IllegalArgumentException.class, () -> new PolicyParameters(1, 0));
    assertThrows(IllegalArgumentException.class, () -> new PolicyParameters(Double.NaN, 10));
  }

  @Test
  void parameters_rejectSizeExponentOutsideZeroToOne() {
    assertThrows(IllegalArgumentException.class, () -> new PolicyParameters(1, 10, -0.1));
    assertThrows(IllegalArgumentException.class, () -> new PolicyParameters(1, 10, 1.5));
    assertThrows(IllegalArgumentException.class, () -> new PolicyParameters(1, 10, Double.NaN));
    assertEquals(0.0, new PolicyParameters(1, 10, 0).sizeExponent());
  }

  @Test
  void priorityOf_sizeExponentDividesFrequencyBySizeToTheB() {
    MpCachePolicy half = new MpCachePolicy(new PolicyParameters(1.0, 16, 0.5),
        new PlacementIndex());
    half.onMiss(access("s1", 1, "A", 4, "j1"), 1_000);
    // Blocks_Access 1, Size 4, not full, Clock 0: Pr = (1/4) / 4^0.5, where b = 1 gives (1/4)/4.
    assertEquals(0.125, half.priorityOf("A"), EPS);
  }

  /**
   * A job's misses of blocks 11 .. 9 + {@code size} of a dataset whose block 10 it missed first,
   * each refused as the first was: the job reads the whole dataset.
   */
  private static void readRest(MpCachePolicy p, String dataset, int size, String job, long free) {
    for (long b = 11; b < 10 + size; b++) {
      assertFalse(p.onMiss(access("s1", b, dataset, size, job), free).admitted());
    }
  }

  /**
   * Four one-block datasets fill slave s1 (Fr/Size 1 each, whatever b); then a four-block dataset
   * is read by its third job: its accesses per block are 3/4 with b = 1, 3/4^0.5 = 1.5 with b = 0.5.
   */
  private static CacheDecision thirdReadOfALargeDataset(double sizeExponent) {
    MpCachePolicy p = new MpCachePolicy(new PolicyParameters(1.0, 16, sizeExponent),
        new PlacementIndex());
    for (int i = 1; i <= 4; i++) {
      assertTrue(p.onMiss(access("s1", i, "D" + i, 1, "j" + i), 500 - 100 * i).admitted());
      p.onCached("s1", block(i));
    }
    assertEquals(CacheDecision.Reason.REJECTED_NOT_IN_AUXILIARY_CACHE,
        p.onMiss(access("s1", 10, "L", 4, "jL1"), 0).reason());
    readRest(p, "L", 4, "jL1", 0);
    assertEquals(CacheDecision.Reason.REJECTED_NOT_PROFITABLE,
        p.onMiss(access("s1", 10, "L", 4, "jL2"), 0).reason(), "2/4^b is at most 1 for b <= 1");
    readRest(p, "L", 4, "jL2", 0);
    return p.onMiss(access("s1", 10, "L", 4, "jL3"), 0);
  }

  @Test
  void onMiss_sizeExponentBelowOneAdmitsALargeOftenReadDataset() {
    assertEquals(CacheDecision.Reason.REJECTED_NOT_PROFITABLE,
        thirdReadOfALargeDataset(1.0).reason());
    CacheDecision half = thirdReadOfALargeDataset(0.5);
    assertEquals(CacheDecision.Reason.ADMITTED_BY_REPLACEMENT, half.reason());
    assertEquals(List.of(block(1)), half.evict(), "the lowest-priority small dataset goes first");
  }

  @Test
  void onMiss_forcedSkipsTheAdmissionTestButStillEvictsForRoom() {
    cache("s1", 1, "A", 1, "jA", 100);
    CacheDecision refused = policy.onMiss(access("s1", 10, "B", 1, "jB1"), 0);
    assertEquals(CacheDecision.Reason.REJECTED_NOT_IN_AUXILIARY_CACHE, refused.reason());

    CacheDecision forced = policy.onMiss(access("s1", 20, "C", 1, "jC1"), 0, true);
    assertEquals(CacheDecision.Reason.ADMITTED_BY_FORCE, forced.reason());
    assertEquals(List.of(block(1)), forced.evict());
    assertTrue(Double.isNaN(policy.priorityOf("A")));
  }

  @Test
  void standing_reportsPriorityFrequencyAndAuxiliaryMembership() {
    cache("s1", 1, "A", 2, "jA", 1_000);
    DatasetStanding a = policy.standing("A");
    assertEquals(0.25, a.priority(), EPS);
    assertEquals(0.5, a.frequency(), EPS);
    assertFalse(a.full());
    assertTrue(a.inAuxiliaryCache());
    policy.onMiss(access("s1", 10, "B", 1, "jB1"), 0);
    assertTrue(Double.isNaN(policy.standing("B").priority()));
    assertEquals(null, policy.standing("never"));
  }

  @Test
  void adopt_everyBlockAdoptedMakesTheDatasetFullWithoutCountingAnAccess() {
    policy.adopt("s1", block(1), 100, "A", 2);
    assertFalse(policy.isFull("A"));
    // Blocks_Access 0, not full, Clock 0: Pr = 0.
    assertEquals(0.0, policy.priorityOf("A"), EPS);
    policy.adopt("s2", block(2), 100, "A", 2);
    policy.adopt("s2", block(2), 100, "A", 2); // again: no change
    assertTrue(policy.isFull("A"));
    // Full 1 + Clock 0 + (0/2)/2.
    assertEquals(1.0, policy.priorityOf("A"), EPS);
    DatasetStanding st = policy.standing("A");
    assertEquals(0.0, st.frequency(), EPS);
    assertFalse(st.inAuxiliaryCache(), "adoption is not an access");
    // Its first read is a hit like any other: Blocks_Access 1, Pr = 1 + 0 + (1/2)/2.
    policy.onHit(access("s1", 1, "A", 2, "j1"));
    assertEquals(1.25, policy.priorityOf("A"), EPS);
  }

  @Test
  void adopt_datasetNotKnownStartsAtTheCurrentClock() {
    cache("s1", 1, "A", 2, "jA", 1_000);
    cache("s2", 2, "A", 2, "jA", 100);
    policy.onMiss(access("s1", 10, "B", 2, "jB1"), 0);
    policy.onMiss(access("s1", 10, "B", 2, "jB2"), 0); // evicts A: Clock 1.5
    assertEquals(1.5, policy.clock(), EPS);

    policy.adopt("s3", block(20), 100, "C", 2);
    // Not full, Blocks_Access 0, Clock 1.5: Pr = 1.5, not below the datasets accessed since.
    assertEquals(1.5, policy.priorityOf("C"), EPS);
  }

  @Test
  void adopt_blockOfAnotherDatasetJoinsItWithoutChangingItsSize() {
    policy.adopt("s1", block(1), 100, "A", 2);
    policy.adopt("s2", block(1), 100, "X", 50); // the same block, recorded for another dataset
    policy.adopt("s1", block(2), 100, "A", 2);
    assertTrue(policy.isFull("A"), "A's size is still 2");
    assertTrue(Double.isNaN(policy.priorityOf("X")), "X holds nothing");
  }
}
