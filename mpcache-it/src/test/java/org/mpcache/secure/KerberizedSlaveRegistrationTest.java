package org.mpcache.secure;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.net.InetSocketAddress;
import java.security.PrivilegedExceptionAction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.thirdparty.protobuf.ServiceException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.common.Waits;
import org.mpcache.common.proto.MpCacheProtos.SlaveInfoProto;
import org.mpcache.common.proto.MpCacheProtos.SpaceReportProto;
import org.mpcache.common.proto.SlaveMasterProtos.RegisterSlaveRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.UnregisterSlaveRequestProto;
import org.mpcache.common.protocolPB.RpcSupport;
import org.mpcache.common.protocolPB.SlaveMasterProtocolPB;
import org.mpcache.common.security.TestKdc;
import org.mpcache.master.MasterConfigKeys;
import org.mpcache.master.MpCacheMaster;
import org.mpcache.slave.MpCacheSlave;
import org.mpcache.slave.SlaveConfigKeys;
import org.mpcache.slave.localized.LocalizedConfigKeys;

/**
 * Slave registration with Kerberos: a master and a slave that log in from a keytab (as
 * {@code mpcache/_HOST}, {@code _HOST} being {@code localhost}) on a MiniKdc, over real RPC. The
 * slave registers; a caller authenticated by Kerberos as a user principal, or as the slave
 * principal of another host, cannot register a slave nor speak for the registered one. No HDFS:
 * registration needs none, and block tokens are off.
 */
class KerberizedSlaveRegistrationTest {
  private static final File BASE = new File("target/secure/kerberized-registration");
  private static TestKdc kdc;
  private static File keytab;
  private static String realm;
  private static Configuration conf;
  private static MpCacheMaster master;
  private static MpCacheSlave slave;

  @BeforeAll
  static void start() throws Exception {
    kdc = TestKdc.start(BASE, "mpcache/localhost", "mpcache/otherhost", "alice");
    realm = kdc.realm();
    keytab = kdc.keytab();

    conf = new Configuration();
    conf.set("hadoop.security.authentication", "kerberos");
    conf.set(MpCacheConfigKeys.MASTER_KERBEROS_PRINCIPAL_KEY, "mpcache/_HOST@" + realm);
    conf.set(MasterConfigKeys.KEYTAB_FILE_KEY, keytab.getAbsolutePath());
    conf.set(MpCacheConfigKeys.SLAVE_KERBEROS_PRINCIPAL_KEY, "mpcache/_HOST@" + realm);
    conf.set(SlaveConfigKeys.KEYTAB_FILE_KEY, keytab.getAbsolutePath());
    UserGroupInformation.setConfiguration(conf);

    Configuration mc = new Configuration(conf);
    mc.set(MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY, "localhost:0");
    mc.set(MasterConfigKeys.HTTP_ADDRESS_KEY, "localhost:0");
    mc.setLong(MasterConfigKeys.HEARTBEAT_INTERVAL_MS_KEY, 100);
    mc.set(MasterConfigKeys.STATE_DIR_KEY, "");
    master = new MpCacheMaster();
    master.init(mc);
    master.start();
    conf.set(MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY,
        "localhost:" + master.getRpcAddress().getPort());

    Configuration sc = new Configuration(conf);
    sc.set(SlaveConfigKeys.RPC_ADDRESS_KEY, "localhost:0");
    sc.set(SlaveConfigKeys.HOSTNAME_KEY, "localhost");
    sc.setBoolean(SlaveConfigKeys.FILL_VERIFY_KEY, false); // no NameNode to check fills' files
    sc.set(MpCacheConfigKeys.SLAVE_CACHE_DIRS_KEY, new File(BASE, "ssd").getAbsolutePath());
    sc.set(SlaveConfigKeys.CACHE_CAPACITY_KEY, "16m");
    sc.set(LocalizedConfigKeys.LOCALIZED_BIND_ADDRESS_KEY, "localhost:0");
    slave = new MpCacheSlave();
    slave.init(sc);
    slave.start();
    Waits.waitFor(() -> master.getSlaveRegistry().isRegistered(slave.info().getSlaveId()),
        "the slave, logged in as its principal, registers");
  }

  @AfterAll
  static void stop() {
    if (slave != null) {
      slave.stop();
    }
    if (master != null) {
      master.stop();
    }
    if (kdc != null) {
      kdc.close();
    }
  }

  @Test
  void registerSlave_asAUserPrincipal_refused() throws Exception {
    RemoteException e = assertThrows(RemoteException.class,
        () -> register(login("alice"), "localhost:1"));
    assertTrue(e.getMessage().contains("NOT_SLAVE_IDENTITY")
        && e.getMessage().contains("alice@" + realm)
        && e.getMessage().contains("mpcache/localhost@" + realm), e.getMessage());
    assertFalse(master.getSlaveRegistry().isRegistered("localhost:1"));
  }

  @Test
  void registerSlave_asTheSlavePrincipalOfAnotherHost_refused() throws Exception {
    RemoteException e = assertThrows(RemoteException.class,
        () -> register(login("mpcache/otherhost"), "localhost:2"));
    assertTrue(e.getMessage().contains("NOT_SLAVE_IDENTITY"), e.getMessage());
    assertFalse(master.getSlaveRegistry().isRegistered("localhost:2"));
  }

  @Test
  void unregisterSlave_theRealSlavesIdAsAUserPrincipal_refusedAndTheSlaveStays()
      throws Exception {
    String id = slave.info().getSlaveId();
    RemoteException e = assertThrows(RemoteException.class, () -> call(login("alice"),
        m -> m.unregisterSlave(null, UnregisterSlaveRequestProto.newBuilder().setSlaveId(id)
            .build())));
    assertTrue(e.getMessage().contains("NOT_THE_REGISTERED_SLAVE"), e.getMessage());
    assertTrue(master.getSlaveRegistry().isRegistered(id));
  }

  private static UserGroupInformation login(String principal) throws Exception {
    return UserGroupInformation.loginUserFromKeytabAndReturnUGI(principal + "@" + realm,
        keytab.getAbsolutePath());
  }

  /** A registration of a slave on localhost under {@code id}, as {@code user}. */
  private static void register(UserGroupInformation user, String id) throws Exception {
    SpaceReportProto space = SpaceReportProto.newBuilder().setCapacity(1 << 20)
        .setInputCacheCapacity(1 << 20).setInputCacheUsed(0).setDynamicPoolCapacity(0)
        .setPoolLentToInput(0).setPoolLentToLocalized(0).setLocalizedCacheCapacity(0)
        .setLocalizedCacheUsed(0).build();
    call(user, m -> m.registerSlave(null, RegisterSlaveRequestProto.newBuilder()
        .setSlave(SlaveInfoProto.newBuilder().setSlaveId(id).setHost("localhost")
            .setClientPort(1)).setSpace(space).build()));
  }

  private interface MasterCall {
    Object call(SlaveMasterProtocolPB master) throws ServiceException;
  }

  /** One call to the master's slave protocol over RPC, authenticated as {@code user}. */
  private static void call(UserGroupInformation user, MasterCall call) throws Exception {
    user.doAs((PrivilegedExceptionAction<Void>) () -> {
      SlaveMasterProtocolPB p = RpcSupport.proxy(SlaveMasterProtocolPB.class,
          new InetSocketAddress("localhost", master.getRpcAddress().getPort()), conf, 10_000);
      try {
        RpcSupport.call(() -> call.call(p));
      } finally {
        RpcSupport.close(p);
      }
      return null;
    });
  }
}
