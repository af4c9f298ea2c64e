package org.mpcache.slave.space;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The SSD's foreground bytes over a sliding window, on a clock the test moves. */
class ForegroundActivityTest {
  private final AtomicLong now = new AtomicLong(50_000);
  /** A 1 s window in slices of 100 ms. */
  private final ForegroundActivity meter = new ForegroundActivity(1_000, now::get);

  @Test
  void recentBytes_nothingRecorded_isZero() {
    assertEquals(0, meter.recentBytes());
  }

  @Test
  void recentBytes_withinTheWindow_addsUp() {
    meter.record(100);
    now.addAndGet(450);
    meter.record(20);
    now.addAndGet(400);
    assertEquals(120, meter.recentBytes());
  }

  @Test
  void recentBytes_afterTheWindow_dropsWhatLeftIt() {
    meter.record(100);
    now.addAndGet(600);
    meter.record(20);
    // The first slice (50,000 to 50,099) leaves the window when the slice 1 s later begins.
    now.set(50_999);
    assertEquals(120, meter.recentBytes());
    now.set(51_000);
    assertEquals(20, meter.recentBytes());
    now.set(51_600);
    assertEquals(0, meter.recentBytes());
  }

  @Test
  void record_aSliceReusedAWindowLater_startsItAgain() {
    meter.record(100);
    now.addAndGet(1_000);
    meter.record(7);
    assertEquals(7, meter.recentBytes());
  }

  @Test
  void recentBytes_clockGoingBackWithinASlice_keepsCounting() {
    now.set(50_050);
    meter.record(5);
    now.set(50_020);
    meter.record(6);
    assertEquals(11, meter.recentBytes());
  }

  @Test
  void newMeter_windowUnderTenMs_cutsItIntoMillisecondSlices() {
    ForegroundActivity short3 = new ForegroundActivity(3, now::get);
    short3.record(9);
    now.addAndGet(2);
    assertEquals(9, short3.recentBytes());
    now.addAndGet(1);
    assertEquals(0, short3.recentBytes());
  }

  @Test
  void newMeter_windowUnderOneMs_isRefused() {
    assertThrows(IllegalArgumentException.class, () -> new ForegroundActivity(0, now::get));
  }

  @Test
  void record_negativeBytes_isRefused() {
    assertThrows(IllegalArgumentException.class, () -> meter.record(-1));
  }
}
