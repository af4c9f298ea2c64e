package org.mpcache.slave.volume;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RunningClockTest {

  @Test
  void tick_addsWhatPassedWhileTheProcessRan() {
    AtomicLong raw = new AtomicLong(1_000);
    RunningClock clock = new RunningClock(raw::get, 250);
    for (int i = 0; i < 40; i++) {
      raw.addAndGet(50);
      clock.tick();
    }
    assertEquals(2_000, clock.getAsLong());
  }

  @Test
  void tick_afterTheProcessStoodStill_addsOneStepAtMost() {
    AtomicLong raw = new AtomicLong(0);
    RunningClock clock = new RunningClock(raw::get, 250);
    raw.addAndGet(50);
    clock.tick();
    raw.addAndGet(30_000); // stopped: no tick for 30 s
    clock.tick();
    raw.addAndGet(50);
    clock.tick();
    assertEquals(350, clock.getAsLong());
  }

  @Test
  void readTimedAcrossAStall_isNotSlow_butASlowDeviceStillIs() {
    AtomicLong raw = new AtomicLong(0);
    RunningClock clock = new RunningClock(raw::get, 250);
    VolumeHealth health = new VolumeHealth(List.of("/ssd"), 0, 60_000, 2_000, raw::get, raw::get);

    long start = clock.getAsLong();
    long rawStart = raw.get();
    raw.addAndGet(10_000); // the process stopped in the middle of a read
    clock.tick();
    assertFalse(health.readTook("/ssd", clock.getAsLong() - start, "read"), "a stall");
    assertTrue(health.inService("/ssd"));
    VolumeHealth byMonotonicClock =
        new VolumeHealth(List.of("/ssd"), 0, 60_000, 2_000, raw::get, raw::get);
    assertTrue(byMonotonicClock.readTook("/ssd", raw.get() - rawStart, "read"),
        "timed by the monotonic clock, the stall would have taken the directory out");

    start = clock.getAsLong();
    for (int i = 0; i < 60; i++) { // the process ran, ticking, through a 3 s read
      raw.addAndGet(50);
      clock.tick();
    }
    assertTrue(health.readTook("/ssd", clock.getAsLong() - start, "read"), "a slow device");
  }

  @Test
  void constructor_stepBelowOne_isRefused() {
    assertThrows(IllegalArgumentException.class, () -> new RunningClock(() -> 0, 0));
  }

  @Test
  void start_advancesOnItsOwn() throws InterruptedException {
    try (RunningClock clock = RunningClock.start()) {
      long t0 = clock.getAsLong();
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (clock.getAsLong() == t0 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertTrue(clock.getAsLong() > t0, "the clock ran");
    }
  }
}
