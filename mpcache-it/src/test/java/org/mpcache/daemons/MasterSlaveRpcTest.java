package org.mpcache.daemons;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.daemons.LocalDaemons.waitFor;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.RemoteException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.common.BlockKey;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.common.proto.AdminProtos.ReportRequestProto;
import org.mpcache.common.proto.AdminProtos.SlaveReportProto;
import org.mpcache.common.proto.ClientSlaveProtos.LookupRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.LookupResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReadRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReadResponseProto;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.protocolPB.AdminProtocolPB;
import org.mpcache.common.protocolPB.ClientSlaveProtocolPB;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.common.protocolPB.RpcSupport;
import org.mpcache.master.MasterConfigKeys;
import org.mpcache.master.MpCacheMaster;
import org.mpcache.slave.MpCacheSlave;
import org.mpcache.slave.SlaveConfigKeys;

/**
 * A real master and a real slave talking Hadoop RPC: registration, a block cached through the
 * client protocol and reported to the master, cached reads, and the expiry of a slave that stops
 * heartbeating.
 */
class MasterSlaveRpcTest {
  @TempDir
  Path dir;
  private MpCacheMaster master;
  private MpCacheSlave slave;
  private AdminProtocolPB admin;
  private ClientSlaveProtocolPB client;

  @BeforeEach
  void start() throws IOException {
    Configuration mc = LocalDaemons.masterConf(0, 1000);
    master = LocalDaemons.startMaster(mc);
    InetSocketAddress masterAddr = master.getRpcAddress();
    Configuration sc = LocalDaemons.slaveConf(masterAddr, dir.resolve("ssd"));
    sc.set(SlaveConfigKeys.CACHE_CAPACITY_KEY, "1m");
    slave = LocalDaemons.startSlave(sc);
    admin = RpcSupport.proxy(AdminProtocolPB.class, masterAddr, mc, 5000);
    client = RpcSupport.proxy(ClientSlaveProtocolPB.class,
        new InetSocketAddress("127.0.0.1", slave.info().getClientPort()), mc, 5000);
  }

  @AfterEach
  void stop() {
    RpcSupport.close(admin);
    RpcSupport.close(client);
    if (slave != null) {
      slave.stop();
    }
    master.stop();
  }

  private List<SlaveReportProto> report() {
    try {
      return RpcSupport.call(() -> admin.report(null, ReportRequestProto.getDefaultInstance()))
          .getSlavesList();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static BlockAccessProto access(BlockKey k, int bytes) {
    return BlockAccessProto.newBuilder().setBlock(ProtoConverters.toProto(k)).setBlockBytes(bytes)
        .setDatasetId("/data").setDatasetBlocks(1).setJobId("job_1").build();
  }

  @Test
  void slave_registersCachesReportsAndServes() throws Exception {
    waitFor(() -> report().size() == 1, "registration");
    assertEquals("127.0.0.1:" + slave.info().getClientPort(), report().get(0).getSlave()
        .getSlaveId());

    BlockKey key = new BlockKey("BP-7", 42, 3);
    byte[] data = new byte[200_000];
    new Random(9).nextBytes(data);
    LookupResponseProto miss = RpcSupport.call(() -> client.lookup(null,
        LookupRequestProto.newBuilder().setAccess(access(key, data.length)).build()));
    assertEquals(LookupResponseProto.Status.MISS, miss.getStatus());
    assertFalse(miss.getSlaveFills(), "no fill unless the lookup names the block's file");
    assertTrue(LocalDaemons.fill(slave, access(key, data.length),
        LocalDaemons.UNREACHABLE_HDFS + "/data/part-0", data));

    waitFor(() -> report().get(0).getCachedBlocks() == 1, "the block report");
    ReadResponseProto r = RpcSupport.call(() -> client.read(null, ReadRequestProto.newBuilder()
        .setBlock(ProtoConverters.toProto(key)).setOffset(70_000).setLength(1000).build()));
    byte[] got = r.getData().toByteArray();
    byte[] want = new byte[got.length];
    System.arraycopy(data, (int) r.getOffset(), want, 0, got.length);
    assertArrayEquals(want, got);
    assertTrue(r.getOffset() <= 70_000 && r.getOffset() + got.length >= 71_000);
    waitFor(() -> report().get(0).getCounters().getBytesFromCache() == 1000,
        "counters in the heartbeat");
    assertEquals(1, report().get(0).getCounters().getBlocksCached());
  }

  @Test
  void read_ofAnUncachedBlockIsARemoteError() throws Exception {
    waitFor(() -> report().size() == 1, "registration");
    RemoteException e = assertThrows(RemoteException.class, () -> RpcSupport.call(() ->
        client.read(null, ReadRequestProto.newBuilder().setBlock(ProtoConverters.toProto(
            new BlockKey("BP-7", 1, 1))).setOffset(0).setLength(10).build())));
    assertTrue(e.getClassName().endsWith("BlockNotCachedException"), e.getClassName());
  }

  @Test
  void master_expiresASilentSlaveAndForgetsItsBlocks() throws Exception {
    waitFor(() -> report().size() == 1, "registration");
    // As a crash: the link falls silent without telling the master.
    slave.getMasterLink().setUnregisterOnStop(false);
    slave.getMasterLink().stop();
    waitFor(() -> !report().get(0).getLive(), "expiry: the report lists the slave as dead");
    assertTrue(master.getSlaveRegistry().liveSlaves().isEmpty());
    assertEquals(1, master.getSlaveRegistry().deadCount());
  }

  @Test
  void stop_unregistersTheSlaveAtOnce() throws Exception {
    waitFor(() -> report().size() == 1, "registration");
    slave.stop();
    // The expiry is 1 s; the slave is gone before any expiry pass could have run.
    assertTrue(report().isEmpty(), "a stopped slave is unregistered, not left to expire");
    assertTrue(master.getSlaveRegistry().liveSlaves().isEmpty());
  }

  @Test
  void slave_registersAgainAfterTheMasterForgotIt() throws Exception {
    waitFor(() -> report().size() == 1, "registration");
    String id = slave.info().getSlaveId();
    assertTrue(master.getSlaveRegistry().remove(id));
    waitFor(() -> report().size() == 1, "re-registration after the heartbeat said reregister");
  }

  @Test
  void init_rejectsMissingCacheDirsNamingTheKey() {
    Configuration sc = new Configuration();
    MpCacheSlave s = new MpCacheSlave();
    Exception e = assertThrows(Exception.class, () -> s.init(sc));
    Throwable root = e;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    assertTrue(root.getMessage().contains(MpCacheConfigKeys.SLAVE_CACHE_DIRS_KEY), root.getMessage());
  }

  @Test
  void init_rejectsExpiryShorterThanHeartbeat() {
    Configuration mc = new Configuration();
    mc.set(MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY, "127.0.0.1:0");
    mc.setLong(MasterConfigKeys.HEARTBEAT_INTERVAL_MS_KEY, 5000);
    mc.setLong(MasterConfigKeys.SLAVE_EXPIRY_MS_KEY, 1000);
    mc.set(MasterConfigKeys.STATE_DIR_KEY, "");
    MpCacheMaster m = new MpCacheMaster();
    Exception e = assertThrows(Exception.class, () -> m.init(mc));
    Throwable root = e;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    assertTrue(root.getMessage().contains(MasterConfigKeys.SLAVE_EXPIRY_MS_KEY),
        root.getMessage());
  }
}
