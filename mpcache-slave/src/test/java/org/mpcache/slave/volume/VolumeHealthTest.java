package org.mpcache.slave.volume;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.mpcache.slave.volume.VolumeHealth.DirState;
import org.mpcache.slave.volume.VolumeHealth.Fault;

/** When an SSD directory goes out of service, and how it comes back. */
class VolumeHealthTest {
  private static final String A = "/ssd/a";
  private static final String B = "/ssd/b";
  private final AtomicLong ticker = new AtomicLong(1_000);
  private final AtomicLong wall = new AtomicLong(1_700_000_000_000L);
  /** Two faults tolerated within 10 s; reads over 500 ms are slow. */
  private final VolumeHealth health = new VolumeHealth(List.of(A, B), 2, 10_000, 500,
      ticker::get, wall::get);

  @Test
  void fault_pastTheToleratedWithinTheWindow_takesTheDirectoryOut() {
    assertFalse(health.fault(A, Fault.READ_ERROR, "EIO"));
    assertFalse(health.fault(A, Fault.WRITE_ERROR, "EIO"));
    assertTrue(health.inService(A));
    ticker.addAndGet(9_999);
    assertTrue(health.fault(A, Fault.READ_ERROR, "Input/output error"));
    assertFalse(health.inService(A));
    assertTrue(health.inService(B), "the other directory is untouched");
    assertEquals(List.of(A), health.outOfService());
    assertEquals(1, health.failures());
  }

  @Test
  void fault_olderThanTheWindow_noLongerCounts() {
    health.fault(A, Fault.READ_ERROR, "EIO");
    health.fault(A, Fault.READ_ERROR, "EIO");
    ticker.addAndGet(10_000);
    assertFalse(health.fault(A, Fault.READ_ERROR, "EIO"), "the first two left the window");
    assertFalse(health.fault(A, Fault.READ_ERROR, "EIO"));
    assertTrue(health.fault(A, Fault.READ_ERROR, "EIO"));
  }

  @Test
  void fault_ofADirectoryAlreadyOut_changesNothing() {
    VolumeHealth none = new VolumeHealth(List.of(A), 0, 1_000, 0, ticker::get, wall::get);
    assertTrue(none.fault(A, Fault.WRITE_ERROR, "EIO"), "none tolerated: the first takes it out");
    assertFalse(none.fault(A, Fault.WRITE_ERROR, "again"));
    assertEquals(1, none.failures());
    assertEquals("write error: EIO", none.states().get(0).cause());
  }

  @Test
  void fault_ofAnUnknownDirectory_isIgnored() {
    assertFalse(health.fault("/elsewhere", Fault.READ_ERROR, "EIO"));
    assertFalse(health.inService("/elsewhere"));
    assertEquals(List.of(), health.outOfService());
  }

  @Test
  void readTook_slowerThanTheThreshold_isAFault() {
    assertFalse(health.readTook(A, 500, "read of blk_1"), "at the threshold: not slow");
    assertEquals(0, health.states().get(0).recentFaults());
    assertFalse(health.readTook(A, 501, "read of blk_1"));
    assertFalse(health.readTook(A, 9_000, "read of blk_1"));
    assertTrue(health.readTook(A, 600, "read of blk_2"));
    assertEquals("slow read: read of blk_2 took 600 ms, more than 500",
        health.states().get(0).cause());
  }

  @Test
  void readTook_withTheThresholdZero_neverCounts() {
    VolumeHealth off = new VolumeHealth(List.of(A), 0, 1_000, 0, ticker::get, wall::get);
    assertFalse(off.readTook(A, Long.MAX_VALUE, "read"));
    assertTrue(off.inService(A));
  }

  @Test
  void states_sayWhyAndSinceWhenADirectoryIsOut() {
    health.fault(B, Fault.READ_ERROR, "EIO");
    for (int i = 0; i < 3; i++) {
      health.fault(A, Fault.READ_ERROR, "EIO " + i);
    }
    List<DirState> s = health.states();
    assertEquals(new DirState(A, false, "read error: EIO 2", wall.get(), 3, 1), s.get(0));
    assertEquals(new DirState(B, true, "", 0, 1, 0), s.get(1));
    ticker.addAndGet(10_000);
    assertEquals(0, health.states().get(1).recentFaults(), "B's fault left the window");
    assertEquals(3, health.states().get(0).recentFaults(), "A keeps the faults that took it out");
  }

  @Test
  void restore_returnsTheDirectoryWithItsFaultsForgotten() {
    for (int i = 0; i < 3; i++) {
      health.fault(A, Fault.READ_ERROR, "EIO");
    }
    assertFalse(health.restore(B), "B was in service");
    assertTrue(health.restore(A));
    assertTrue(health.inService(A));
    assertEquals(new DirState(A, true, "", 0, 0, 1), health.states().get(0));
    assertFalse(health.fault(A, Fault.READ_ERROR, "EIO"), "it starts counting afresh");
    assertFalse(health.fault(A, Fault.READ_ERROR, "EIO"));
    assertTrue(health.fault(A, Fault.READ_ERROR, "EIO"));
    assertEquals(2, health.failures());
  }

  @Test
  void allOut_onlyWhenEveryDirectoryIs() {
    VolumeHealth none = new VolumeHealth(List.of(A, B), 0, 1_000, 0, ticker::get, wall::get);
    none.fault(A, Fault.READ_ERROR, "EIO");
    assertFalse(none.allOut());
    none.fault(B, Fault.SLOW_READ, "slow");
    assertTrue(none.allOut(), "every directory may go out: the slave then fails open");
  }

  @Test
  void constructor_badSettings_areRefused() {
    assertThrows(IllegalArgumentException.class,
        () -> new VolumeHealth(List.of(A), -1, 1, 0, ticker::get, wall::get));
    assertThrows(IllegalArgumentException.class,
        () -> new VolumeHealth(List.of(A), 0, 0, 0, ticker::get, wall::get));
    assertThrows(IllegalArgumentException.class,
        () -> new VolumeHealth(List.of(A), 0, 1, -1, ticker::get, wall::get));
    assertThrows(IllegalArgumentException.class,
        () -> new VolumeHealth(List.of(A, A), 0, 1, 0, ticker::get, wall::get));
  }
}
