package org.mpcache.master.arbitrator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.mpcache.common.BlockKey;

/** The master's placement index: copies and their states, tallies, To_Del, and its views. */
class PlacementIndexTest {
  private final PlacementIndex p = new PlacementIndex();

  private static BlockKey block(long id) {
    return new BlockKey("BP-1", id, 1);
  }

  private void store(String dataset, long block, long bytes, String slave) {
    p.fill(dataset, block(block), bytes, slave);
    p.cached(slave, block(block));
  }

  @Test
  void removed_blockOnTwoSlavesCountsOnceAndStaysCachedUntilItsLastCopyGoes() {
    store("A", 1, 100, "s1");
    store("B", 1, 100, "s2"); // the block stays A's: the dataset it was first admitted for
    assertEquals("A", p.datasetOf(block(1)));
    assertFalse(p.holds("B"));
    assertEquals(1, p.cachedBlocks("A"));
    assertEquals(200, p.bytesHeld("A"));
    assertEquals(100, p.bytesOn("A", "s2"));
    assertEquals("A", p.removed("s1", block(1)));
    assertEquals(1, p.cachedBlocks("A"));
    assertEquals(0, p.bytesOn("A", "s1"));
    assertEquals("A", p.removed("s2", block(1)));
    assertFalse(p.holds("A"));
    assertNull(p.datasetOf(block(1)));
  }

  private Set<String> datasetsOn(String slave) {
    Set<String> out = new TreeSet<>();
    p.forEachDatasetOn(slave, out::add);
    return out;
  }

  @Test
  void forEachDatasetOn_datasetsWithStoredBytesThereFromBeforeTheFirstAskAndAsCopiesComeAndGo() {
    store("A", 1, 100, "s1");
    store("A", 2, 100, "s2");
    p.fill("B", block(3), 100, "s1"); // filling: no stored bytes yet
    assertEquals(Set.of("A"), datasetsOn("s1"));
    assertEquals(Set.of(), datasetsOn("s9"));
    p.cached("s1", block(3));
    store("C", 4, 100, "s2");
    assertEquals(Set.of("A", "B"), datasetsOn("s1"));
    assertEquals(Set.of("A", "C"), datasetsOn("s2"));
    p.removed("s1", block(1));
    assertEquals(Set.of("B"), datasetsOn("s1"));
    p.evict("C");
    assertEquals(Set.of("A"), datasetsOn("s2"), "an evicted dataset leaves at once");
    store("C", 5, 100, "s2"); // read again: a new dataset entry, on the slave again
    assertEquals(Set.of("A", "C"), datasetsOn("s2"));
    p.slaveLost("s2");
    assertEquals(Set.of(), datasetsOn("s2"));
    assertEquals(Set.of("B"), datasetsOn("s1"));
  }

  @Test
  void readableOn_onlyStoredCopiesNotQueuedForEviction() {
    store("A", 1, 100, "s1");
    store("A", 1, 100, "s2");
    p.fill("A", block(1), 100, "s3"); // still filling
    store("B", 2, 100, "s1");
    assertEquals(Set.of("s1", "s2"), p.readableOn(block(1)));
    assertEquals(Set.of("s1"), p.readableOn(block(2)));
    assertEquals(Set.of(), p.readableOn(block(3)));
    p.evict("B");
    assertEquals(Set.of(), p.readableOn(block(2)), "a doomed copy places nothing");
  }

  @Test
  void evict_queuesStoredCopiesOnTheirSlavesAndALateFillIsQueuedWhenReported() {
    store("A", 1, 100, "s1");
    store("A", 2, 50, "s2");
    store("A", 2, 50, "s3");
    p.fill("A", block(3), 100, "s1"); // still filling
    assertEquals(2, p.cachedBlocks("A"));
    p.evict("A");
    assertFalse(p.holds("A"));
    assertEquals(200, p.pendingBytes());
    assertEquals(50, p.pendingBytes("s2"));
    assertEquals(PlacementIndex.Stored.UNCHANGED, p.cached("s1", block(3)),
        "a block of an evicted dataset is queued, not counted");
    assertEquals(List.of(block(1), block(3)), p.takePending("s1"));
    assertEquals(100, p.pendingBytes(), "s2 and s3 still to go; block 3 counted 0 bytes");
    p.removed("s2", block(2));
    assertEquals(50, p.pendingBytes());
    assertEquals(List.of(), p.takePending("s2"));
    assertEquals(List.of(block(2)), p.takePending("s3"));
    assertEquals(0, p.pendingBytes());
  }

