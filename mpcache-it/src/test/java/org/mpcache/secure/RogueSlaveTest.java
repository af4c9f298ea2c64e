package org.mpcache.secure;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.e2e.ClusterFiles.data;
import static org.mpcache.e2e.ClusterFiles.readAll;
import static org.mpcache.e2e.ClusterFiles.write;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.PrivilegedExceptionAction;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32C;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricsRecord;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.thirdparty.protobuf.ByteString;
import org.apache.hadoop.thirdparty.protobuf.RpcController;
import org.apache.hadoop.thirdparty.protobuf.ServiceException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mpcache.common.proto.ClientMasterProtos.GetSlavesRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.ClientSlaveService;
import org.mpcache.common.proto.ClientSlaveProtos.LookupRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.LookupResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReadRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReadResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReportCorruptRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReportCorruptResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReportReadRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReportReadResponseProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveInfoProto;
import org.mpcache.common.proto.MpCacheProtos.SpaceReportProto;
import org.mpcache.common.proto.SlaveMasterProtos.RegisterSlaveRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.UnregisterSlaveRequestProto;
import org.mpcache.common.protocolPB.ClientMasterProtocolPB;
import org.mpcache.common.protocolPB.ClientSlaveProtocolPB;
import org.mpcache.common.protocolPB.RpcSupport;
import org.mpcache.common.protocolPB.SlaveMasterProtocolPB;
import org.mpcache.common.service.RpcServerService;
import org.mpcache.hdfs.ClientConfigKeys;
import org.mpcache.minicluster.MiniMpCacheCluster;

/**
 * A rogue slave on a cluster without Kerberos: a process of the test JVM that serves other bytes
 * than HDFS holds, each chunk with a matching CRC32C (so a client's checksum check cannot tell),
 * tries to get into the master's list of slaves as a real slave's id or beside the real DataNode
 * while claiming another host, and to speak for the real slave. Every attempt is refused with
 * its reason and counted, the master lists only the real slave to clients, and reads through the
 * cache return HDFS's bytes, never the rogue's.
 */
class RogueSlaveTest {
  private static final int BLOCK = 1 << 20;
  /** A host of the documentation range (RFC 5737): no address of this machine. */
  private static final String ELSEWHERE = "192.0.2.1";
  private static MiniMpCacheCluster cluster;
  private static RpcServerService rogueServer;
  private static final RogueSlave ROGUE = new RogueSlave();
  private static SlaveInfoProto real;

  @BeforeAll
  static void start() throws IOException {
    File base = new File("target/secure/rogue-slave");
    FileUtil.fullyDelete(base);
    cluster = new MiniMpCacheCluster.Builder(base).dataNodes(1).blockSize(BLOCK)
        // Generous: the assertion is about whose bytes arrive, on a loaded build machine.
        .set(ClientConfigKeys.CACHE_DEADLINE_MS_KEY, "60000").build();
    real = cluster.slaves().get(0).info();
    rogueServer = new RpcServerService("RogueSlave", new InetSocketAddress("127.0.0.1", 0), 2)
        .serve(ClientSlaveProtocolPB.class, ClientSlaveService.newReflectiveBlockingService(ROGUE));
    rogueServer.init(cluster.conf());
    rogueServer.start();
  }

