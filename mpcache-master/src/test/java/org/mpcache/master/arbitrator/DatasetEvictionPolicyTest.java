package org.mpcache.master.arbitrator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.mpcache.common.BlockKey;

/**
 * The dataset-granularity baselines, GDSF, LFU-F and LIFE, choosing victims on small hand-worked
 * traces of 100-byte blocks; GDSF's priorities {@code L + Frequency/Size} are worked out by hand.
 */
class DatasetEvictionPolicyTest {
  private static final double EPS = 1e-12;

  private static BlockKey block(long id) {
    return new BlockKey("BP-1", id, 1);
  }

  private static BlockAccess access(String slave, long block, String dataset, int size,
      String job) {
    return new BlockAccess(slave, block(block), 100, dataset, size, job, 0);
  }

  /** Misses with room and caches the block on {@code slave}. */
  private static void cache(CachePolicy policy, String slave, long block, String dataset,
      int size, String job) {
    CacheDecision d = policy.onMiss(access(slave, block, dataset, size, job), 1_000);
    assertEquals(CacheDecision.Reason.ADMITTED_FREE_SPACE, d.reason());
    policy.onCached(slave, block(block));
  }

  /** Misses on a full slave; the decision must admit. */
  private static List<BlockKey> replace(CachePolicy policy, String slave, long block,
      String dataset, int size, String job) {
    CacheDecision d = policy.onMiss(access(slave, block, dataset, size, job), 0);
    assertEquals(CacheDecision.Reason.ADMITTED_BY_REPLACEMENT, d.reason(), d.toString());
    for (BlockKey e : d.evict()) {
      policy.onRemoved(slave, e);
    }
    policy.onCached(slave, block(block));
    return d.evict();
  }

  @Test
  void gdsf_evictsTheLowestPriorityDatasetAndRaisesL() {
    GdsfPolicy gdsf = new GdsfPolicy(new PlacementIndex());
    cache(gdsf, "s1", 1, "A", 2, "jA1");
    cache(gdsf, "s2", 2, "A", 2, "jA1");
    assertEquals(0.5, gdsf.priorityOf("A"), EPS); // 0 + 1/2
    cache(gdsf, "s1", 3, "B", 1, "jB1");
    assertEquals(1.0, gdsf.priorityOf("B"), EPS); // 0 + 1/1
    for (String job : new String[] {"jA2", "jA3"}) {
      gdsf.onHit(access("s1", 1, "A", 2, job));
      gdsf.onHit(access("s2", 2, "A", 2, job));
    }
    assertEquals(1.5, gdsf.priorityOf("A"), EPS); // 0 + 3/2

    // C is new and admitted without any admission test; B (1.0) goes, L = 1.0.
    assertEquals(List.of(block(3)), replace(gdsf, "s1", 4, "C", 1, "jC1"));
    assertEquals(1.0, gdsf.inflation(), EPS);
    assertFalse(gdsf.tracks("B"), "an evicted dataset's frequency is forgotten");
    assertEquals(2.0, gdsf.priorityOf("C"), EPS); // 1.0 + 1/1

    // Next victim is A (1.5 < 2.0), whole: block 1 here, block 2 queued for s2.
    assertEquals(List.of(block(1)), replace(gdsf, "s1", 5, "D", 4, "jD1"));
    assertEquals(1.5, gdsf.inflation(), EPS);
    assertEquals(1.75, gdsf.priorityOf("D"), EPS); // 1.5 + 1/4
    assertEquals(Set.of("s2"), gdsf.slavesWithPendingEvictions());
    assertEquals(List.of(block(2)), gdsf.pendingEvictions("s2"));
    assertEquals(List.of(), gdsf.pendingEvictions("s2"), "each eviction is handed out once");
    assertEquals(Set.of(), gdsf.slavesWithPendingEvictions());
  }

  @Test
  void gdsf_hitTakesTheCurrentL() {
    GdsfPolicy gdsf = new GdsfPolicy(new PlacementIndex());
    cache(gdsf, "s1", 1, "A", 1, "jA1");
    cache(gdsf, "s1", 2, "B", 2, "jB1"); // 0.5
    cache(gdsf, "s1", 3, "B", 2, "jB1"); // same job, still 1 access: 0.5
    assertEquals(0.5, gdsf.priorityOf("B"), EPS);
    // A (1.0) is worth more than B (0.5): B goes, both its blocks, L = 0.5.
    assertEquals(List.of(block(2), block(3)), replace(gdsf, "s1", 4, "C", 4, "jC1"));
    gdsf.onHit(access("s1", 1, "A", 1, "jA2"));
    assertEquals(2.5, gdsf.priorityOf("A"), EPS); // 0.5 + 2/1
  }

