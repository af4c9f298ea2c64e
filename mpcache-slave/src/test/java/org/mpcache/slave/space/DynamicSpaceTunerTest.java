package org.mpcache.slave.space;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.mpcache.common.BlockKey;

class DynamicSpaceTunerTest {

  /** Both steps of a localized reservation, with an excluder that does no I/O. */
  private static Reservation reserve(DynamicSpaceTuner t, long bytes, InputExcluder excluder) {
    Reservation r = t.reserveLocalized(bytes);
    if (r.reserved()) {
      return r;
    }
    return t.shortfall(bytes).map(s -> t.reserveLocalizedExcluding(bytes, s.dir(),
        excluder.planExclusion(s.dir(), s.lacking()), b -> false)).orElse(r);
  }

  private static final long UNIT = 100;

  /** 1,000 bytes: Input Cache 400, pool 4 units of 100, Localized Cache 200. */
  private static SsdVolume volume(String dir) {
    return SsdVolume.split(dir, 1000, UNIT, 0.4, 0.2);
  }

  private static DynamicSpaceTuner tuner(String... dirs) {
    List<SsdVolume> layout = new ArrayList<>();
    for (String d : dirs) {
      layout.add(volume(d));
    }
    return new DynamicSpaceTuner(layout, DynamicSpaceTuner.DEFAULT_GUARD);
  }

  private static BlockKey block(long id) {
    return new BlockKey("BP-1", id, 1);
  }

  /** Completes the fills of {@code blocks}: they may be excluded from now on. */
  private static void filled(DynamicSpaceTuner t, BlockKey... blocks) {
    for (BlockKey b : blocks) {
      assertTrue(t.inputFilled(b));
    }
  }

  @Test
  void split_partsAddUpToCapacity() {
    SsdVolume v = SsdVolume.split("/ssd", 1050, UNIT, 0.4, 0.2);
    assertEquals(210, v.localizedCacheCapacity());
    assertEquals(4, v.poolUnits());
    assertEquals(440, v.inputCacheCapacity());
    assertEquals(1050, v.inputCacheCapacity() + v.poolUnits() * UNIT + v.localizedCacheCapacity());
  }

