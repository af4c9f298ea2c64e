package org.mpcache.secure;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.e2e.ClusterFiles.data;
import static org.mpcache.e2e.ClusterFiles.readAll;
import static org.mpcache.e2e.ClusterFiles.readUntilCached;
import static org.mpcache.e2e.ClusterFiles.write;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.security.PrivilegedExceptionAction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mpcache.common.proto.AdminProtos.RefreshRequestProto;
import org.mpcache.common.proto.AdminProtos.ReportRequestProto;
import org.mpcache.common.proto.ClientMasterProtos.GetSlavesRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.LookupRequestProto;
import org.mpcache.common.proto.LocalizedProtos.RequestSpaceRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.HeartbeatRequestProto;
import org.mpcache.common.protocolPB.AdminProtocolPB;
import org.mpcache.common.protocolPB.ClientMasterProtocolPB;
import org.mpcache.common.protocolPB.ClientSlaveProtocolPB;
import org.mpcache.common.protocolPB.LocalizedProtocolPB;
import org.mpcache.common.protocolPB.RpcSupport;
import org.mpcache.common.protocolPB.SlaveMasterProtocolPB;
import org.mpcache.hdfs.ClientConfigKeys;
import org.mpcache.master.MasterConfigKeys;
import org.mpcache.minicluster.MiniMpCacheCluster;
import org.mpcache.slave.SlaveConfigKeys;

/**
 * Service-level authorization ({@code hadoop.security.authorization=true}) on every mpCache RPC
 * server: with each protocol's ACL naming only the user running the cluster, its reads still hit
 * the cache, another user is refused by each of the five protocols, and {@code mpcache admin
 * refresh} reloads the ACLs from the policy file.
 */
class ServiceAuthorizationTest {
  private static final int BLOCK = 1 << 20;
  private static MiniMpCacheCluster cluster;
  private static File policy;
  private static String me;

  @BeforeAll
  static void start() throws IOException {
    me = UserGroupInformation.getCurrentUser().getShortUserName();
    File base = new File("target/secure/service-acl");
    Files.createDirectories(base.toPath());
    policy = new File(base, "policy.xml");
    writePolicy(me);
    cluster = new MiniMpCacheCluster.Builder(base).dataNodes(1).blockSize(BLOCK)
        .set("hadoop.security.authorization", "true").addResource(policy)
        // Generous: the assertion is about where bytes come from, on a loaded build machine.
        .set(ClientConfigKeys.CACHE_DEADLINE_MS_KEY, "60000")
        .set(MasterConfigKeys.SLAVE_MASTER_ACL_KEY, me)
        .set(MasterConfigKeys.ADMIN_PROTOCOL_ACL_KEY, me)
        .set(SlaveConfigKeys.CLIENT_SLAVE_ACL_KEY, me)
        .set(SlaveConfigKeys.LOCALIZED_ACL_KEY, me).build();
  }

  /** The policy file: the client-to-master ACL, which a test changes and refreshes. */
  private static void writePolicy(String clientMasterAcl) throws IOException {
    Files.writeString(policy.toPath(), "<?xml version=\"1.0\"?>\n<configuration><property><name>"
        + MasterConfigKeys.CLIENT_MASTER_ACL_KEY + "</name><value>" + clientMasterAcl
        + "</value></property></configuration>\n");
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void read_byAnAllowedUserStillHitsTheCache() throws Exception {
    Path p = new Path("/acl/file");
    byte[] content = data(11, 3 * BLOCK);
    write(cluster, p, content);
    // The slave fills the blocks once the file's misses have stopped.
    assertArrayEquals(content, readUntilCached(cluster, p));
    long before = cluster.totals().getBytesFromCache();
    assertArrayEquals(content, readAll(cluster, p));
    assertEquals(content.length, cluster.totals().getBytesFromCache() - before,
        "the second read comes from the cache");
  }

  @Test
  void everyProtocol_refusesAUserOutsideItsAcl() throws Exception {
    InetSocketAddress master = cluster.master().getRpcAddress();
    InetSocketAddress slave = new InetSocketAddress("127.0.0.1",
        cluster.slaves().get(0).info().getClientPort());
    InetSocketAddress localized = cluster.slaves().get(0).getLocalizedAddress();
    assertRefused(ClientMasterProtocolPB.class, master,
        p -> p.getSlaves(null, GetSlavesRequestProto.getDefaultInstance()));
    assertRefused(ClientSlaveProtocolPB.class, slave,
        p -> p.lookup(null, LookupRequestProto.getDefaultInstance()));
    assertRefused(SlaveMasterProtocolPB.class, master,
        p -> p.heartbeat(null, HeartbeatRequestProto.getDefaultInstance()));
    assertRefused(AdminProtocolPB.class, master,
        p -> p.report(null, ReportRequestProto.getDefaultInstance()));
    assertRefused(LocalizedProtocolPB.class, localized,
        p -> p.requestSpace(null, RequestSpaceRequestProto.getDefaultInstance()));
  }

  @Test
  void refresh_reloadsTheAclsFromThePolicyFile() throws Exception {
    InetSocketAddress master = cluster.master().getRpcAddress();
    assertRefused(ClientMasterProtocolPB.class, master,
        p -> p.getSlaves(null, GetSlavesRequestProto.getDefaultInstance()));
    writePolicy(me + ",mallory");
    try {
      refresh();
      assertEquals(cluster.slaves().size(), as(outsider(), ClientMasterProtocolPB.class, master,
          p -> p.getSlaves(null, GetSlavesRequestProto.getDefaultInstance())).getSlavesCount());
    } finally {
      writePolicy(me);
      refresh();
    }
  }

  /** {@code mpcache admin refresh}, as the cluster's user. */
  private static void refresh() throws IOException {
    AdminProtocolPB admin = RpcSupport.proxy(AdminProtocolPB.class,
        cluster.master().getRpcAddress(), cluster.conf(), 10_000);
    try {
      RpcSupport.call(() -> admin.refresh(null, RefreshRequestProto.getDefaultInstance()));
    } finally {
      RpcSupport.close(admin);
    }
  }

  /**
   * A user outside the ACLs; a new one each time, as ACLs are checked when a connection is set up
   * and Hadoop's RPC client shares a connection between calls of one user to one address.
   */
  private static UserGroupInformation outsider() {
    return UserGroupInformation.createRemoteUser("mallory");
  }

  /** One call on a protocol proxy. */
  @FunctionalInterface
  private interface ProxyCall<P, T> {
    T call(P proxy) throws org.apache.hadoop.thirdparty.protobuf.ServiceException;
  }

  private static <P, T> T as(UserGroupInformation user, Class<P> protocol,
      InetSocketAddress address, ProxyCall<P, T> call) throws Exception {
    Configuration conf = cluster.conf();
    return user.doAs((PrivilegedExceptionAction<T>) () -> {
      P proxy = RpcSupport.proxy(protocol, address, conf, 10_000);
      try {
        return RpcSupport.call(() -> call.call(proxy));
      } finally {
        RpcSupport.close(proxy);
      }
    });
  }

  private static <P> void assertRefused(Class<P> protocol, InetSocketAddress address,
      ProxyCall<P, ?> call) {
    RemoteException e = assertThrows(RemoteException.class,
        () -> as(outsider(), protocol, address, call), protocol.getSimpleName());
    assertTrue(e.getClassName().endsWith("AuthorizationException"),
        protocol.getSimpleName() + ": " + e.getClassName() + ": " + e.getMessage());
    assertTrue(e.getMessage().contains("mallory")
        && e.getMessage().contains(protocol.getName()), e.getMessage());
  }
}
