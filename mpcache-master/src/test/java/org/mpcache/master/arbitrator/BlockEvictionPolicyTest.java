package org.mpcache.master.arbitrator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.mpcache.common.BlockKey;

/**
 * The block-granularity baselines, LRU and LFU, choosing victims on small hand-worked traces of
 * 100-byte blocks: which blocks go, that only the requesting slave loses any, and when a block
 * cannot fit at all.
 */
class BlockEvictionPolicyTest {

  private static BlockKey block(long id) {
    return new BlockKey("BP-1", id, 1);
  }

  private static BlockAccess access(String slave, long block, long bytes, String job) {
    return new BlockAccess(slave, block(block), bytes, "D" + block, 1, job, 0);
  }

  /** Misses with room and caches the block on {@code slave}. */
  private static void cache(CachePolicy policy, String slave, long block) {
    CacheDecision d = policy.onMiss(access(slave, block, 100, "j" + block), 1_000);
    assertEquals(CacheDecision.Reason.ADMITTED_FREE_SPACE, d.reason());
    policy.onCached(slave, block(block));
  }

  private static void hit(CachePolicy policy, String slave, long block) {
    policy.onHit(access(slave, block, 100, "hit"));
  }

  private static CacheDecision missFull(CachePolicy policy, String slave, long block, long bytes,
      long free) {
    return policy.onMiss(access(slave, block, bytes, "j" + block), free);
  }

  @Test
  void lru_evictsTheLeastRecentlyAccessedBlockOfTheRequestingSlave() {
    LruPolicy lru = new LruPolicy(new PlacementIndex(), PolicyParameters.defaults());
    cache(lru, "s1", 1);
    cache(lru, "s1", 2);
    cache(lru, "s1", 3);
    cache(lru, "s2", 9);
    hit(lru, "s1", 1);
    // Recency on s1, oldest first: 2, 3, 1. The older block 9 is on s2 and is not a candidate.
    CacheDecision d = missFull(lru, "s1", 4, 100, 0);
    assertEquals(CacheDecision.Reason.ADMITTED_BY_REPLACEMENT, d.reason());
    assertEquals(List.of(block(2)), d.evict());
    assertEquals(List.of(), lru.pendingEvictions("s2"));
    lru.onRemoved("s1", block(2));
    lru.onCached("s1", block(4));
    // Now 3, 1, 4; a 200-byte block with 50 bytes free needs 150: two blocks go.
    CacheDecision two = missFull(lru, "s1", 5, 200, 50);
    assertEquals(List.of(block(3), block(1)), two.evict());
  }

  @Test
  void lru_pinnedDatasetsBlocksAreSkipped_refusedWhenOnlyTheyWouldMakeRoom() {
    LruPolicy lru = new LruPolicy(new PlacementIndex(), PolicyParameters.defaults());
    cache(lru, "s1", 1);
    cache(lru, "s1", 2);
    lru.setPinned("D1"::equals);
    assertEquals(List.of(block(2)), missFull(lru, "s1", 3, 100, 0).evict());
    lru.onRemoved("s1", block(2));
    lru.onCached("s1", block(3));
    lru.setPinned(id -> true);
    assertEquals(CacheDecision.Reason.REJECTED_PINNED, missFull(lru, "s1", 4, 100, 0).reason());
    assertEquals(CacheDecision.Reason.REJECTED_TOO_LARGE,
        missFull(lru, "s1", 4, 300, 0).reason());
  }

  @Test
  void lru_blockStillFillingIsNotAVictim() {
    LruPolicy lru = new LruPolicy(new PlacementIndex(), PolicyParameters.defaults());
    lru.onMiss(access("s1", 1, 100, "j1"), 1_000);
    cache(lru, "s1", 2);
    // Block 1 is older but not yet cached: block 2 goes.
    assertEquals(List.of(block(2)), missFull(lru, "s1", 3, 100, 0).evict());
  }

  @Test
  void lru_blockStoredLateTakesItsPlaceByItsLastAccess() {
    LruPolicy lru = new LruPolicy(new PlacementIndex(), PolicyParameters.defaults());
    lru.onMiss(access("s1", 1, 100, "j1"), 1_000); // accessed first, stored last
    cache(lru, "s1", 2);
    cache(lru, "s1", 3);
    lru.onCached("s1", block(1));
    assertEquals(List.of(block(1), block(2)), missFull(lru, "s1", 4, 200, 0).evict());
  }

