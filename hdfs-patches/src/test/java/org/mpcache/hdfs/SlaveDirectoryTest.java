package org.mpcache.hdfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo.DatanodeInfoBuilder;
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
import org.mpcache.common.proto.MpCacheProtos.SlaveInfoProto;
import org.mpcache.common.protocolPB.ClientMasterProtocolPB;
import org.mpcache.common.protocolPB.RpcSupport;

/**
 * The client's slave list against a scripted master over real RPC: a slow master never holds up
 * a reader (the list is refreshed off the readers' path), a failed refresh keeps the list it had,
 * and the first reader waits for the first list at most the cache deadline.
 */
class SlaveDirectoryTest {
  private static final SlaveInfoProto SLAVE = SlaveInfoProto.newBuilder().setSlaveId("s1:1")
      .setHost("127.0.0.1").setClientPort(1).setDatanodeAddress("127.0.0.1:9866").build();
  private static final LocatedBlock BLOCK = new LocatedBlock(new ExtendedBlock("BP-1", 7),
      new DatanodeInfo[] {new DatanodeInfoBuilder().setIpAddr("127.0.0.1")
          .setHostName("127.0.0.1").setXferPort(9866).setDatanodeUuid("dn").build()});

  /** What the scripted master does on getSlaves. */
  private enum Mode { ANSWER, FAIL, HANG }

  private final AtomicLong clock = new AtomicLong(1_000_000);
  private final AtomicInteger calls = new AtomicInteger();
  private volatile Mode mode = Mode.ANSWER;
  private final CountDownLatch release = new CountDownLatch(1);
  private RPC.Server server;
  private SlaveDirectory directory;

  @BeforeEach
  void start() throws IOException {
    Configuration conf = new Configuration();
    ClientMasterService.BlockingInterface master = new ClientMasterService.BlockingInterface() {
      @Override
      public GetSlavesResponseProto getSlaves(RpcController c, GetSlavesRequestProto r)
          throws ServiceException {
        calls.incrementAndGet();
        if (mode == Mode.FAIL) {
          throw new ServiceException(new IOException("scripted failure"));
        }
        if (mode == Mode.HANG) {
          try {
            release.await(60, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
        return GetSlavesResponseProto.newBuilder().addSlaves(SLAVE).build();
      }

      @Override
      public CachedHostsResponseProto cachedHosts(RpcController c, CachedHostsRequestProto r)
          throws ServiceException {
        throw new ServiceException(new IOException("not part of this script"));
      }
    };
    server = RpcSupport.server(conf, ClientMasterProtocolPB.class,
        ClientMasterService.newReflectiveBlockingService(master),
        new InetSocketAddress("127.0.0.1", 0), 2);
    server.start();
  }

  private SlaveDirectory directory(int deadlineMs) {
    Configuration conf = new Configuration();
    conf.set(MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY,
        NetUtils.getHostPortString(NetUtils.getConnectAddress(server)));
    conf.setInt(MpCacheConfigKeys.RPC_TIMEOUT_MS_KEY, 30_000);
    conf.setInt(ClientConfigKeys.CACHE_DEADLINE_MS_KEY, deadlineMs);
    conf.setLong(ClientConfigKeys.SLAVES_REFRESH_MS_KEY, 100);
    conf.setLong(ClientConfigKeys.SLAVE_RETRY_MS_KEY, 1_000);
    directory = new SlaveDirectory(conf, new ClientConf(conf), clock::get);
    return directory;
  }

  @AfterEach
  void stop() {
    release.countDown();
    if (directory != null) {
      directory.close();
    }
    server.stop();
  }

  private Optional<String> chosen(SlaveDirectory d) {
    return d.choose(BLOCK).map(s -> s.id());
  }

  /**
   * Waits up to 10 s for the scripted master to have been asked {@code n} times, choosing through
   * {@code d} meanwhile (a refresh starts only when a reader comes by).
   */
  private void awaitCalls(SlaveDirectory d, int n) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (calls.get() < n) {
      assertTrue(System.nanoTime() < deadline, "the master was asked " + calls.get() + " times");
      Thread.sleep(10);
      chosen(d);
    }
  }

  @Test
  void choose_firstReader_getsTheFirstList() {
    assertEquals(Optional.of("s1:1"), chosen(directory(10_000)));
  }

  @Test
  void choose_masterHangingOnARefresh_readersGoOnWithTheListTheyHave() throws Exception {
    SlaveDirectory d = directory(10_000);
    assertEquals(Optional.of("s1:1"), chosen(d));
    mode = Mode.HANG;
    clock.addAndGet(1_000);
    assertEquals(Optional.of("s1:1"), chosen(d), "the refresh must not hold up this reader");
    awaitCalls(d, 2);
    CompletableFuture<Optional<String>> other = CompletableFuture.supplyAsync(() -> chosen(d));
    assertEquals(Optional.of("s1:1"), other.get(10, TimeUnit.SECONDS),
        "another reader, while the master still hangs, is not held up either");
    assertEquals(1, release.getCount(), "the master was still hanging");
  }

  @Test
  void choose_refreshFails_keepsTheListItHad() throws Exception {
    SlaveDirectory d = directory(10_000);
    assertEquals(Optional.of("s1:1"), chosen(d));
    mode = Mode.FAIL;
    clock.addAndGet(1_000);
    awaitCalls(d, 2);
    clock.addAndGet(1_000);
    awaitCalls(d, 3);
    assertEquals(Optional.of("s1:1"), chosen(d), "the list survives failed refreshes");
  }

  @Test
  void choose_masterHangingOnTheFirstList_waitsAtMostTheDeadline() throws Exception {
    mode = Mode.HANG;
    SlaveDirectory d = directory(200);
    CompletableFuture<Optional<String>> first = CompletableFuture.supplyAsync(() -> chosen(d));
    assertEquals(Optional.empty(), first.get(10, TimeUnit.SECONDS),
        "no list yet: the reader goes to HDFS");
    assertEquals(1, release.getCount(), "the master was still hanging");
    release.countDown();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (chosen(d).isEmpty()) {
      assertTrue(System.nanoTime() < deadline, "the list never arrived");
      Thread.sleep(10);
    }
  }

  /**
   * Only the first reader waits out the deadline for a first list the master is slow to give:
   * readers after it (each a block's choice) go to HDFS at once, not one deadline each.
   */
  @Test
  void choose_masterHangingOnTheFirstList_onlyTheFirstReaderWaits() throws Exception {
    mode = Mode.HANG;
    SlaveDirectory d = directory(5_000);
    assertEquals(Optional.empty(),
        CompletableFuture.supplyAsync(() -> chosen(d)).get(20, TimeUnit.SECONDS));
    for (int i = 0; i < 3; i++) {
      CompletableFuture<Optional<String>> later = CompletableFuture.supplyAsync(() -> chosen(d));
      try {
        assertEquals(Optional.empty(), later.get(2_500, TimeUnit.MILLISECONDS));
      } catch (TimeoutException e) {
        fail("reader " + (i + 2) + " waited for the same first list again");
      }
    }
    assertEquals(1, release.getCount(), "the master was still hanging");
    assertEquals(1, calls.get(), "one request for the first list");
  }

  @Test
  void markFaulty_slaveIsLeftAloneForTheRetryInterval() {
    SlaveDirectory d = directory(10_000);
    assertEquals(Optional.of("s1:1"), chosen(d));
    d.markFaulty("s1:1");
    assertTrue(d.isFaulty("s1:1"));
    assertEquals(Optional.empty(), chosen(d));
    clock.addAndGet(1_000);
    assertEquals(Optional.of("s1:1"), chosen(d));
  }
}
