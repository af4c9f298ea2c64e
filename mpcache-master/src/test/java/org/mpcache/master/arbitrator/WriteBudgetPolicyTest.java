package org.mpcache.master.arbitrator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.mpcache.common.BlockKey;

/**
 * The write-budget mode of the policies that have one ({@code mpcache}, {@code lru},
 * {@code lfu}) and the measure that feeds it: while over budget a dataset is admitted only on
 * a second access within the hour, and as usual once under budget again.
 */
class WriteBudgetPolicyTest {
  private static final long HOUR = WriteRateMeter.WINDOW_MS;
  private boolean over;

  private static BlockKey block(long id) {
    return new BlockKey("BP-1", id, 1);
  }

  private static BlockAccess access(long block, String dataset, int size, String job, long ms) {
    return new BlockAccess("s1", block(block), 100, dataset, size, job, ms);
  }

  private CachePolicy policy(String name) {
    CachePolicy p = CachePolicies.create(name, new PolicyParameters(0.001, 16));
    p.setOverWriteBudget(() -> over);
    return p;
  }

  @Test
  void onMiss_overBudgetRefusesFirstAccessEvenWithRoom() {
    for (String name : CachePolicies.withWriteBudgetMode()) {
      CachePolicy p = policy(name);
      over = true;
      CacheDecision d = p.onMiss(access(1, "A", 1, "j1", 0), 10_000);
      assertEquals(CacheDecision.Reason.REJECTED_WRITE_BUDGET, d.reason(), name);
      assertTrue(d.evict().isEmpty(), name);
    }
  }

  @Test
  void onMiss_overBudgetAdmitsSecondAccessWithinTheHour() {
    for (String name : CachePolicies.withWriteBudgetMode()) {
      CachePolicy p = policy(name);
      over = true;
      p.onMiss(access(1, "A", 1, "j1", 0), 10_000);
      CacheDecision d = p.onMiss(access(1, "A", 1, "j2", HOUR), 10_000);
      assertEquals(CacheDecision.Reason.ADMITTED_FREE_SPACE, d.reason(), name);
    }
  }

  @Test
  void onMiss_overBudgetRefusesSecondAccessAfterMoreThanAnHour() {
    for (String name : CachePolicies.withWriteBudgetMode()) {
      CachePolicy p = policy(name);
      over = true;
      p.onMiss(access(1, "A", 1, "j1", 0), 10_000);
      CacheDecision d = p.onMiss(access(1, "A", 1, "j2", HOUR + 1), 10_000);
      assertEquals(CacheDecision.Reason.REJECTED_WRITE_BUDGET, d.reason(), name);
      // That access is remembered in its turn: a third within the hour of it gets in.
      d = p.onMiss(access(1, "A", 1, "j3", HOUR + 2), 10_000);
      assertTrue(d.admitted(), name);
    }
  }

  @Test
  void onMiss_underBudgetAgainAdmitsFirstAccesses() {
    for (String name : CachePolicies.withWriteBudgetMode()) {
      CachePolicy p = policy(name);
      over = true;
      assertFalse(p.onMiss(access(1, "A", 1, "j1", 0), 10_000).admitted(), name);
      over = false;
      assertEquals(CacheDecision.Reason.ADMITTED_FREE_SPACE,
          p.onMiss(access(2, "B", 1, "j2", 1), 10_000).reason(), name);
    }
  }

  @Test
  void onMiss_verdictHeldForTheRestOfTheAccess() {
    for (String name : CachePolicies.withWriteBudgetMode()) {
      CachePolicy p = policy(name);
      over = true;
      assertFalse(p.onMiss(access(1, "A", 2, "j1", 0), 10_000).admitted(), name);
      // The same job's next block is the same access: still its first.
      assertFalse(p.onMiss(access(2, "A", 2, "j1", 1), 10_000).admitted(), name);
    }
  }

  @Test
  void onMiss_mpcacheCompletesADatasetAdmittedBeforeTheBudgetWasPassed() {
    CachePolicy p = policy(CachePolicies.MPCACHE);
    assertTrue(p.onMiss(access(1, "A", 2, "j1", 0), 10_000).admitted());
    p.onCached("s1", block(1));
    over = true;
    assertTrue(p.onMiss(access(2, "A", 2, "j1", 1), 10_000).admitted());
    // A later first-in-the-hour access of the partly cached dataset is not tested either.
    assertTrue(p.onMiss(access(3, "A", 3, "j2", 3 * HOUR), 10_000).admitted());
  }

  @Test
  void onMiss_policiesWithoutTheModeIgnoreTheBudget() {
    for (String name : List.of(CachePolicies.GDSF, CachePolicies.LFU_F, CachePolicies.LIFE)) {
      CachePolicy p = policy(name);
      over = true;
      assertTrue(p.onMiss(access(1, "A", 1, "j1", 0), 10_000).admitted(), name);
    }
  }

