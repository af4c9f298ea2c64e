package org.mpcache.master.space;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class SpaceHistoryTest {
  private static final long MIB = 1L << 20;
  private static final long GIB = 1L << 30;
  private final SpaceHistory history = new SpaceHistory(0.25);

  @Test
  void bucketOf_powersOfTwoOf128MiB() {
    assertEquals(0, SpaceHistory.bucketOf(0));
    assertEquals(0, SpaceHistory.bucketOf(128 * MIB - 1));
    assertEquals(1, SpaceHistory.bucketOf(128 * MIB));
    assertEquals(1, SpaceHistory.bucketOf(256 * MIB - 1));
    assertEquals(2, SpaceHistory.bucketOf(256 * MIB));
    assertEquals(4, SpaceHistory.bucketOf(GIB));
  }

  @Test
  void predict_unknownType_defaultFraction() {
    SpaceSplit s = history.predict("grep", GIB, 100 * GIB);
    assertEquals(new SpaceSplit(25 * GIB, 75 * GIB, SpaceSplit.Basis.DEFAULT_FRACTION), s);
  }

  @Test
  void predict_sameBucket_peakLocalizedBytes() {
    history.record("sort", 3 * GIB, 2 * GIB);
    history.record("sort", 3 * GIB + MIB, 5 * GIB);
    history.record("sort", 3 * GIB, 1 * GIB);
    SpaceSplit s = history.predict("sort", 3 * GIB, 100 * GIB);
    assertEquals(new SpaceSplit(5 * GIB, 95 * GIB, SpaceSplit.Basis.SAME_BUCKET), s);
  }

  @Test
  void predict_otherBucketOnly_scaledFromNearest() {
    history.record("sort", GIB, 2 * GIB); // bucket 4
    history.record("sort", 64 * GIB, 10 * GIB); // bucket 10
    // 4 GiB is bucket 6: nearest is bucket 4 (distance 2), peak 2 GiB at mean input 1 GiB.
    SpaceSplit s = history.predict("sort", 4 * GIB, 100 * GIB);
    assertEquals(new SpaceSplit(8 * GIB, 92 * GIB, SpaceSplit.Basis.SCALED_FROM_NEAREST_BUCKET), s);
  }

  @Test
  void predict_largerThanCache_clampedToCapacity() {
    history.record("join", GIB, 500 * GIB);
    SpaceSplit s = history.predict("join", GIB, 80 * GIB);
    assertEquals(new SpaceSplit(80 * GIB, 0, SpaceSplit.Basis.SAME_BUCKET), s);
  }

  @Test
  void record_negativeBytes_rejected() {
    assertThrows(IllegalArgumentException.class, () -> history.record("x", -1, 0));
  }

  @Test
  void constructor_fractionOutOfRange_rejected() {
    assertThrows(IllegalArgumentException.class, () -> new SpaceHistory(1.5));
  }
}
