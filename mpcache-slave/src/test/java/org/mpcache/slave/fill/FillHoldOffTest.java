package org.mpcache.slave.fill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** When a reader's fill may start: after its file's misses go quiet, within a bound. */
class FillHoldOffTest {
  private final FillHoldOff holdOff = new FillHoldOff(1_000, 10_000);

  @Test
  void aFill_waitsTheQuietTimeAfterItsFilesLastMiss() {
    assertEquals(1_000, holdOff.delayMs(5_000, 5_000, 5_000));
    assertEquals(400, holdOff.delayMs(5_000, 5_000, 5_600));
    // Another miss on the file at 5,500 puts the start off to 6,500.
    assertEquals(900, holdOff.delayMs(5_000, 5_500, 5_600));
    assertEquals(0, holdOff.delayMs(5_000, 5_500, 6_500));
  }

  @Test
  void aFileWhoseMissesNeverStop_delaysItsFillsByTheMaximumAtMost() {
    assertEquals(100, holdOff.delayMs(5_000, 14_900, 14_900));
    assertEquals(0, holdOff.delayMs(5_000, 14_999, 15_000));
  }

  @Test
  void aFillAskedForLongAfterItsFilesLastMiss_waitsFromItsOwnRequest() {
    // The file's record may be older than the request (a miss collapsed into a queued fill).
    assertEquals(1_000, holdOff.delayMs(8_000, 2_000, 8_000));
  }

  @Test
  void quietTimeZero_startsFillsAtOnce() {
    FillHoldOff none = new FillHoldOff(0, 10_000);
    assertFalse(none.holdsOff());
    assertEquals(0, none.delayMs(5_000, 5_000, 5_000));
    assertTrue(holdOff.holdsOff());
    assertFalse(new FillHoldOff(1_000, 0).holdsOff());
  }

  @Test
  void negativeTimes_areRefused() {
    assertThrows(IllegalArgumentException.class, () -> new FillHoldOff(-1, 10));
    assertThrows(IllegalArgumentException.class, () -> new FillHoldOff(10, -1));
  }
}