  @Test
  void split_badFractions_namesThem() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SsdVolume.split("/ssd", 1000, UNIT, 0.7, 0.5));
    assertTrue(e.getMessage().contains("0.7") && e.getMessage().contains("0.5"), e.getMessage());
  }

  @Test
  void poolMoves_countsEveryUnitLentAndReturned() {
    DynamicSpaceTuner t = tuner("/ssd");
    assertTrue(t.reserveInput(block(1), 400).reserved());
    assertEquals(0, t.poolMoves());
    assertTrue(t.reserveInput(block(2), 150).reserved());
    assertEquals(2, t.poolMoves());
    assertTrue(t.releaseInput(block(2)));
    assertEquals(4, t.poolMoves());
    assertTrue(reserve(t, 250, InputExcluder.NEVER).reserved());
    assertEquals(5, t.poolMoves());
    t.releaseLocalized("/ssd", 250);
    assertEquals(6, t.poolMoves());
    assertEquals(0, t.snapshot().poolLentToInput() + t.snapshot().poolLentToLocalized());
  }

  @Test
  void reserveInput_inputCacheFull_lendsFreePoolUnits() {
    DynamicSpaceTuner t = tuner("/ssd");
    assertTrue(t.reserveInput(block(1), 400).reserved());
    assertEquals(0, t.snapshot().poolLentToInput());
    assertTrue(t.reserveInput(block(2), 150).reserved());
    assertEquals(200, t.snapshot().poolLentToInput());
    assertEquals(550, t.snapshot().inputCacheUsed());
  }

  @Test
  void reserveInput_poolExhausted_isDenied() {
    DynamicSpaceTuner t = tuner("/ssd");
    assertTrue(t.reserveInput(block(1), 800).reserved());
    Reservation r = t.reserveInput(block(2), 1);
    assertFalse(r.reserved());
    assertNull(r.dir());
    assertEquals(800, t.snapshot().inputCacheUsed());
  }

  @Test
  void releaseInput_blocksFitWithoutLentUnits_unitsReturn() {
    DynamicSpaceTuner t = tuner("/ssd");
    t.reserveInput(block(1), 400);
    t.reserveInput(block(2), 250);
    assertEquals(300, t.snapshot().poolLentToInput());
    assertTrue(t.releaseInput(block(1)));
    assertEquals(0, t.snapshot().poolLentToInput());
    assertFalse(t.releaseInput(block(1)));
  }

  @Test
  void reserveInput_twice_isRefused() {
    DynamicSpaceTuner t = tuner("/ssd");
    t.reserveInput(block(1), 10);
    assertThrows(IllegalStateException.class, () -> t.reserveInput(block(1), 10));
  }

  @Test
  void reserveLocalized_outgrowsLocalizedCache_lendsUnitsOneByOne() {
    DynamicSpaceTuner t = tuner("/ssd");
    assertTrue(reserve(t, 200, InputExcluder.NEVER).reserved());
    assertEquals(0, t.snapshot().poolLentToLocalized());
    assertTrue(reserve(t, 1, InputExcluder.NEVER).reserved());
    assertEquals(100, t.snapshot().poolLentToLocalized());
    assertTrue(reserve(t, 150, InputExcluder.NEVER).reserved());
    assertEquals(200, t.snapshot().poolLentToLocalized());
    assertTrue(reserve(t, 50, InputExcluder.NEVER).reserved());
    assertEquals(300, t.snapshot().poolLentToLocalized());
  }

  @Test
  void reserveLocalized_poolExhausted_excludesCachedInput() {
    DynamicSpaceTuner t = tuner("/ssd");
    t.reserveInput(block(1), 400);
    t.reserveInput(block(2), 200);
    t.reserveInput(block(3), 200);
    filled(t, block(1), block(2), block(3));
    assertEquals(400, t.snapshot().poolLentToInput());
    List<String> asked = new ArrayList<>();
    InputExcluder arbitrator = (dir, wanted) -> {
      asked.add(dir + ":" + wanted);
      return new EvictionPlan(List.of(block(2), block(3), block(99)));
    };
    Reservation r = reserve(t, 350, arbitrator);
    assertTrue(r.reserved());
    assertEquals("/ssd", r.dir());
    assertEquals(List.of("/ssd:150"), asked);
    assertEquals(List.of(block(2), block(3)), r.excluded());
    SpaceSnapshot s = t.snapshot();
    assertEquals(400, s.inputCacheUsed());
    assertEquals(0, s.poolLentToInput());
    assertEquals(200, s.poolLentToLocalized());
    assertEquals(350, s.localizedCacheUsed());
    assertNull(t.inputDir(block(2)));
  }

  @Test
  void reserveLocalized_planNamesABlockStillFilling_keepsItsReservation() {
    DynamicSpaceTuner t = tuner("/ssd");
    assertTrue(t.reserveInput(block(1), 400).reserved());
    assertTrue(t.reserveInput(block(2), 400).reserved());
    // Block 2 is still being written: its bytes keep arriving whatever the tuner decides.
    Reservation r = reserve(t, 300, (dir, wanted) -> new EvictionPlan(List.of(block(2))));
    long onSsd = 400 + 400 + (r.reserved() ? 300 : 0);
    assertTrue(onSsd <= 1000, "bytes on the SSD " + onSsd + " exceed its capacity 1000; excluded "
        + r.excluded() + ", " + t.snapshot());
    assertFalse(r.excluded().contains(block(2)), "a block still filling was excluded");
    assertEquals(800, t.snapshot().inputCacheUsed());

    filled(t, block(2));
    r = reserve(t, 300, (dir, wanted) -> new EvictionPlan(List.of(block(2))));
    assertTrue(r.reserved(), "once filled, the block can be excluded");
    assertEquals(List.of(block(2)), r.excluded());
    SpaceSnapshot s = t.snapshot();
    assertTrue(s.inputCacheUsed() + s.localizedCacheUsed() <= s.capacity(), s::toString);
  }

  @Test
  void reserveLocalized_planNamesABlockAReaderHoldsOpen_keepsItAccountedUntilReleased() {
    DynamicSpaceTuner t = tuner("/ssd");
    assertTrue(t.reserveInput(block(1), 400).reserved());
    assertTrue(t.reserveInput(block(2), 400).reserved());
    filled(t, block(1), block(2));
    // A reader has block 2 open: deleting its file leaves its bytes on the SSD until it closes.
    Reservation r = t.shortfall(300).map(s -> t.reserveLocalizedExcluding(300, s.dir(),
        new EvictionPlan(List.of(block(2))), block(2)::equals)).orElseThrow();
    long onSsd = 400 + 400 + (r.reserved() ? 300 : 0);
    assertTrue(onSsd <= 1000, "bytes on the SSD " + onSsd + " exceed its capacity 1000; excluded "
        + r.excluded() + ", " + t.snapshot());
    assertFalse(r.excluded().contains(block(2)), "a block a reader holds open was excluded");
    assertEquals(800, t.snapshot().inputCacheUsed());
    // The store releases it when the reader closes; then the room is there.
    assertTrue(t.releaseInput(block(2)));
    assertTrue(t.reserveLocalized(300).reserved());
  }

  @Test
  void reserveLocalized_exclusionNotEnough_isDeniedButReportsExcluded() {
    DynamicSpaceTuner t = tuner("/ssd");
    t.reserveInput(block(1), 400);
    t.reserveInput(block(2), 200);
    t.reserveInput(block(3), 200);
    filled(t, block(1), block(2), block(3));
    Reservation r = reserve(t, 500,
        (dir, wanted) -> new EvictionPlan(List.of(block(2))));
    assertFalse(r.reserved());
    assertEquals(List.of(block(2)), r.excluded());
    assertEquals(0, t.snapshot().localizedCacheUsed());
  }

  @Test
  void reserveLocalized_moreThanExcludableInput_doesNotAskTheExcluder() {
    DynamicSpaceTuner t = tuner("/ssd");
    t.reserveInput(block(1), 500);
    Reservation r = reserve(t, 601, (dir, wanted) -> {
      throw new AssertionError("asked for a hopeless exclusion");
    });
    assertFalse(r.reserved());
    assertTrue(r.excluded().isEmpty());
  }

  @Test
  void releaseLocalized_belowGuard_withdrawsLentUnits() {
    DynamicSpaceTuner t = tuner("/ssd");
    reserve(t, 500, InputExcluder.NEVER);
    assertEquals(300, t.snapshot().poolLentToLocalized());
    t.releaseLocalized("/ssd", 200);
    // 300 used of 500: ratio 0.6 is above the guard, the units stay lent.
    assertEquals(300, t.snapshot().poolLentToLocalized());
    t.releaseLocalized("/ssd", 60);
    // 240 used of 500: below the guard; one unit still holds data beyond the own 200 bytes.
    assertEquals(100, t.snapshot().poolLentToLocalized());
    t.releaseLocalized("/ssd", 240);
    assertEquals(0, t.snapshot().poolLentToLocalized());
    assertEquals(0, t.snapshot().localizedCacheUsed());
  }

  @Test
  void holdForLocalized_predictedNeed_lendsFreeUnitsUpFront_inputCannotTakeThem() {
    DynamicSpaceTuner t = tuner("/ssd");
    // 450 predicted: the own 200 bytes plus three units.
    assertEquals(300, t.holdForLocalized("app-1", 450));
    assertEquals(300, t.snapshot().poolLentToLocalized());
    assertEquals(300, t.heldBytes("app-1"));
    assertTrue(t.reserveInput(block(1), 400).reserved());
    assertTrue(t.reserveInput(block(2), 100).reserved(), "the one free unit");
    assertFalse(t.reserveInput(block(3), 100).reserved(), "held units are not the Input Cache's");
    assertTrue(t.reserveLocalized(450).reserved(), "the job's predicted need fits");
    assertEquals(300, t.snapshot().poolLentToLocalized(), "its data went into the held units");
  }

  @Test
  void holdForLocalized_needWithinOwnRoom_lendsNothing() {
    DynamicSpaceTuner t = tuner("/ssd");
    assertEquals(0, t.holdForLocalized("app-1", 200));
    assertEquals(0, t.snapshot().poolLentToLocalized());
    assertEquals(0, t.poolMoves());
  }

  @Test
  void holdForLocalized_takesOnlyFreeUnits_neverInputsOrTheirUnits() {
    DynamicSpaceTuner t = tuner("/ssd");
    assertTrue(t.reserveInput(block(1), 400).reserved());
    assertTrue(t.reserveInput(block(2), 300).reserved());
    assertEquals(100, t.holdForLocalized("app-1", 1000), "one free unit is all there is");
    assertEquals(300, t.snapshot().poolLentToInput());
    assertEquals(700, t.snapshot().inputCacheUsed());
    assertThrows(IllegalStateException.class, () -> t.holdForLocalized("app-1", 100));
  }

  @Test
  void holdForLocalized_twoHolders_eachGetsItsOwnUnits() {
    DynamicSpaceTuner t = tuner("/ssd");
    assertEquals(100, t.holdForLocalized("app-1", 300));
    assertEquals(200, t.holdForLocalized("app-2", 200), "app-1's unit is not app-2's room");
    assertEquals(300, t.snapshot().poolLentToLocalized());
  }

  @Test
  void releaseHold_guardReturnsHeldUnitsOnlyOnceTheHoldEnds() {
    DynamicSpaceTuner t = tuner("/ssd");
    t.holdForLocalized("app-1", 400);
    assertEquals(200, t.snapshot().poolLentToLocalized());
    Reservation r = t.reserveLocalized(350);
    t.releaseLocalized(r.dir(), 300);
    // 50 used of 400: below the guard, but the hold keeps its two units.
    assertEquals(200, t.snapshot().poolLentToLocalized());
    t.releaseHold("app-1");
    assertEquals(0, t.snapshot().poolLentToLocalized(), "the guard rule returned them");
    assertEquals(0, t.heldBytes("app-1"));
  }

  @Test
  void releaseHold_usedAboveGuard_unitsStayUntilUsageDrops() {
    DynamicSpaceTuner t = tuner("/ssd");
    t.holdForLocalized("app-1", 400);
    Reservation r = t.reserveLocalized(250);
    t.releaseHold("app-1");
    // 250 of 400 used: not below the guard, so the units stay lent as the paper has it.
    assertEquals(200, t.snapshot().poolLentToLocalized());
    t.releaseLocalized(r.dir(), 100);
    assertEquals(0, t.snapshot().poolLentToLocalized());
  }

  @Test
  void holdForLocalized_severalDirs_spreadsOverTheFreestDirs() {
    DynamicSpaceTuner t = tuner("/a", "/b");
    assertTrue(t.reserveInput(block(1), 600).reserved(), "/a lends two units to input");
    assertEquals(400, t.holdForLocalized("app-1", 800));
    assertEquals(100, t.snapshot("/a").poolLentToLocalized());
    assertEquals(300, t.snapshot("/b").poolLentToLocalized());
  }

  @Test
  void releaseLocalized_customGuard_isHonoured() {
    DynamicSpaceTuner t = new DynamicSpaceTuner(List.of(volume("/ssd")), 0.9);
    reserve(t, 500, InputExcluder.NEVER);
    t.releaseLocalized("/ssd", 100);
    assertEquals(200, t.snapshot().poolLentToLocalized());
  }

  @Test
  void releaseLocalized_moreThanHeld_namesDirAndAmounts() {
    DynamicSpaceTuner t = tuner("/ssd");
    reserve(t, 10, InputExcluder.NEVER);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> t.releaseLocalized("/ssd", 11));
    assertTrue(e.getMessage().contains("/ssd") && e.getMessage().contains("10"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> t.releaseLocalized("/other", 1));
  }

  @Test
  void reserve_severalDirs_spreadsAndFallsOverToTheOtherDir() {
    DynamicSpaceTuner t = tuner("/ssd1", "/ssd2");
    assertEquals("/ssd1", reserve(t, 300, InputExcluder.NEVER).dir());
    assertEquals("/ssd2", reserve(t, 300, InputExcluder.NEVER).dir());
    assertEquals("/ssd1", t.reserveInput(block(1), 700).dir());
    // The pool of /ssd1 is now lent out entirely, so the next grant goes to /ssd2.
    assertEquals("/ssd2", reserve(t, 250, InputExcluder.NEVER).dir());
    assertEquals(550, t.snapshot("/ssd2").localizedCacheUsed());
    SpaceSnapshot node = t.snapshot();
    assertEquals(2000, node.capacity());
    assertEquals(850, node.localizedCacheUsed());
    assertEquals(t.snapshot("/ssd1").plus(t.snapshot("/ssd2")), node);
  }

  @Test
  void reserveInputIn_blockFoundAtStart_staysInItsDirAndBorrowsThere() {
    DynamicSpaceTuner t = tuner("/ssd1", "/ssd2");
    assertEquals("/ssd2", t.reserveInputIn("/ssd2", block(1), 450).dir());
    assertEquals(UNIT, t.snapshot("/ssd2").poolLentToInput());
    assertEquals(0, t.snapshot("/ssd1").inputCacheUsed());
    assertFalse(t.reserveInputIn("/ssd2", block(2), 400).reserved(), "/ssd2 has 350 left");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> t.reserveInputIn("/ssd9", block(3), 1));
    assertTrue(e.getMessage().contains("/ssd9"), e.getMessage());
  }

  @Test
  void tunedInputCacheSpace_reportsWhatTheInputCacheCanReach() {
    DynamicSpaceTuner t = tuner("/ssd1");
    TunedInputCacheSpace space = new TunedInputCacheSpace(t, new Object());
    assertEquals(800, space.capacityBytes(), "own 400 and the pool's 400");
    assertEquals("/ssd1", space.tryReserve(block(1), 500, null));
    assertEquals(300, space.freeBytes());
    assertTrue(reserve(t, 250, InputExcluder.NEVER).reserved());
    assertEquals(700, space.capacityBytes(), "one unit lent to the Localized Cache");
    assertEquals(200, space.freeBytes());
    assertNull(space.tryReserve(block(2), 250, null), "does not fit: nothing reserved");
    assertEquals(500, space.usedBytes());
    space.release(block(1));
    space.release(block(1));
    assertEquals(0, space.usedBytes());
  }

  @Test
  void tuner_duplicateDir_isRejected() {
    assertThrows(IllegalArgumentException.class,
        () -> new DynamicSpaceTuner(List.of(volume("/a"), volume("/a")), 0.5));
    assertThrows(IllegalArgumentException.class,
        () -> new DynamicSpaceTuner(List.of(volume("/a")), 0));
  }

  @Test
  void anySequence_capacityNeverExceeded() {
    DynamicSpaceTuner t = tuner("/ssd1", "/ssd2");
    Random random = new Random(42);
    List<BlockKey> cached = new ArrayList<>();
    Set<BlockKey> filling = new HashSet<>();
    List<long[]> localized = new ArrayList<>();
    List<String> localizedDirs = new ArrayList<>();
    long nextBlock = 0;
    for (int step = 0; step < 20_000; step++) {
      switch (random.nextInt(4)) {
        case 0 -> {
          BlockKey b = block(nextBlock++);
          if (t.reserveInput(b, 1 + random.nextInt(150)).reserved()) {
            cached.add(b);
            if (random.nextInt(4) > 0) {
              t.inputFilled(b);
            } else {
              filling.add(b);
            }
          }
        }
        case 1 -> {
          if (!cached.isEmpty()) {
            BlockKey b = cached.remove(random.nextInt(cached.size()));
            filling.remove(b);
            t.releaseInput(b);
          }
        }
        case 2 -> {
          long bytes = 1 + random.nextInt(250);
          Reservation r = reserve(t, bytes, (dir, wanted) -> new EvictionPlan(
              cached.isEmpty() ? List.of() : List.of(cached.get(0))));
          for (BlockKey b : r.excluded()) {
            assertFalse(filling.contains(b), "excluded " + b + " while it was filling");
          }
          cached.removeAll(r.excluded());
          if (r.reserved()) {
            localized.add(new long[] {bytes});
            localizedDirs.add(r.dir());
          }
        }
        default -> {
          if (!localized.isEmpty()) {
            int i = random.nextInt(localized.size());
            t.releaseLocalized(localizedDirs.remove(i), localized.remove(i)[0]);
          }
        }
      }
      for (String dir : List.of("/ssd1", "/ssd2")) {
        SpaceSnapshot s = t.snapshot(dir);
        assertTrue(s.inputCacheUsed() <= s.inputCacheCapacity() + s.poolLentToInput(), s::toString);
        assertTrue(s.localizedCacheUsed() <= s.localizedCacheCapacity() + s.poolLentToLocalized(),
            s::toString);
        assertTrue(s.poolFree() >= 0, s::toString);
        assertTrue(s.inputCacheUsed() + s.localizedCacheUsed() <= s.capacity(), s::toString);
      }
    }
  }

  @Test
  void setInService_false_placesNothingThereAndLeavesItOutOfTheTotals() {
    DynamicSpaceTuner t = tuner("/a", "/b");
    assertTrue(t.reserveInput(block(1), 300).reserved());
    assertEquals("/a", t.inputDir(block(1)));
    assertTrue(t.setInService("/a", false));
    assertFalse(t.setInService("/a", false), "already out");
    assertFalse(t.inService("/a"));
    assertEquals(1000, t.snapshot().capacity(), "only /b counts");
    assertEquals(0, t.snapshot().inputCacheUsed(), "/a's block is not in the totals");
    for (long id = 2; id <= 5; id++) {
      assertEquals("/b", t.reserveInput(block(id), 100).dir(), "every block goes to /b");
    }
    assertFalse(t.reserveInputIn("/a", block(9), 100).reserved(), "not even a found block");
    assertEquals("/b", t.reserveLocalized(50).dir());
    assertTrue(t.shortfall(5_000).isEmpty());
    t.holdForLocalized("job", 600);
    assertEquals(0, t.snapshot("/a").poolLentToLocalized(), "no unit of /a is lent");
    assertTrue(t.releaseInput(block(1)), "what /a holds is released as before");
  }

  @Test
  void setInService_everyDirectoryOut_grantsNothing() {
    DynamicSpaceTuner t = tuner("/a", "/b");
    t.setInService("/a", false);
    t.setInService("/b", false);
    assertFalse(t.reserveInput(block(1), 1).reserved());
    assertFalse(t.reserveLocalized(1).reserved());
    assertEquals(0, t.snapshot().capacity());
  }

  @Test
  void setInService_true_countsTheDirectoryAgain() {
    DynamicSpaceTuner t = tuner("/a", "/b");
    t.setInService("/a", false);
    assertTrue(t.setInService("/a", true));
    assertEquals(2000, t.snapshot().capacity());
    assertEquals("/a", t.reserveInput(block(1), 100).dir());
    assertThrows(IllegalArgumentException.class, () -> t.setInService("/c", false));
  }
}