  @Test
  void gdsf_neverEvictsTheRequestersOwnDataset() {
    GdsfPolicy gdsf = new GdsfPolicy(new PlacementIndex());
    cache(gdsf, "s1", 1, "A", 2, "jA");
    CacheDecision d = gdsf.onMiss(access("s1", 2, "A", 2, "jA"), 0);
    assertEquals(CacheDecision.Reason.REJECTED_TOO_LARGE, d.reason());
    assertEquals(List.of(), gdsf.pendingEvictions("s1"));
    assertTrue(gdsf.tracks("A"));
  }

  @Test
  void lfuF_evictsIncompleteDatasetsFirstThenTheLeastFrequent() {
    LfuFPolicy lfuF = new LfuFPolicy(new PlacementIndex());
    cache(lfuF, "s1", 1, "A", 2, "jA1");
    cache(lfuF, "s1", 2, "A", 2, "jA1");
    // B's jobs read two of its three blocks; one is cached (s2, where the other lives, has no
    // room): incomplete.
    cache(lfuF, "s1", 3, "B", 3, "jB1");
    assertFalse(lfuF.onMiss(access("s2", 30, "B", 3, "jB1"), 0).admitted());
    for (String job : new String[] {"jB2", "jB3"}) {
      lfuF.onHit(access("s1", 3, "B", 3, job));
      assertFalse(lfuF.onMiss(access("s2", 30, "B", 3, job), 0).admitted());
    }
    cache(lfuF, "s1", 4, "C", 1, "jC1");
    lfuF.onHit(access("s1", 1, "A", 2, "jA2"));
    // Counts: A 2, B 3, C 1. B is the most frequent but incomplete: it goes first.
    assertEquals(3, lfuF.accessesOf("B"));
    assertEquals(List.of(block(3)), replace(lfuF, "s1", 5, "E", 1, "jE1"));
    assertTrue(lfuF.tracks("B"), "LFU-F remembers the frequency of an evicted dataset");
    // All complete now: A 2, C 1, E 1; C and E tie and C was accessed longer ago.
    assertEquals(List.of(block(4)), replace(lfuF, "s1", 6, "F", 1, "jF1"));
  }

  @Test
  void lfuF_halvesEveryCountEveryAgingPeriod() {
    LfuFPolicy lfuF = new LfuFPolicy(new PlacementIndex());
    // Access 1: Z finds no room on an empty slave; remembered with one access and no blocks.
    assertEquals(CacheDecision.Reason.REJECTED_TOO_LARGE,
        lfuF.onMiss(access("s9", 9, "Z", 1, "jZ1"), 0).reason());
    // Accesses 2-4: X three times.
    cache(lfuF, "s1", 1, "X", 1, "jX1");
    lfuF.onHit(access("s1", 1, "X", 1, "jX2"));
    lfuF.onHit(access("s1", 1, "X", 1, "jX3"));
    // Accesses 5-99: Y 95 times.
    cache(lfuF, "s1", 2, "Y", 1, "jY1");
    for (int i = 2; i <= LfuFPolicy.AGING_PERIOD - 5; i++) {
      lfuF.onHit(access("s1", 2, "Y", 1, "jY" + i));
    }
    assertEquals(95, lfuF.accessesOf("Y"));
    assertTrue(lfuF.tracks("Z"));
    // Access 100: Y's 96th, then every count is halved.
    lfuF.onHit(access("s1", 2, "Y", 1, "jY96"));
    assertEquals(48, lfuF.accessesOf("Y"));
    assertEquals(1, lfuF.accessesOf("X"));
    assertFalse(lfuF.tracks("Z"), "a count aged to 0 with nothing cached is forgotten");
  }

  @Test
  void lfuF_datasetFirstAccessedAtAnAgingStepIsKeptForItsBlocks() {
    LfuFPolicy lfuF = new LfuFPolicy(new PlacementIndex());
    // Accesses 1-99: X.
    cache(lfuF, "s1", 1, "X", 1, "jX1");
    for (int i = 2; i < LfuFPolicy.AGING_PERIOD; i++) {
      lfuF.onHit(access("s1", 1, "X", 1, "jX" + i));
    }
    // Access 100 is N's first: aging halves its count of 1 to 0 before its block is placed; N
    // must still be tracked, since a block of it is being cached.
    cache(lfuF, "s1", 2, "N", 2, "jN1");
    assertTrue(lfuF.tracks("N"), "a dataset with a block being cached was forgotten");
    // A later hit on that block and a replacement over it work on N's state.
    lfuF.onHit(access("s1", 2, "N", 2, "jN2"));
    assertEquals(1, lfuF.accessesOf("N"));
    assertEquals(List.of(block(2)), replace(lfuF, "s1", 3, "Y", 1, "jY1"));
  }

