package org.mpcache.master.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The durations and sizes {@code mpcache admin ttl} and {@code quota} take. */
class ControlCommandTest {

  @Test
  void durationMs_units_convertToMilliseconds() throws Exception {
    assertEquals(250, ControlCommand.durationMs("250ms"));
    assertEquals(30 * 60_000L, ControlCommand.durationMs("30m"));
    assertEquals(12 * 3_600_000L, ControlCommand.durationMs("12h"));
    assertEquals(7 * 86_400_000L, ControlCommand.durationMs("7d"));
    assertEquals(0, ControlCommand.durationMs("none"));
  }

  @Test
  void durationMs_noUnitOrZero_refusedSayingWhatIsExpected() {
    UsageException bare = assertThrows(UsageException.class,
        () -> ControlCommand.durationMs("30"));
    assertTrue(bare.getMessage().contains("ms, s, m, h, d"), bare.getMessage());
    assertThrows(UsageException.class, () -> ControlCommand.durationMs("0s"));
    assertThrows(UsageException.class, () -> ControlCommand.durationMs("99999999999999999999d"));
  }

  @Test
  void size_binarySuffixes_andNone() throws Exception {
    assertEquals(3L << 20, ControlCommand.size("3m"));
    assertEquals(2L << 40, ControlCommand.size("2t"));
    assertEquals(512, ControlCommand.size("512"));
    assertEquals(0, ControlCommand.size("none"));
    assertThrows(UsageException.class, () -> ControlCommand.size("3x"));
    assertThrows(UsageException.class, () -> ControlCommand.size("0"));
  }
}
