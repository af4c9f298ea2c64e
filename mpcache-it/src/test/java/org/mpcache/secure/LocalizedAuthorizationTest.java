package org.mpcache.secure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.common.Waits.waitFor;
import static org.mpcache.e2e.ClusterFiles.data;
import static org.mpcache.e2e.ClusterFiles.readAll;
import static org.mpcache.e2e.ClusterFiles.write;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.PrivilegedExceptionAction;
import java.util.List;
import org.apache.commons.io.FileUtils;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.apache.hadoop.yarn.server.api.ContainerInitializationContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mpcache.common.BlockKey;
import org.mpcache.common.protocolPB.LocalizedGrant;
import org.mpcache.common.protocolPB.LocalizedJob;
import org.mpcache.common.protocolPB.LocalizedProtocol;
import org.mpcache.common.protocolPB.LocalizedProtocolClientSideTranslatorPB;
import org.mpcache.hdfs.ClientConfigKeys;
import org.mpcache.minicluster.MiniMpCacheCluster;
import org.mpcache.slave.MpCacheSlave;
import org.mpcache.slave.space.SpaceSnapshot;
import org.mpcache.yarn.LocalizedAuxService;
import org.mpcache.yarn.YarnIntegrationConfigKeys;

/**
 * Who may use a slave's Localized Cache, on a real master and slave over real RPC: the NodeManager
 * side is the real {@link LocalizedAuxService}, running as the cluster's user, which registers
 * alice's containers as YARN starts them; alice calls as a task of hers does, and bob is another
 * local user. Bob cannot release alice's grants, cannot ask for room for her container (and his
 * refused request makes the master reclaim no cached input), nor for a container the NodeManager
 * never started; alice cannot name her container under another application.
 */
class LocalizedAuthorizationTest {
  private static final int MB = 1 << 20;
  private static final File BASE = new File("target/secure/localized-auth").getAbsoluteFile();

  private static MiniMpCacheCluster cluster;
  private static MpCacheSlave slave;
  private static LocalizedAuxService nodeManager;
  private static int nextApp;

  @BeforeAll
  static void start() throws IOException {
    FileUtils.deleteQuietly(BASE);
    // Input Cache 2 MB and a Dynamic Pool of two 1 MB units; a Localized Cache of 1 MB.
    cluster = new MiniMpCacheCluster.Builder(BASE).dataNodes(1).blockSize(MB)
        .slaveCapacity(4L * MB).localizedCapacity(MB)
        // Generous: where bytes come from is asserted, on a loaded build machine.
        .set(ClientConfigKeys.CACHE_DEADLINE_MS_KEY, "60000").build();
    slave = cluster.slaves().get(0);
    Configuration nm = new Configuration(cluster.conf());
    InetSocketAddress localized = slave.getLocalizedAddress();
    nm.set(YarnIntegrationConfigKeys.LOCALIZED_ADDRESS_KEY,
        localized.getHostString() + ":" + localized.getPort());
    nodeManager = new LocalizedAuxService();
    nodeManager.init(nm);
    nodeManager.start();
  }