  @Test
  void hitOnABlockOfAnUntrackedDatasetIsIgnored() {
    for (CachePolicy p : List.of(new GdsfPolicy(new PlacementIndex()),
        new LfuFPolicy(new PlacementIndex()), new LifePolicy(new PlacementIndex()))) {
      // A slave reports a block the policy never admitted: it is queued for eviction, and a hit
      // on it changes nothing.
      p.onCached("s1", block(7));
      p.onHit(access("s1", 7, "Q", 1, "jQ1"));
      assertEquals(List.of(block(7)), p.pendingEvictions("s1"), p.name());
    }
  }

  @Test
  void life_evictsIncompleteDatasetsFirstThenTheWidest() {
    LifePolicy life = new LifePolicy(new PlacementIndex());
    cache(life, "s1", 1, "A", 4, "jA1");
    cache(life, "s2", 2, "A", 4, "jA1"); // two blocks of four: incomplete, width 4
    cache(life, "s1", 3, "B", 2, "jB1"); // one of two: incomplete, width 2
    cache(life, "s1", 4, "C", 3, "jC1");
    cache(life, "s1", 5, "C", 3, "jC1");
    cache(life, "s1", 6, "C", 3, "jC1"); // complete, width 3
    cache(life, "s1", 7, "D", 1, "jD1"); // complete, width 1
    // The widest incomplete dataset, A, goes whole: block 1 here, block 2 queued for s2.
    assertEquals(List.of(block(1)), replace(life, "s1", 8, "E", 1, "jE1"));
    assertEquals(List.of(block(2)), life.pendingEvictions("s2"));
    // Then the other incomplete one, B, though it is narrower than C.
    assertEquals(List.of(block(3)), replace(life, "s1", 9, "F", 1, "jF1"));
    // Then among complete datasets (C 3, D 1, E 1, F 1) the widest, C, all three blocks.
    assertEquals(List.of(block(4), block(5), block(6)), replace(life, "s1", 10, "G", 1, "jG1"));
  }

  @Test
  void life_blockFilledForAnEvictedDatasetIsQueuedForEviction() {
    LifePolicy life = new LifePolicy(new PlacementIndex());
    cache(life, "s1", 1, "A", 3, "jA1");
    life.onMiss(access("s2", 2, "A", 3, "jA1"), 1_000); // s2 still filling
    cache(life, "s1", 3, "B", 1, "jB1");
    assertEquals(List.of(block(1)), replace(life, "s1", 4, "C", 1, "jC1"));
    life.onCached("s2", block(2));
    assertEquals(List.of(block(2)), life.pendingEvictions("s2"));
  }

  @Test
  void life_pendingEvictionsOfTheSlaveAreUsedBeforeNewVictims() {
    LifePolicy life = new LifePolicy(new PlacementIndex());
    cache(life, "s1", 1, "A", 3, "jA1");
    cache(life, "s2", 2, "A", 3, "jA1"); // two of three: incomplete, width 3
    cache(life, "s2", 3, "B", 1, "jB1");
    cache(life, "s1", 4, "C", 2, "jC1"); // one of two: incomplete, width 2
    // On s1 the widest incomplete dataset, A, goes and its block on s2 is queued there.
    assertEquals(List.of(block(1)), replace(life, "s1", 5, "D", 1, "jD1"));
    // s2 is full: its pending block 2 frees enough, so B stays.
    CacheDecision d = life.onMiss(access("s2", 6, "E", 1, "jE1"), 0);
    assertEquals(List.of(block(2)), d.evict());
    assertTrue(life.tracks("B"));
    assertFalse(life.tracks("A"));
  }

  @Test
  void adopt_datasetWithEveryBlockAdoptedIsCompleteWithNoAccessAndEvictable() {
    LfuFPolicy lfuF = new LfuFPolicy(new PlacementIndex());
    lfuF.adopt("s1", block(1), 100, "A", 2);
    assertFalse(lfuF.complete(lfuF.datasets.get("A")));
    lfuF.adopt("s2", block(2), 100, "A", 2);
    assertTrue(lfuF.complete(lfuF.datasets.get("A")));
    assertEquals(0, lfuF.accessesOf("A"));
    CacheDecision d = lfuF.onMiss(access("s1", 3, "B", 1, "j1"), 0);
    assertEquals(CacheDecision.Reason.ADMITTED_BY_REPLACEMENT, d.reason());
    assertEquals(List.of(block(1)), d.evict());
    assertEquals(List.of(block(2)), lfuF.pendingEvictions("s2"));
  }
}
