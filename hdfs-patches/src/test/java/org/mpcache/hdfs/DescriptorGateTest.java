package org.mpcache.hdfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * When a FileSystem's local hits start taking descriptors: after the bytes its key names, at
 * once when it names none or hits would otherwise go through RPC; and the key's bad values
 * refused by name.
 */
class DescriptorGateTest {

  @Test
  void open_afterTheBytesItWaitsFor_andStaysOpen() {
    DescriptorGate g = new DescriptorGate(100);
    assertFalse(g.open());
    g.read(99);
    assertFalse(g.open(), "one byte short");
    g.read(1);
    assertTrue(g.open());
    assertTrue(g.open(), "stays open");
  }

  @Test
  void open_fromTheStart_whenItWaitsForNoBytes() {
    assertTrue(new DescriptorGate(0).open());
  }

  @Test
  void settings_defaultWaitsForAQuarterGib_streamsOffOrZeroDoNotWait() {
    Configuration conf = new Configuration(false);
    assertEquals(256L << 20, new ClientConf(conf).descriptorsAfterBytes);
    conf.set(ClientConfigKeys.DOMAIN_SOCKET_AFTER_BYTES_KEY, "64m");
    assertEquals(64L << 20, new ClientConf(conf).descriptorsAfterBytes);
    conf.setBoolean(ClientConfigKeys.STREAM_ENABLED_KEY, false);
    assertEquals(0, new ClientConf(conf).descriptorsAfterBytes,
        "without streams a hit would go through RPC: descriptors at once");
  }

  @Test
  void settings_negativeBytes_refusedNamingTheKey() {
    Configuration conf = new Configuration(false);
    conf.setLong(ClientConfigKeys.DOMAIN_SOCKET_AFTER_BYTES_KEY, -1);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new ClientConf(conf));
    assertTrue(e.getMessage().contains(ClientConfigKeys.DOMAIN_SOCKET_AFTER_BYTES_KEY),
        e.getMessage());
  }
}