  @Test
  void backlog_drainsAtTheBudgetsRateAndNeverBelowZero() {
    WriteRateMeter m = new WriteRateMeter();
    m.add(0, 300, 100);
    assertEquals(300, m.backlog(0, 100));
    assertEquals(250, m.backlog(HOUR / 2, 100));
    m.add(HOUR / 2, 50, 100);
    assertEquals(100, m.backlog(3 * HOUR / 2 + HOUR, 100));
    assertEquals(0, m.backlog(10 * HOUR, 100));
  }

  @Test
  void over_whenTheBacklogPassesAnHourOfTheBudget() {
    WriteRateMeter m = new WriteRateMeter();
    m.add(0, 100, 100);
    assertFalse(m.over(0, 100, 0), "an hour's budget may be written at once");
    m.add(0, 1, 100);
    assertTrue(m.over(0, 100, 0));
    assertFalse(m.over(HOUR / 100 + 1, 100, 0), "drained below an hour's budget again");
  }

  @Test
  void over_aColdCacheMayFillItsCapacityAtOnce() {
    WriteRateMeter m = new WriteRateMeter();
    m.add(0, 1_000, 100);
    assertFalse(m.over(0, 100, 1_000), "the caches' capacity may be written at once");
    m.add(0, 1, 100);
    assertTrue(m.over(0, 100, 1_000));
    assertFalse(m.over(HOUR / 100 + 1, 100, 1_000), "drained below the capacity again");
  }

  @Test
  void over_theBucketIsAsDeepAsTheLiveSlavesInputCaches() {
    WriteBudget b = new WriteBudget(1000);
    b.reported("s1", 0, 5_000, 0);
    b.reported("s2", 0, 5_000, 0);
    b.reported("s1", 9_000, 5_000, 0);
    assertFalse(b.over(0), "9,000 bytes into 10,000 of Input Cache");
    b.reported("s2", 0, 3_000, 0);
    assertTrue(b.over(0), "the Input Caches shrank to 8,000");
    b.slaveLost("s2");
    b.reported("s2", 0, 5_000, 0);
    assertFalse(b.over(0), "a lost slave's capacity is counted once when it is back");
  }

  @Test
  void add_earlierTimeCountsAsTheLatest() {
    WriteRateMeter m = new WriteRateMeter();
    m.add(HOUR, 100, 100);
    m.add(0, 10, 100);
    assertEquals(110, m.backlog(HOUR, 100));
    assertThrows(IllegalArgumentException.class, () -> m.add(HOUR, -1, 100));
  }

  @Test
  void reported_firstReportIsTheBaselineAndARestartChargesAll() {
    WriteBudget b = new WriteBudget(1000);
    b.reported("s1", 5_000, 0, 0);
    assertEquals(0, b.backlogPerSlave(0));
    b.reported("s1", 5_600, 0, 0);
    assertEquals(600, b.backlogPerSlave(0));
    b.reported("s1", 300, 0, 0); // restarted: its counter began again
    assertEquals(900, b.backlogPerSlave(0));
    assertFalse(b.over(0));
    b.reported("s1", 500, 0, 0);
    assertTrue(b.over(0));
    assertFalse(b.over(HOUR), "an hour later the budget drained 1,000 bytes");
  }

  @Test
  void over_isPerSlaveOverTheSlavesReporting() {
    WriteBudget b = new WriteBudget(1000);
    b.reported("s1", 0, 0, 0);
    b.reported("s2", 0, 0, 0);
    b.reported("s1", 1_500, 0, 0);
    assertFalse(b.over(0)); // 1,500 against two slaves' 2,000
    b.slaveLost("s2");
    assertTrue(b.over(0));
  }

  @Test
  void over_neverWithoutBudget() {
    WriteBudget b = new WriteBudget(0);
    b.reported("s1", 0, 0, 0);
    b.reported("s1", Long.MAX_VALUE / 2, 0, 1);
    assertFalse(b.over(1));
    assertThrows(IllegalArgumentException.class, () -> new WriteBudget(-1));
  }

  @Test
  void access_answersAsOfTheStartOfEachAccess() {
    List<String> forgotten = new ArrayList<>();
    AuxiliaryCache aux = new AuxiliaryCache(2, HOUR, forgotten::add);
    assertEquals(AuxiliaryCache.Seen.NEW, aux.access("A", "j1", 0));
    assertEquals(AuxiliaryCache.Seen.NEW, aux.access("A", "j1", 5));
    assertEquals(AuxiliaryCache.Seen.RECENTLY, aux.access("A", "j2", HOUR));
    assertEquals(AuxiliaryCache.Seen.EARLIER, aux.access("A", "", 2 * HOUR + 1));
    assertEquals(AuxiliaryCache.Seen.RECENTLY, aux.access("A", "", 2 * HOUR + 2));
    aux.access("B", "j3", 0);
    aux.access("C", "j4", 0);
    assertEquals(List.of("A"), forgotten);
    assertEquals(List.of("B", "C"), aux.idsEldestFirst());
  }
}
