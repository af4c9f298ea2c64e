package org.mpcache.benchmarks.readpath;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The per-round ratios' median, range and bootstrap interval. */
class RatioSummaryTest {
  @Test
  void of_oddCount_givesMedianRangeAndAnIntervalInsideTheRange() {
    RatioSummary s = RatioSummary.of(new double[] {1.1, 0.8, 0.95, 1.0, 0.9});
    assertEquals(0.95, s.median);
    assertEquals(0.8, s.min);
    assertEquals(1.1, s.max);
    assertEquals(5, s.rounds);
    assertTrue(s.low >= s.min && s.low <= s.median, "low " + s.low);
    assertTrue(s.high <= s.max && s.high >= s.median, "high " + s.high);
  }

  @Test
  void of_evenCount_averagesTheMiddleTwo() {
    assertEquals(0.95, RatioSummary.of(new double[] {1.0, 0.9, 0.8, 1.2}).median, 1e-12);
  }

  @Test
  void of_identicalRatios_haveAnIntervalOfThatRatio() {
    RatioSummary s = RatioSummary.of(new double[] {0.93, 0.93, 0.93});
    assertEquals(0.93, s.low);
    assertEquals(0.93, s.high);
  }

  @Test
  void of_moreRoundsOfTheSameSpread_narrowTheInterval() {
    double[] few = {0.8, 0.9, 1.0, 1.1, 0.85};
    double[] many = new double[few.length * 6];
    for (int i = 0; i < many.length; i++) {
      many[i] = few[i % few.length];
    }
    RatioSummary a = RatioSummary.of(few);
    RatioSummary b = RatioSummary.of(many);
    assertTrue(b.high - b.low < a.high - a.low, a + " against " + b);
  }

  @Test
  void of_sameRatios_sameInterval() {
    double[] r = {0.7, 1.2, 0.95, 1.01, 0.88, 0.91};
    assertEquals(RatioSummary.of(r).toString(), RatioSummary.of(r.clone()).toString());
  }

  @Test
  void of_noRatios_isRefused() {
    assertThrows(IllegalArgumentException.class, () -> RatioSummary.of(new double[0]));
  }
}
