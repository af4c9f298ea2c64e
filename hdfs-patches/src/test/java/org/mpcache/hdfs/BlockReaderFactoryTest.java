package org.mpcache.hdfs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.mockito.Mockito.mock;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.mpcache.common.BlockKey;
import org.mpcache.common.domain.DescriptorClient;
import org.mpcache.common.proto.ClientSlaveProtos.LookupResponseProto;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.protocolPB.ClientSlaveProtocolPB;
import org.mpcache.common.protocolPB.ProtoConverters;

/**
 * The factory's choice of transport when the descriptor client cannot even be set up: the
 * block goes on through the next transport, the fault counted, whatever the descriptor client
 * threw; local hits through the stream until the FileSystem's descriptor gate opens; and block
 * files shared by the streams of one FileSystem through its descriptor cache.
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
        new OpenStreams(), new DescriptorCache(0, 0, System::nanoTime),
        new DescriptorGate(0), null);
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
    BlockKey key = new BlockKey("BP-1", 1, 1);
    BlockAccessProto access = BlockAccessProto.newBuilder().setBlock(ProtoConverters.toProto(key))
        .setBlockBytes(LENGTH).setDatasetId("hdfs://nn/d").setDatasetBlocks(1).build();
    return new BlockTarget(slave, key, access, "token", LENGTH);
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

  @Test
  void looked_localHitBeforeTheGateOpens_asksForNoDescriptorUntilEnoughIsRead() {
    Configuration conf = new Configuration(false);
    conf.setBoolean(ClientConfigKeys.DOMAIN_SOCKET_ENABLED_KEY, true);
    conf.setLong(ClientConfigKeys.DOMAIN_SOCKET_AFTER_BYTES_KEY, 3 * LENGTH);
    ClientConf settings = new ClientConf(conf);
    ClientContext ctx = new ClientContext(settings, mock(SlaveDirectory.class), null,
        new OpenStreams(), new DescriptorCache(0, 0, System::nanoTime),
        new DescriptorGate(settings.descriptorsAfterBytes), null);
    AtomicInteger asked = new AtomicInteger();
    BlockReaderFactory f = new BlockReaderFactory(ctx, System::nanoTime,
        (socket, t, access, timeoutMs, releaseTimeoutMs) -> {
          asked.incrementAndGet();
          return null;
        });
    BlockTarget t = localTarget();
    LookupResponseProto hit = LookupResponseProto.newBuilder()
        .setStatus(LookupResponseProto.Status.HIT).setLength(LENGTH).setDomainSocketPath(SOCKET)
        .build();

    for (int i = 0; i < 3; i++) {
      // This slave offers no stream: the hit goes through RPC, as a stream's would.
      assertEquals(BlockReader.Transport.RPC,
          f.looked(t, hit, f.deadline(t, true), true, false).transport());
      assertNull(f.direct(t, f.deadline(t, true), true), "no descriptor before a lookup either");
      ctx.readFromCache((int) LENGTH);
    }
    assertEquals(0, asked.get(), "no descriptor asked for while the gate was shut");

    f.looked(t, hit, f.deadline(t, true), true, false);
    assertEquals(1, asked.get(), "3 blocks read from the cache: the next local hit asks");
  }

  @TempDir
  Path dir;

  /** Streams of one FileSystem: their factories over one context, whose block files it counts. */
  private final class SharedFiles {
    final AtomicInteger exchanges = new AtomicInteger();
    final BlockFiles files = new BlockFiles(dir, 1024);
    final ClientContext ctx;
    BlockFiles.Opened opened;

    SharedFiles() {
      Configuration conf = new Configuration(false);
      conf.setBoolean(ClientConfigKeys.STREAM_ENABLED_KEY, false);
      ctx = new ClientContext(new ClientConf(conf), mock(SlaveDirectory.class), null,
          new OpenStreams(), new DescriptorCache(4, Long.MAX_VALUE, System::nanoTime),
        new DescriptorGate(0), null);
    }

    /** One stream's factory. */
    BlockReaderFactory stream() {
      return new BlockReaderFactory(ctx, System::nanoTime, (socket, t, access, timeoutMs,
          releaseTimeoutMs) -> {
        exchanges.incrementAndGet();
        opened = files.open(t.key().getBlockId(), (int) t.length());
        return opened.reader();
      });
    }
  }

  @Test
  void direct_secondStreamReadsTheSameBlock_noSecondExchangeAndTheSlaveCountsTheHit()
      throws Exception {
    assumeTrue(DescriptorClient.isAvailable(), "the descriptor path is tried only where it can be");
    SharedFiles fs = new SharedFiles();
    BlockTarget t = localTarget();
    BlockReaderFactory first = fs.stream();
    BlockReaderFactory second = fs.stream();
    long hits = ClientCounters.get().descriptorCacheHits();

    BlockReader a = first.direct(t, first.deadline(t, true), true);
    BlockReader b = second.direct(t, second.deadline(t, false), false);
    byte[] read = new byte[(int) LENGTH];
    int n = b.read(0, read, 0, read.length);
    b.release().get();

    assertEquals(1, fs.exchanges.get(), "the second stream had the block's file open already");
    assertEquals(hits + 1, ClientCounters.get().descriptorCacheHits());
    assertEquals(LENGTH, n);
    assertArrayEquals(fs.opened.bytes(), read);
    assertEquals(List.of(t.access()), fs.opened.hold().accesses,
        "the slave hears of the second reader's access on the lease");
    assertEquals(LENGTH, fs.opened.hold().bytesRead.get(), "and of its bytes when it is done");
    assertEquals(0, fs.opened.hold().releases.get(), "the first stream still reads the file");
    a.release();
    fs.ctx.descriptors().close();
    assertEquals(1, fs.opened.hold().releases.get());
  }

  @Test
  void direct_slaveRevokedTheHeldFile_nextStreamAsksTheSlaveAgain() throws Exception {
    assumeTrue(DescriptorClient.isAvailable(), "the descriptor path is tried only where it can be");
    SharedFiles fs = new SharedFiles();
    BlockTarget t = localTarget();
    BlockReaderFactory first = fs.stream();
    first.direct(t, first.deadline(t, true), true).release();
    BlockFiles.Opened evicted = fs.opened;

    evicted.hold().revoke();
    BlockReaderFactory second = fs.stream();
    BlockReader r = second.direct(t, second.deadline(t, true), true);

    assertEquals(2, fs.exchanges.get(), "the revoked file is not handed out again");
    assertEquals(1, evicted.hold().releases.get(), "closed at once: no reader held it");
    r.release();
    fs.ctx.descriptors().close();
  }

  @Test
  void looked_missOfAHeldBlock_dropsItsFile() throws Exception {
    assumeTrue(DescriptorClient.isAvailable(), "the descriptor path is tried only where it can be");
    SharedFiles fs = new SharedFiles();
    BlockTarget t = localTarget();
    BlockReaderFactory f = fs.stream();
    f.direct(t, f.deadline(t, true), true).release();
    LookupResponseProto miss = LookupResponseProto.newBuilder()
        .setStatus(LookupResponseProto.Status.MISS).build();

    assertNull(f.looked(t, miss, f.deadline(t, true), true, false));

    assertNull(fs.ctx.descriptors().acquire(t.key(), LENGTH));
    assertEquals(1, fs.opened.hold().releases.get());
    fs.ctx.descriptors().close();
  }
}
