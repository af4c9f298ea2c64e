package org.mpcache.slave;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.common.domain.DescriptorClient;
import org.mpcache.common.proto.ClientSlaveProtos.DescriptorResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.LookupRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.LookupResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.StreamResponseProto;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.common.protocolPB.RpcSupport;
import org.mpcache.common.stream.BlockStreamConnection;

/**
 * A slave's block stream and descriptor servers keep at most their configured number of
 * connections: one more is answered with an error naming the key and closed, while lookups over
 * RPC and fills go on, and a connection is served again once one of those open has closed.
 */
class ConnectionCapTest {
  private static final int BLOCK = 10_000;

  @TempDir
  Path dir;
  private SlaveFixture fx;

  @AfterEach
  void stop() {
    if (fx != null) {
      fx.close();
    }
  }

  /** Caches block {@code id} as the slave's own fill would. */
  private void cache(long id) throws Exception {
    assertTrue(fx.fillRandom(id, BLOCK));
  }

  private BlockStreamConnection stream(long id) throws Exception {
    return BlockStreamConnection.open(new InetSocketAddress("127.0.0.1",
        fx.slave().info().getStreamPort()), ProtoConverters.toProto(SlaveFixture.key(id)), "",
        BLOCK, 10_000);
  }

  /** Lookups and fills go on: a hit on {@code cached}, and block {@code fresh} cached. */
  private void assertLookupsAndFillsGoOn(long cached, long fresh) throws Exception {
    LookupResponseProto r = RpcSupport.call(() -> fx.client().lookup(null,
        LookupRequestProto.newBuilder().setAccess(SlaveFixture.access(cached, BLOCK)).build()));
    assertEquals(LookupResponseProto.Status.HIT, r.getStatus());
    cache(fresh);
  }

  @Test
  void stream_moreConnectionsThanTheCap_extraOnesRefusedWhileLookupsAndFillsGoOn()
      throws Exception {
    fx = new SlaveFixture(dir, c -> c.setInt(SlaveConfigKeys.STREAM_MAX_CONNECTIONS_KEY, 2),
        MpCacheSlave::new);
    fx.awaitRegistration();
    cache(1);
    cache(2);
    try (BlockStreamConnection first = stream(1); BlockStreamConnection second = stream(2)) {
      first.request(0, BLOCK);
      first.receive();
      second.request(0, BLOCK);
      second.receive();
      try (BlockStreamConnection extra = stream(1)) {
        extra.request(0, BLOCK);
        BlockStreamConnection.RefusedException e =
            assertThrows(BlockStreamConnection.RefusedException.class, extra::receive);
        assertEquals(StreamResponseProto.Status.ERROR, e.status());
        assertTrue(e.getMessage().contains(SlaveConfigKeys.STREAM_MAX_CONNECTIONS_KEY),
            e.getMessage());
      }
      assertLookupsAndFillsGoOn(1, 3);
    }
    SlaveFixture.waitFor(() -> fx.slave().getStreamServer().connections() == 0,
        "the streams to close");
    try (BlockStreamConnection again = stream(1)) {
      again.request(0, BLOCK);
      assertEquals(BLOCK, again.receive().length(), "served again under the cap");
    }
  }

  @Test
  void descriptor_moreConnectionsThanTheCap_extraOnesRefusedWhileLookupsAndFillsGoOn()
      throws Exception {
    assumeTrue(DescriptorClient.isAvailable(), "needs Netty's native epoll transport");
    Path sockets = Files.createDirectory(dir.resolve("sockets"));
    String socket = sockets.resolve("slave.socket").toString();
    fx = new SlaveFixture(dir, c -> {
      c.set(SlaveConfigKeys.DOMAIN_SOCKET_PATH_KEY, socket);
      c.setInt(SlaveConfigKeys.DOMAIN_SOCKET_MAX_CONNECTIONS_KEY, 1);
    }, MpCacheSlave::new);
    fx.awaitRegistration();
    cache(1);
    DescriptorClient.Lease held = DescriptorClient.request(socket,
        ProtoConverters.toProto(SlaveFixture.key(1)), "", null, 10_000, 10_000);
    assertTrue(held.granted());
    DescriptorClient.Lease extra = DescriptorClient.request(socket,
        ProtoConverters.toProto(SlaveFixture.key(1)), "", null, 10_000, 10_000);
    assertFalse(extra.granted(), "a descriptor granted past the cap");
    assertEquals(DescriptorResponseProto.Status.ERROR, extra.response().getStatus());
    assertTrue(extra.response().getMessage().contains(
        SlaveConfigKeys.DOMAIN_SOCKET_MAX_CONNECTIONS_KEY), extra.response().getMessage());
    assertLookupsAndFillsGoOn(1, 2);
    held.release(0);
    SlaveFixture.waitFor(() -> fx.slave().getDescriptorServer().connections() == 0,
        "the held descriptor's connection to close");
    DescriptorClient.Lease again = DescriptorClient.request(socket,
        ProtoConverters.toProto(SlaveFixture.key(1)), "", null, 10_000, 10_000);
    assertTrue(again.granted(), "served again under the cap");
    again.release(0);
  }
}
