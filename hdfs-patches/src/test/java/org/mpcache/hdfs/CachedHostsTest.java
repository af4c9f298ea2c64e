package org.mpcache.hdfs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.thirdparty.protobuf.RpcController;
import org.apache.hadoop.thirdparty.protobuf.ServiceException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.common.proto.ClientMasterProtos.CachedHostsRequestProto;
import org.mpcache.common.proto.ClientMasterProtos.CachedHostsResponseProto;
import org.mpcache.common.proto.ClientMasterProtos.ClientMasterService;
import org.mpcache.common.proto.ClientMasterProtos.GetSlavesRequestProto;
import org.mpcache.common.proto.ClientMasterProtos.GetSlavesResponseProto;
import org.mpcache.common.proto.MpCacheProtos.BlockKeyProto;
import org.mpcache.common.protocolPB.ClientMasterProtocolPB;
import org.mpcache.common.protocolPB.RequestChecks;
import org.mpcache.common.protocolPB.RpcSupport;

/**
 * Cached hosts against a scripted master over real RPC: the master's hosts join HDFS's cached
 * hosts, answers are kept for their expiry, and a failing master leaves HDFS's locations as they
 * were and is left alone for the retry interval.
 */
class CachedHostsTest {
  private static final long EXPIRY_MS = 5_000;
  private static final long RETRY_MS = 30_000;

  private final AtomicLong clock = new AtomicLong(1_000_000);
  private final AtomicInteger calls = new AtomicInteger();
  /** The most blocks one request named. */
  private final AtomicInteger largest = new AtomicInteger();
  private volatile boolean fail;
  private RPC.Server server;
  private CachedHosts hosts;

  @BeforeEach
  void start() throws IOException {
    Configuration conf = new Configuration();
    ClientMasterService.BlockingInterface master = new ClientMasterService.BlockingInterface() {
      @Override
      public GetSlavesResponseProto getSlaves(RpcController c, GetSlavesRequestProto r)
          throws ServiceException {
        throw new ServiceException(new IOException("not part of this script"));
      }

      /** Block id n is cached on host "node-n", block 0 nowhere. */
      @Override
      public CachedHostsResponseProto cachedHosts(RpcController c, CachedHostsRequestProto r)
          throws ServiceException {
        calls.incrementAndGet();
        largest.accumulateAndGet(r.getBlocksCount(), Math::max);
        if (fail) {
          throw new ServiceException(new IOException("scripted failure"));
        }
        CachedHostsResponseProto.Builder out = CachedHostsResponseProto.newBuilder();
        for (BlockKeyProto b : r.getBlocksList()) {
          if (b.getBlockId() == 0) {
            out.addBlocksBuilder();
          } else {
            out.addBlocksBuilder().addHosts("node-" + b.getBlockId());
          }
        }
        return out.build();
      }
    };
    server = RpcSupport.server(conf, ClientMasterProtocolPB.class,
        ClientMasterService.newReflectiveBlockingService(master),
        new InetSocketAddress("127.0.0.1", 0), 2);
    server.start();
    Configuration client = new Configuration(conf);
    client.set(MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY,
        NetUtils.getHostPortString(NetUtils.getConnectAddress(server)));
    client.setInt(MpCacheConfigKeys.RPC_TIMEOUT_MS_KEY, 10_000);
    client.setInt(ClientConfigKeys.CACHE_DEADLINE_MS_KEY, 10_000);
    client.setLong(ClientConfigKeys.CACHED_HOSTS_EXPIRY_MS_KEY, EXPIRY_MS);
    client.setLong(ClientConfigKeys.SLAVE_RETRY_MS_KEY, RETRY_MS);
    hosts = new CachedHosts(conf, new ClientConf(client), clock::get);
  }

  @AfterEach
  void stop() {
    hosts.close();
    server.stop();
  }

  private static LocatedBlock block(long blockId) {
    return new LocatedBlock(new ExtendedBlock("BP-1", blockId, 1024, 1001), new DatanodeInfo[0]);
  }

  private static BlockLocation location(long blockId, String... hdfsCached) {
    BlockLocation l = new BlockLocation(new String[] {"dn:9866"}, new String[] {"dn"},
        (blockId - 1) * 1024, 1024);
    l.setCachedHosts(hdfsCached);
    return l;
  }

