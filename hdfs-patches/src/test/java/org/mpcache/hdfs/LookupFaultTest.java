package org.mpcache.hdfs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A lookup that fails: only a fault of the slave itself (it cannot be reached) leaves the slave
 * alone for the whole client; an error the slave answered with (a refused request, an expired
 * token) falls back to HDFS for the block and no more, on each of the three ways a lookup goes
 * out (on the reader's thread, off it after a miss, deferred and sent at close).
 */
class LookupFaultTest {
  private static final int BLOCK = 64 * 1024;

  private FakeSlave slave;

  @AfterEach
  void stop() {
    slave.close();
  }

  /** Reads the file block by block through {@code in}, then waits for the background calls. */
  private byte[] readAll(CachingInputStream in) throws Exception {
    byte[] got = new byte[slave.content.length];
    try (in) {
      for (int at = 0; at < got.length; at += BLOCK) {
        assertEquals(BLOCK, in.read(got, at, BLOCK));
      }
    }
    slave.close();
    return got;
  }

  @Test
  void read_lookupRefusedBySlave_fallsBackWithoutLeavingTheSlaveAlone() throws Exception {
    slave = new FakeSlave(1, BLOCK);
    slave.failNext("lookup", FakeSlave.Fault.REFUSED);
    long errors = ClientCounters.get().fallbacks(FallbackCause.SLAVE_ERROR);
    assertArrayEquals(slave.content, readAll(slave.open()));
    verify(slave.directory, never()).markFaulty(anyString());
    assertEquals(errors + 1, ClientCounters.get().fallbacks(FallbackCause.SLAVE_ERROR));
  }

  @Test
  void read_slaveUnreachable_leavesTheSlaveAlone() throws Exception {
    slave = new FakeSlave(1, BLOCK);
    slave.failNext("lookup", FakeSlave.Fault.UNREACHABLE);
    assertArrayEquals(slave.content, readAll(slave.open()));
    verify(slave.directory).markFaulty("s1");
  }

  @Test
  void read_backgroundLookupRefused_leavesTheSlaveAsItIs() throws Exception {
    // After a miss the next block's lookup goes out off the reader's thread.
    slave = new FakeSlave(2, BLOCK);
    CachingInputStream in = slave.open();
    byte[] got = new byte[2 * BLOCK];
    assertEquals(BLOCK, in.read(got, 0, BLOCK));
    slave.failNext("lookup", FakeSlave.Fault.REFUSED);
    assertEquals(BLOCK, in.read(got, BLOCK, BLOCK));
    in.close();
    slave.close();
    assertArrayEquals(slave.content, got);
    verify(slave.directory, never()).markFaulty(anyString());
  }

  @Test
  void read_deferredLookupRefused_leavesTheSlaveAsItIs() throws Exception {
    // The second missed block is entered within the interval: close looks it up.
    slave = new FakeSlave(2, BLOCK);
    Configuration conf = new Configuration(false);
    conf.setLong(ClientConfigKeys.MISS_LOOKUP_INTERVAL_MS_KEY, 60_000);
    CachingInputStream in = slave.open(conf);
    byte[] got = new byte[2 * BLOCK];
    assertEquals(BLOCK, in.read(got, 0, BLOCK));
    assertEquals(BLOCK, in.read(got, BLOCK, BLOCK));
    slave.failNext("lookup", FakeSlave.Fault.REFUSED);
    in.close();
    slave.close();
    assertArrayEquals(slave.content, got);
    verify(slave.directory, never()).markFaulty(anyString());
  }
}