  @Test
  void bytesOn_tallyOverManySlavesSurvivesGrowthAndEmptiedSlaves() {
    for (int i = 0; i < 300; i++) {
      store("A", i, 10 + i, "s" + (i * 7 % 300));
    }
    for (int i = 0; i < 300; i += 2) {
      p.removed("s" + (i * 7 % 300), block(i));
    }
    for (int i = 300; i < 400; i++) {
      store("A", i, 1, "t" + i);
    }
    long total = 0;
    for (int i = 0; i < 300; i++) {
      long expected = i % 2 == 0 ? 0 : 10 + i;
      assertEquals(expected, p.bytesOn("A", "s" + (i * 7 % 300)), "slave of block " + i);
      total += expected;
    }
    assertEquals(1, p.bytesOn("A", "t350"));
    assertEquals(total + 100, p.bytesHeld("A"));
    assertEquals(250, p.cachedBlocks("A"));
  }

  @Test
  void slaveLost_forgetsItsCopiesAndPendingEvictions() {
    store("A", 1, 100, "s1");
    store("B", 2, 100, "s1");
    store("B", 3, 100, "s2");
    p.evict("A");
    assertEquals(Set.of("B"), p.slaveLost("s1"));
    assertEquals(0, p.pendingBytes());
    assertEquals(1, p.cachedBlocks("B"));
    assertTrue(p.holds("B"));
    assertEquals(Set.of(), p.slaveLost("nobody"));
  }

  @Test
  void evict_doomedCopiesStayWhatTheirSlaveHoldsUntilReportedRemoved() {
    store("A", 1, 100, "s1");
    p.fill("A", block(2), 100, "s1");
    p.evict("A");
    assertNull(p.datasetOf(block(1)), "the policy no longer sees it");
    assertEquals("A", p.ownerOf(block(1)), "evictions are still charged to A");
    assertEquals(List.of(block(1)), p.storedOn("s1"));
    assertEquals(1, p.storedCount("s1"));
    assertEquals(Set.of("s1"), p.holders(block(2)));
    assertNull(p.removed("s1", block(1)), "a doomed copy is no dataset's loss");
    assertEquals(0, p.storedCount("s1"));
    assertEquals(List.of(block(2)), p.copiesOn("s1"), "block 2 still fills there");
    p.removed("s1", block(2));
    assertEquals(List.of(), p.copiesOn("s1"));
  }

  @Test
  void cached_untrackedBlockIsAStrayUntilEvicted() {
    assertEquals(PlacementIndex.Stored.STRAY, p.cached("s1", block(7)));
    assertEquals(1, p.storedCount("s1"));
    assertNull(p.ownerOf(block(7)));
    assertNull(p.datasetOf(block(7)));
    assertEquals(0, p.pendingBytes("s1"));
    p.evictStray("s1", block(7));
    assertEquals(List.of(block(7)), p.takePending("s1"));
    assertEquals(PlacementIndex.Stored.UNCHANGED, p.cached("s1", block(7)));
    assertNull(p.removed("s1", block(7)));
    assertEquals(List.of(), p.storedOn("s1"));
  }

  @Test
  void fill_afterEvictionReplacesTheDoomedCopy() {
    store("A", 1, 100, "s1");
    p.evict("A");
    p.takePending("s1");
    p.fill("B", block(1), 100, "s1");
    assertEquals(PlacementIndex.Stored.NEWLY_STORED, p.cached("s1", block(1)));
    assertEquals("B", p.datasetOf(block(1)));
    assertEquals(1, p.cachedBlocks("B"));
    assertEquals(1, p.storedCount("s1"));
  }

  @Test
  void fill_ofAQueuedBlockKeepsItsPlaceInToDelUntilReportedRemoved() {
    store("A", 1, 100, "s1");
    store("A", 2, 100, "s1");
    p.evict("A");
    p.fill("B", block(1), 100, "s1"); // wanted again before s1 was told to drop it
    assertEquals(200, p.pendingBytes("s1"));
    p.evict("B");
    assertEquals(PlacementIndex.Stored.UNCHANGED, p.cached("s1", block(1)),
        "queued again in its first place, now counted 0 bytes");
    assertEquals(100, p.pendingBytes("s1"));
    assertEquals(List.of(block(1), block(2)), p.takePending("s1"));
    assertEquals(0, p.pendingBytes());

    store("C", 3, 100, "s2");
    p.evict("C");
    p.fill("D", block(3), 100, "s2");
    assertEquals("D", p.removed("s2", block(3)), "the report drops the entry and the new copy");
    assertEquals(0, p.pendingBytes());
    assertEquals(Set.of(), p.slavesWithPending());
  }
}