  /** Adds cached hosts to locations of the blocks with these ids, and returns the locations. */
  private BlockLocation[] addTo(BlockLocation... locations) {
    List<LocatedBlock> blocks = new ArrayList<>();
    for (BlockLocation l : locations) {
      blocks.add(block(l.getOffset() / 1024 + 1));
    }
    hosts.addTo(locations, blocks);
    return locations;
  }

  @Test
  void addTo_oneCallPerFile_namesSlaveHostsBesideHdfsCachedHosts() {
    BlockLocation[] file = addTo(location(1), location(2, "dn"), location(0, "dn"));
    assertEquals(1, calls.get());
    assertArrayEquals(new String[] {"node-1"}, file[0].getCachedHosts());
    assertArrayEquals(new String[] {"dn", "node-2"}, file[1].getCachedHosts());
    assertArrayEquals(new String[] {"dn"}, file[2].getCachedHosts());
  }

  @Test
  void addTo_cachedBlock_hostsAreItsSlavesHosts() throws IOException {
    BlockLocation[] file = addTo(location(1), location(0));
    assertArrayEquals(new String[] {"node-1"}, file[0].getHosts());
    assertArrayEquals(new String[] {"dn:9866"}, file[0].getNames(), "names stay HDFS's");
    assertArrayEquals(new String[] {"dn"}, file[1].getHosts(), "an uncached block keeps HDFS's");
  }

  @Test
  void addTo_withinExpiry_usesKeptAnswerThenAsksAgain() {
    addTo(location(1));
    BlockLocation[] again = addTo(location(1));
    assertEquals(1, calls.get());
    assertArrayEquals(new String[] {"node-1"}, again[0].getCachedHosts());
    clock.addAndGet(EXPIRY_MS);
    addTo(location(1));
    assertEquals(2, calls.get());
  }

  @Test
  void addTo_masterFails_leavesHdfsLocationsAndWaitsRetryInterval() throws IOException {
    fail = true;
    long failures = ClientCounters.get().cachedHostsFailures();
    BlockLocation[] file = addTo(location(1, "dn"), location(2));
    assertArrayEquals(new String[] {"dn"}, file[0].getCachedHosts());
    assertArrayEquals(new String[] {"dn"}, file[0].getHosts());
    assertArrayEquals(new String[0], file[1].getCachedHosts());
    assertEquals(failures + 1, ClientCounters.get().cachedHostsFailures());
    fail = false;
    addTo(location(1));
    assertEquals(1, calls.get(), "asked again within the retry interval");
    clock.addAndGet(RETRY_MS);
    BlockLocation[] later = addTo(location(1));
    assertEquals(2, calls.get());
    assertArrayEquals(new String[] {"node-1"}, later[0].getCachedHosts());
  }

  @Test
  void addTo_fileOfMoreBlocksThanOneRequestMayName_asksInBatchesTheMasterAccepts() {
    int n = RequestChecks.MAX_CACHED_HOSTS_BLOCKS * 2 + 1;
    BlockLocation[] file = new BlockLocation[n];
    for (int i = 0; i < n; i++) {
      file[i] = location(i + 1);
    }
    addTo(file);
    assertEquals(RequestChecks.MAX_CACHED_HOSTS_BLOCKS, largest.get(),
        "the most blocks one request named");
    assertEquals(3, calls.get());
    for (int i = 0; i < n; i++) {
      assertArrayEquals(new String[] {"node-" + (i + 1)}, file[i].getCachedHosts());
    }
  }

  @Test
  void addTo_sameBlockTwice_asksForItOnceAndNamesItsHostsOnBoth() {
    BlockLocation[] file = addTo(location(1), location(2), location(1, "dn"));
    assertEquals(1, calls.get());
    assertEquals(2, largest.get(), "each block named once");
    assertArrayEquals(new String[] {"node-1"}, file[0].getCachedHosts());
    assertArrayEquals(new String[] {"node-2"}, file[1].getCachedHosts());
    assertArrayEquals(new String[] {"dn", "node-1"}, file[2].getCachedHosts());
  }

  @Test
  void addTo_unknownBlocksOrMismatchedLists_askNothing() {
    BlockLocation[] file = {location(1)};
    hosts.addTo(file, Arrays.asList((LocatedBlock) null));
    hosts.addTo(file, List.of(block(1), block(2)));
    assertEquals(0, calls.get());
    assertArrayEquals(new String[0], file[0].getCachedHosts());
  }
}