  @AfterAll
  static void stop() {
    if (rogueServer != null) {
      rogueServer.stop();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void registerSlave_realSlavesIdAsAnotherUser_refusedAndReadsGetHdfsBytes() throws Exception {
    SlaveInfoProto takeover = real.toBuilder()
        .setClientPort(rogueServer.getAddress().getPort()).build();
    Exception refused = register(UserGroupInformation.createRemoteUser("mallory"), takeover);

    Path file = new Path("/rogue/takeover");
    byte[] content = data(11, 2 * BLOCK + 777);
    write(cluster, file, content);
    assertArrayEquals(content, readAll(cluster, file), "bytes read through the cache");
    assertArrayEquals(content, readAll(cluster, file), "bytes read through the cache again");
    assertEquals(0, ROGUE.calls.get(), "calls that reached the rogue slave");
    assertEquals(List.of(real), listedToClients());
    assertRefused(refused, "NOT_SLAVE_IDENTITY", "mallory");
  }

  @Test
  void registerSlave_anotherHostBesideTheRealDataNode_refusedAndNeverListed() throws Exception {
    UserGroupInformation me = UserGroupInformation.getCurrentUser();
    SlaveInfoProto newId = SlaveInfoProto.newBuilder().setSlaveId(ELSEWHERE + ":50121")
        .setHost(ELSEWHERE).setClientPort(50121)
        .setDatanodeAddress(real.getDatanodeAddress()).build();
    assertRefused(register(me, newId), "HOST_MISMATCH", ELSEWHERE);
    assertRefused(register(me, real.toBuilder().setHost(ELSEWHERE).build()), "HOST_MISMATCH",
        ELSEWHERE);
    SlaveInfoProto besideElsewhere = SlaveInfoProto.newBuilder().setSlaveId("127.0.0.1:1")
        .setHost("127.0.0.1").setClientPort(rogueServer.getAddress().getPort())
        .setDatanodeAddress(ELSEWHERE + ":9866").build();
    assertRefused(register(me, besideElsewhere), "DATANODE_HOST_MISMATCH", ELSEWHERE);
    assertEquals(List.of(real), listedToClients());
  }

  @Test
  void unregisterSlave_realSlavesIdAsAnotherUser_refusedAndTheSlaveStaysListed()
      throws Exception {
    UserGroupInformation mallory = UserGroupInformation.createRemoteUser("mallory");
    Exception refused = assertThrows(RemoteException.class, () -> asUser(mallory, m ->
        m.unregisterSlave(null, UnregisterSlaveRequestProto.newBuilder()
            .setSlaveId(real.getSlaveId()).build())));
    assertTrue(cluster.master().getSlaveRegistry().isRegistered(real.getSlaveId()));
    assertRefused(refused, "NOT_THE_REGISTERED_SLAVE", "mallory");
    // The only call of this class refused for this reason.
    assertEquals(1, metric("SlaveRefusedNotTheRegisteredSlave"));
    assertTrue(metric("SlaveCallsRefused") >= 1);
  }

  /** A registration as {@code user}; the exception it ended with, or null when accepted. */
  private static Exception register(UserGroupInformation user, SlaveInfoProto slave) {
    SpaceReportProto space = SpaceReportProto.newBuilder().setCapacity(64L << 20)
        .setInputCacheCapacity(64L << 20).setInputCacheUsed(0).setDynamicPoolCapacity(0)
        .setPoolLentToInput(0).setPoolLentToLocalized(0).setLocalizedCacheCapacity(0)
        .setLocalizedCacheUsed(0).build();
    try {
      asUser(user, m -> m.registerSlave(null, RegisterSlaveRequestProto.newBuilder()
          .setSlave(slave).setSpace(space).build()));
      return null;
    } catch (Exception e) {
      return e;
    }
  }

  private static void assertRefused(Exception refused, String reason, String detail) {
    assertTrue(refused instanceof RemoteException, "refused over RPC: " + refused);
    String m = refused.getMessage();
    assertTrue(m.contains(reason) && m.contains(detail), m);
  }

  private interface MasterCall {
    Object call(SlaveMasterProtocolPB master) throws ServiceException;
  }

  /** One call to the master's slave protocol over RPC, as {@code user}. */
  private static void asUser(UserGroupInformation user, MasterCall call) throws Exception {
    user.doAs((PrivilegedExceptionAction<Void>) () -> {
      SlaveMasterProtocolPB p = RpcSupport.proxy(SlaveMasterProtocolPB.class,
          cluster.master().getRpcAddress(), cluster.conf(), 10_000);
      try {
        RpcSupport.call(() -> call.call(p));
      } finally {
        RpcSupport.close(p);
      }
      return null;
    });
  }

  /** The slaves the master gives clients, asked over RPC as a client does. */
  private static List<SlaveInfoProto> listedToClients() throws IOException {
    ClientMasterProtocolPB p = RpcSupport.proxy(ClientMasterProtocolPB.class,
        cluster.master().getRpcAddress(), cluster.conf(), 10_000);
    try {
      return RpcSupport.call(() -> p.getSlaves(null, GetSlavesRequestProto.getDefaultInstance()))
          .getSlavesList();
    } finally {
      RpcSupport.close(p);
    }
  }

  /** One of the master's metrics, as its metrics source reports it now. */
  private static long metric(String name) {
    MetricsCollectorImpl collector = new MetricsCollectorImpl();
    cluster.master().getMetrics().getMetrics(collector, true);
    for (MetricsRecord r : collector.getRecords()) {
      for (AbstractMetric m : r.metrics()) {
        if (m.name().equals(name)) {
          return m.value().longValue();
        }
      }
    }
    throw new AssertionError("the master reports no " + name);
  }

  /**
   * Says every block is cached and serves zeros for it, each chunk with its true CRC32C: what a
   * slave that won the clients' rendezvous could serve.
   */
  private static final class RogueSlave implements ClientSlaveProtocolPB {
    private static final int CHUNK = 64 * 1024;
    final AtomicInteger calls = new AtomicInteger();

    @Override
    public LookupResponseProto lookup(RpcController c, LookupRequestProto req) {
      calls.incrementAndGet();
      return LookupResponseProto.newBuilder().setStatus(LookupResponseProto.Status.HIT)
          .setLength(req.getAccess().getBlockBytes()).build();
    }

    @Override
    public ReadResponseProto read(RpcController c, ReadRequestProto req) {
      calls.incrementAndGet();
      long start = req.getOffset() / CHUNK * CHUNK;
      byte[] zeros = new byte[(int) (req.getOffset() + req.getLength() - start)];
      ReadResponseProto.Builder b = ReadResponseProto.newBuilder().setOffset(start)
          .setData(ByteString.copyFrom(zeros)).setChunkSize(CHUNK);
      CRC32C crc = new CRC32C();
      for (int from = 0; from < zeros.length; from += CHUNK) {
        crc.reset();
        crc.update(zeros, from, Math.min(CHUNK, zeros.length - from));
        b.addChecksums((int) crc.getValue());
      }
      return b.build();
    }

    @Override
    public ReportReadResponseProto reportRead(RpcController c, ReportReadRequestProto req) {
      calls.incrementAndGet();
      return ReportReadResponseProto.getDefaultInstance();
    }

    @Override
    public ReportCorruptResponseProto reportCorrupt(RpcController c,
        ReportCorruptRequestProto req) {
      calls.incrementAndGet();
      return ReportCorruptResponseProto.getDefaultInstance();
    }
  }
}
