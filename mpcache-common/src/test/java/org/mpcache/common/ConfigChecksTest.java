package org.mpcache.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class ConfigChecksTest {
  private final Configuration conf = new Configuration(false);

  @Test
  void longAtLeast_defaultWhenUnsetAndErrorNamingKeyWhenBad() {
    assertEquals(7, ConfigChecks.longAtLeast(conf, "k", 7, 1));
    conf.set("k", "abc");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ConfigChecks.longAtLeast(conf, "k", 7, 1));
    assertTrue(e.getMessage().contains("'abc'") && e.getMessage().contains("k"));
    conf.set("k", "0");
    e = assertThrows(IllegalArgumentException.class, () -> ConfigChecks.longAtLeast(conf, "k",
        7, 1));
    assertTrue(e.getMessage().contains("at least 1"), e.getMessage());
  }

  @Test
  void bytesAtLeast_acceptsSuffixes() {
    conf.set("b", "2g");
    assertEquals(2L << 30, ConfigChecks.bytesAtLeast(conf, "b", 0, 0));
    conf.set("b", "lots");
    assertThrows(IllegalArgumentException.class, () -> ConfigChecks.bytesAtLeast(conf, "b", 0,
        0));
  }

  @Test
  void address_rejectsAMissingPort() {
    conf.set("a", "host-without-port");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ConfigChecks.address(conf, "a", "x:1"));
    assertTrue(e.getMessage().contains("a"), e.getMessage());
    conf.set("a", "example:50120");
    assertEquals(50120, ConfigChecks.address(conf, "a", "x:1").getPort());
  }
}