  @AfterAll
  static void stop() {
    if (nodeManager != null) {
      nodeManager.stop();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void containerAndApplicationFinished_byAnotherUser_areRefusedAndTheGrantStays()
      throws Exception {
    ContainerId c = startContainer("alice");
    String app = appOf(c);
    assertTrue(as("alice", p -> p.requestSpace(app, c.toString(), attempt(c), 1000,
        LocalizedJob.UNKNOWN)).isGranted());
    long used = split().localizedCacheUsed();

    assertRefused(() -> as("bob", p -> {
      p.containerFinished(c.toString());
      return null;
    }), c.toString(), "bob");
    assertRefused(() -> as("bob", p -> {
      p.applicationFinished(app);
      return null;
    }), app, "bob");
    assertEquals(used, split().localizedCacheUsed(), "alice's grant is untouched");

    nodeManager.stopApplication(new ApplicationTerminationContext(c.getApplicationAttemptId()
        .getApplicationId()));
    assertEquals(used - 1000, split().localizedCacheUsed(), "the NodeManager releases it");
  }

  @Test
  void requestSpace_forAnotherUsersContainer_isRefusedAndReclaimsNoInput() throws Exception {
    // Cached input fills the Input Cache and both pool units: room for localized data beyond
    // the Localized Cache's own 1 MB can only come from the master reclaiming a dataset.
    Path input = new Path("/localized-auth/input");
    write(cluster, input, data(5, 4 * MB));
    readAll(cluster, input);
    waitFor(() -> slave.getStore().cachedBlocks().size() == 4, "4 cached blocks");
    List<BlockKey> cached = slave.getStore().cachedBlocks();
    SpaceSnapshot before = split();
    assertEquals(2L * MB, before.poolLentToInput());

    ContainerId c = startContainer("alice");
    String app = appOf(c);
    assertRefused(() -> as("bob", p -> p.requestSpace(app, c.toString(), attempt(c), 2L * MB,
        LocalizedJob.UNKNOWN)), c.toString(), "bob");
    assertRefused(() -> as("bob", p -> {
      p.reportRetained(app, c.toString(), attempt(c), cluster.slaveSsdDir(0).getPath(), 1);
      return null;
    }), c.toString(), "bob");
    assertEquals(cached, slave.getStore().cachedBlocks(), "no input reclaimed for bob");
    assertEquals(before, split(), "the split is untouched");

    // Alice's own request is what would have reclaimed input.
    LocalizedGrant g = as("alice", p -> p.requestSpace(app, c.toString(), attempt(c), 2L * MB,
        LocalizedJob.UNKNOWN));
    assertTrue(g.isGranted(), g.toString());
    assertTrue(slave.getStore().cachedBlocks().size() < 4, "alice's grant reclaimed input");
    nodeManager.stopApplication(new ApplicationTerminationContext(c.getApplicationAttemptId()
        .getApplicationId()));
    assertEquals(0, split().localizedCacheUsed());
  }

  @Test
  void requestSpace_forAnUnregisteredContainer_isRefused() throws Exception {
    ContainerId never = container();
    assertRefused(() -> as("bob", p -> p.requestSpace(appOf(never), never.toString(),
        attempt(never), 1000, LocalizedJob.UNKNOWN)), never.toString(), "bob");
    assertEquals(0, split().localizedCacheUsed());
  }

  @Test
  void requestSpace_namingAnotherApplication_isRefused() throws Exception {
    ContainerId c = startContainer("alice");
    ContainerId other = startContainer("bob");
    assertRefused(() -> as("alice", p -> p.requestSpace(appOf(other), c.toString(), attempt(c),
        1000, LocalizedJob.UNKNOWN)), c.toString(), appOf(other));
    assertEquals(0, split().localizedCacheUsed());
  }

  /** A container of a new application of {@code user}, started on the node as YARN does. */
  private static ContainerId startContainer(String user) {
    ContainerId c = container();
    nodeManager.initializeContainer(new ContainerInitializationContext(user, c,
        Resource.newInstance(512, 1)));
    return c;
  }

  private static synchronized ContainerId container() {
    ApplicationId app = ApplicationId.newInstance(1_700_000_000_000L, ++nextApp);
    return ContainerId.newContainerId(ApplicationAttemptId.newInstance(app, 1), 2);
  }

  private static String appOf(ContainerId c) {
    return c.getApplicationAttemptId().getApplicationId().toString();
  }

  private static String attempt(ContainerId c) {
    return "attempt_" + c.getContainerId() + "_" + c.getApplicationAttemptId().getApplicationId()
        .getId() + "_m_000000_0";
  }

  private static SpaceSnapshot split() {
    return slave.getLocalizedCache().snapshot();
  }

  /** One call on the Localized protocol. */
  @FunctionalInterface
  private interface LocalizedCall<T> {
    T call(LocalizedProtocol slave) throws IOException;
  }

  /** A call to the slave over RPC as {@code user}, as a task of that user makes it. */
  private static <T> T as(String user, LocalizedCall<T> call) throws Exception {
    return UserGroupInformation.createRemoteUser(user).doAs((PrivilegedExceptionAction<T>) () -> {
      try (LocalizedProtocolClientSideTranslatorPB p = new LocalizedProtocolClientSideTranslatorPB(
          slave.getLocalizedAddress(), cluster.conf())) {
        return call.call(p);
      }
    });
  }

  /** The call is refused, with an error naming what it named and why. */
  private static void assertRefused(org.junit.jupiter.api.function.Executable call,
      String... named) {
    RemoteException e = assertThrows(RemoteException.class, call);
    assertEquals(AccessControlException.class.getName(), e.getClassName(), e.getMessage());
    for (String n : named) {
      assertTrue(e.getMessage().contains(n), "names " + n + ": " + e.getMessage());
    }
  }
}
