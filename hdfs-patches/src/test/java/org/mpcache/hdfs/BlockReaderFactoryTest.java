package org.mpcache.hdfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.mockito.Mockito.mock;

import java.util.HashMap;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.mpcache.common.BlockKey;
import org.mpcache.common.domain.DescriptorClient;
import org.mpcache.common.proto.ClientSlaveProtos.LookupResponseProto;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.protocolPB.ClientSlaveProtocolPB;

/**
 * The factory's choice of transport when the descriptor client cannot even be set up: the
 * block goes on through the next transport, the fault counted, whatever the descriptor client
 * threw.
 */
class BlockReaderFactoryTest {
  private static final String SOCKET = "/run/mpcache/slave.socket";
  private static final long LENGTH = 16 * 1024;

  static Stream<Throwable> setupErrors() {
    return Stream.of(new UnsatisfiedLinkError("no netty_transport_native_epoll_x86_64"),
        new NoClassDefFoundError("io/netty/channel/epoll/Native"),
        new ExceptionInInitializerError("epoll event loop"),
        new IllegalStateException("event loop shut down"));
  }

  private static BlockReaderFactory factoryThrowing(Throwable error) {
    Configuration conf = new Configuration(false);
    conf.setBoolean(ClientConfigKeys.DOMAIN_SOCKET_ENABLED_KEY, true);
    conf.setBoolean(ClientConfigKeys.STREAM_ENABLED_KEY, false);
    ClientContext ctx = new ClientContext(new ClientConf(conf), mock(SlaveDirectory.class), null,
        new OpenStreams(), null);
    return new BlockReaderFactory(ctx, System::nanoTime, (socket, t, access, timeoutMs,
        releaseTimeoutMs) -> {
      if (error instanceof Error) {
        throw (Error) error;
      }
      throw (RuntimeException) error;
    });
  }

  private static BlockTarget localTarget() {
    SlaveDirectory.Slave slave = new SlaveDirectory.Slave("s1", mock(ClientSlaveProtocolPB.class),
        true, "127.0.0.1", 0, new HashMap<>());
    slave.descriptorSocket(SOCKET);
    return new BlockTarget(slave, new BlockKey("BP-1", 1, 1),
        BlockAccessProto.getDefaultInstance(), "", LENGTH);
  }

  @ParameterizedTest
  @MethodSource("setupErrors")
  void direct_descriptorClientSetupThrows_fallsThroughToALookupAndCounts(Throwable error) {
    assumeTrue(DescriptorClient.isAvailable(), "the descriptor path is tried only where it can be");
    BlockReaderFactory f = factoryThrowing(error);
    BlockTarget t = localTarget();
    long faults = ClientCounters.get().descriptorFaults();
    assertNull(f.direct(t, f.deadline(t, true), true), "no descriptor: the block is looked up");
    assertEquals(faults + 1, ClientCounters.get().descriptorFaults());
    assertNull(t.slave().descriptorSocket(), "the socket is forgotten");
  }

  @ParameterizedTest
  @MethodSource("setupErrors")
  void looked_descriptorClientSetupThrows_readsThroughRpcAndCounts(Throwable error) {
    assumeTrue(DescriptorClient.isAvailable(), "the descriptor path is tried only where it can be");
    BlockReaderFactory f = factoryThrowing(error);
    BlockTarget t = localTarget();
    LookupResponseProto hit = LookupResponseProto.newBuilder()
        .setStatus(LookupResponseProto.Status.HIT).setLength(LENGTH).setDomainSocketPath(SOCKET)
        .build();
    long faults = ClientCounters.get().descriptorFaults();
    BlockReader r = f.looked(t, hit, f.deadline(t, false), false, false);
    assertEquals(BlockReader.Transport.RPC, r.transport());
    assertEquals(faults + 1, ClientCounters.get().descriptorFaults());
  }
}
