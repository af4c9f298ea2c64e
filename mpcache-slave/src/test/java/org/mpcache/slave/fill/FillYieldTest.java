package org.mpcache.slave.fill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** When a fill gives way to foreground work on the SSD: while it is busy, within a bound. */
class FillYieldTest {
  /** Above 1,000 bytes per second over 2 s (2,000 bytes in the window), for 10 s at most. */
  private final FillYield yield = new FillYield(1_000, 2_000, 10_000);

  @Test
  void delayMs_idleSsd_goes() {
    assertEquals(0, yield.delayMs(0, 0));
    // At the threshold exactly is not above it.
    assertEquals(0, yield.delayMs(2_000, 0));
  }

  @Test
  void delayMs_busySsd_waitsATenthOfTheWindowAtATime() {
    assertEquals(200, yield.delayMs(2_001, 0));
    assertEquals(200, yield.delayMs(50_000_000, 4_000));
  }

  @Test
  void delayMs_busySsdPastTheMaxDelay_goes() {
    assertEquals(150, yield.delayMs(50_000, 9_850), "never past the longest delay");
    assertEquals(0, yield.delayMs(50_000, 10_000));
    assertEquals(0, yield.delayMs(50_000, 12_000));
  }

  @Test
  void delayMs_hugeForegroundCount_isBusyNotOverflowed() {
    assertEquals(200, yield.delayMs(Long.MAX_VALUE, 0));
  }

  @Test
  void delayMs_rateOrMaxDelayZero_neverWaits() {
    FillYield noRate = new FillYield(0, 2_000, 10_000);
    FillYield noDelay = new FillYield(1_000, 2_000, 0);
    assertFalse(noRate.yields());
    assertFalse(noDelay.yields());
    assertTrue(yield.yields());
    assertEquals(0, noRate.delayMs(50_000_000, 0));
    assertEquals(0, noDelay.delayMs(50_000_000, 0));
  }

  @Test
  void delayMs_shortWindow_waitsAtLeastAMillisecond() {
    assertEquals(1, new FillYield(1, 5, 10_000).delayMs(1_000, 0));
  }

  @Test
  void newFillYield_badArguments_areRefused() {
    assertThrows(IllegalArgumentException.class, () -> new FillYield(-1, 1_000, 10));
    assertThrows(IllegalArgumentException.class, () -> new FillYield(1, 0, 10));
    assertThrows(IllegalArgumentException.class, () -> new FillYield(1, 1_000, -1));
  }

  @Test
  void delayMs_negativeArguments_areRefused() {
    assertThrows(IllegalArgumentException.class, () -> yield.delayMs(-1, 0));
    assertThrows(IllegalArgumentException.class, () -> yield.delayMs(0, -1));
  }
}
