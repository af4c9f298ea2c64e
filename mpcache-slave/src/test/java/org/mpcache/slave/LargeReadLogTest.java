package org.mpcache.slave;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.ipc.Server;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.spi.LoggingEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.ClientSlaveProtos.ReadRequestProto;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.common.protocolPB.RpcSupport;
import org.mpcache.slave.localized.LocalizedConfigKeys;

/**
 * A read of a cached block's data is an expected large response: the slave's RPC server logs no
 * WARN for it (Hadoop's server warns above {@code ipc.server.max.response.size}, 1 MiB by
 * default, which one read at the slave's largest read size exceeds).
 */
class LargeReadLogTest {
  private static final int BLOCK = 3 << 20;

  @TempDir
  Path dir;

  /** Collects the messages of WARN or worse events. */
  private static final class Warnings extends AppenderSkeleton {
    final List<String> messages = new ArrayList<>();

    @Override
    protected synchronized void append(LoggingEvent e) {
      if (e.getLevel().isGreaterOrEqual(Level.WARN)) {
        messages.add(e.getRenderedMessage());
      }
    }

    @Override
    public void close() {
    }

    @Override
    public boolean requiresLayout() {
      return false;
    }
  }

  @Test
  void read_ofMoreThanOneMebibyte_logsNoLargeResponseWarning() throws Exception {
    Warnings warnings = new Warnings();
    Logger server = Logger.getLogger(Server.class);
    server.addAppender(warnings);
    try (SlaveFixture fixture = new SlaveFixture(dir, c -> {
      c.setLong(SlaveConfigKeys.CACHE_CAPACITY_KEY, 64L << 20);
      c.setLong(LocalizedConfigKeys.SPACE_UNIT_KEY, 1 << 20);
    }, MpCacheSlave::new)) {
      fixture.awaitRegistration();
      BlockKey key = new BlockKey("BP-1", 1, 1);
      byte[] data = new byte[BLOCK];
      new Random(3).nextBytes(data);
      assertTrue(fixture.fill(SlaveFixture.access(key, BLOCK, "/a", 1).build(), data));
      byte[] got = RpcSupport.call(() -> fixture.client().read(null, ReadRequestProto
          .newBuilder().setBlock(ProtoConverters.toProto(key)).setOffset(0).setLength(BLOCK)
          .build())).getData().toByteArray();
      assertArrayEquals(data, got, "the bytes read");
    } finally {
      server.removeAppender(warnings);
    }
    List<String> large = warnings.messages.stream()
        .filter(m -> m.startsWith("Large response size")).toList();
    assertEquals(List.of(), large, "the server's large-response warnings");
  }
}