  @Test
  void lru_rejectsABlockLargerThanEverythingTheSlaveCaches() {
    LruPolicy lru = new LruPolicy(new PlacementIndex(), PolicyParameters.defaults());
    cache(lru, "s1", 1);
    cache(lru, "s1", 2);
    CacheDecision d = missFull(lru, "s1", 3, 300, 50);
    assertEquals(CacheDecision.Reason.REJECTED_TOO_LARGE, d.reason());
    assertEquals(List.of(), d.evict());
    // Nothing was dropped from the policy's view: the same two blocks are still the victims.
    assertEquals(List.of(block(1), block(2)), missFull(lru, "s1", 3, 250, 50).evict());
  }

  @Test
  void lru_blockCachedWithoutAMissIsAdoptedAsMostRecent() {
    LruPolicy lru = new LruPolicy(new PlacementIndex(), PolicyParameters.defaults());
    cache(lru, "s1", 1);
    lru.onCached("s1", block(7));
    assertEquals(List.of(block(1)), missFull(lru, "s1", 2, 100, 0).evict());
  }

  @Test
  void lru_lostSlaveIsForgotten() {
    LruPolicy lru = new LruPolicy(new PlacementIndex(), PolicyParameters.defaults());
    cache(lru, "s1", 1);
    lru.onSlaveLost("s1");
    assertEquals(CacheDecision.Reason.REJECTED_TOO_LARGE, missFull(lru, "s1", 2, 100, 0).reason());
  }

  @Test
  void lru_lostSlaveIsForgotten_theSameBlocksCopiesElsewhereStay() {
    LruPolicy lru = new LruPolicy(new PlacementIndex(), PolicyParameters.defaults());
    cache(lru, "s1", 1);
    cache(lru, "s2", 1);
    cache(lru, "s2", 2);
    lru.onSlaveLost("s1");
    // s2 still holds block 1, its least recently used: it is the victim there.
    CacheDecision d = missFull(lru, "s2", 3, 100, 0);
    assertEquals(CacheDecision.Reason.ADMITTED_BY_REPLACEMENT, d.reason());
    assertEquals(List.of(block(1)), d.evict());
    assertEquals(CacheDecision.Reason.REJECTED_TOO_LARGE, missFull(lru, "s1", 4, 100, 0).reason());
  }

  @Test
  void lfu_evictsTheLeastFrequentlyAccessedBlock() {
    LfuPolicy lfu = new LfuPolicy(new PlacementIndex(), PolicyParameters.defaults());
    cache(lfu, "s1", 1);
    cache(lfu, "s1", 2);
    cache(lfu, "s1", 3);
    hit(lfu, "s1", 1);
    hit(lfu, "s1", 1);
    hit(lfu, "s1", 3);
    // Counts: 1 -> 3, 2 -> 1, 3 -> 2. Block 2 is also the least recent but block 3 is not:
    // LRU would take 2 then 1; LFU takes 2 then 3.
    assertEquals(3, lfu.accessesOf("s1", block(1)));
    CacheDecision d = missFull(lfu, "s1", 4, 200, 0);
    assertEquals(List.of(block(2), block(3)), d.evict());
  }

  @Test
  void lfu_tiesGoToTheLeastRecentlyAccessed() {
    LfuPolicy lfu = new LfuPolicy(new PlacementIndex(), PolicyParameters.defaults());
    cache(lfu, "s1", 1);
    cache(lfu, "s1", 2);
    hit(lfu, "s1", 2);
    hit(lfu, "s1", 1);
    // Both have two accesses; block 2's last one is older.
    assertEquals(List.of(block(2)), missFull(lfu, "s1", 3, 100, 0).evict());
  }

  @Test
  void lfu_blockHitWhileFillingJoinsItsCountAmongTheMoreRecent() {
    LfuPolicy lfu = new LfuPolicy(new PlacementIndex(), PolicyParameters.defaults());
    lfu.onMiss(access("s1", 1, 100, "j1"), 1_000);
    hit(lfu, "s1", 1); // two accesses while filling
    cache(lfu, "s1", 2);
    cache(lfu, "s1", 3);
    hit(lfu, "s1", 3); // two accesses, the last more recent than block 1's
    lfu.onCached("s1", block(1));
    // Counts and last accesses: 2 -> 1; 1 -> 2, older; 3 -> 2, newer.
    assertEquals(List.of(block(2), block(1), block(3)), missFull(lfu, "s1", 4, 300, 0).evict());
  }

  @Test
  void lfu_countsStartOverAfterEviction() {
    LfuPolicy lfu = new LfuPolicy(new PlacementIndex(), PolicyParameters.defaults());
    cache(lfu, "s1", 1);
    hit(lfu, "s1", 1);
    lfu.onRemoved("s1", block(1));
    assertEquals(0, lfu.accessesOf("s1", block(1)));
    cache(lfu, "s1", 1);
    assertEquals(1, lfu.accessesOf("s1", block(1)));
  }
}
