package org.mpcache.secure;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.e2e.ClusterFiles.data;
import static org.mpcache.e2e.ClusterFiles.holder;
import static org.mpcache.e2e.ClusterFiles.readAll;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.PrivilegedExceptionAction;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.apache.hadoop.yarn.server.api.ContainerInitializationContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mpcache.common.BlockKey;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.common.Waits;
import org.mpcache.common.proto.ClientSlaveProtos.ReadRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReadResponseProto;
import org.mpcache.common.protocolPB.ClientSlaveProtocolPB;
import org.mpcache.common.protocolPB.LocalizedGrant;
import org.mpcache.common.protocolPB.LocalizedJob;
import org.mpcache.common.protocolPB.LocalizedProtocolClientSideTranslatorPB;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.common.protocolPB.RpcSupport;
import org.mpcache.common.security.TestKdc;
import org.mpcache.e2e.ClusterFiles;
import org.mpcache.hdfs.ClientConfigKeys;
import org.mpcache.hdfs.ClientCounters;
import org.mpcache.master.MasterConfigKeys;
import org.mpcache.minicluster.MiniMpCacheCluster;
import org.mpcache.slave.MpCacheSlave;
import org.mpcache.slave.SlaveConfigKeys;
import org.mpcache.yarn.LocalizedAuxService;
import org.mpcache.yarn.LocalizedTaskIdentity;
import org.mpcache.yarn.YarnIntegrationConfigKeys;

/**
 * mpCache on a Kerberized embedded cluster: a MiniKdc, a secure MiniDFSCluster (Kerberos, HDFS
 * block tokens), and a master and slaves that log in from a keytab at start, as the service
 * principal {@code hdfs/_HOST} ({@code _HOST} expanded to {@code localhost}; one principal for every
 * daemon here, as the slaves need the HDFS superuser's block keys).
 *
 * <p>Readers authenticate exactly as MapReduce tasks do: a user with a Kerberos ticket (the job's
 * submitter) collects the job's delegation tokens through {@code MpCacheFileSystem} (as
 * {@code JobSubmitter} does), and the readers run as a user holding only those tokens, no ticket;
 * the NameNode hands them block tokens with the block locations, and they authenticate to the
 * master and the slaves with those. They stand in for a MapReduce job because a Kerberized
 * MiniMRYarnCluster (ResourceManager, NodeManager and history server principals, a job per
 * protection level) would add minutes to the suite; the reads are the part of a job mpCache
 * serves, and the tokens are the ones a job's tasks hold.
 *
 * <p>Each protection level of {@code hadoop.rpc.protection} runs on its own cluster: a file read
 * twice comes the second time from the cache, identical to HDFS's bytes; with {@code privacy}, a
 * client that offers only {@code authentication} is refused by a slave; with
 * {@code authentication}, a task authenticates to a slave's Localized Cache with a block token of
 * its job's files and may use only its own user's containers.
 */
class KerberizedReadTest {
  private static final int BLOCK = 1 << 20;
  private static final File BASE = new File("target/secure/kerberized");
  private static TestKdc kdc;
  private static File keytab;
  private static String realm;

  @BeforeAll
  static void startKdc() throws Exception {
    kdc = TestKdc.start(BASE, "hdfs/localhost", "HTTP/localhost", "alice");
    realm = kdc.realm();
    keytab = kdc.keytab();
  }

  @AfterAll
  static void stopKdc() {
    if (kdc != null) {
      kdc.close();
    }
  }

  /** The daemons' configuration: secure HDFS as Hadoop's own tests run it, and mpCache's keys. */
  private static Configuration secureConf(String protection) {
    Configuration c = new Configuration();
    String hdfs = "hdfs/localhost@" + realm;
    c.set("hadoop.security.authentication", "kerberos");
    c.set("hadoop.rpc.protection", protection);
    c.set("dfs.namenode.kerberos.principal", hdfs);
    c.set("dfs.namenode.keytab.file", keytab.getAbsolutePath());
    c.set("dfs.datanode.kerberos.principal", hdfs);
    c.set("dfs.datanode.keytab.file", keytab.getAbsolutePath());
    c.set("dfs.web.authentication.kerberos.principal", "HTTP/localhost@" + realm);
    c.set("dfs.web.authentication.kerberos.keytab", keytab.getAbsolutePath());
    c.setBoolean("dfs.block.access.token.enable", true);
    // DataNodes on unprivileged ports without SASL data transfer, as in Hadoop's own tests.
    c.setBoolean("ignore.secure.ports.for.testing", true);
    c.set(MpCacheConfigKeys.MASTER_KERBEROS_PRINCIPAL_KEY, "hdfs/_HOST@" + realm);
    c.set(MasterConfigKeys.KEYTAB_FILE_KEY, keytab.getAbsolutePath());
    c.set(MpCacheConfigKeys.SLAVE_KERBEROS_PRINCIPAL_KEY, "hdfs/_HOST@" + realm);
    c.set(SlaveConfigKeys.KEYTAB_FILE_KEY, keytab.getAbsolutePath());
    return c;
  }

  @ParameterizedTest
  @ValueSource(strings = {"authentication", "privacy"})
  void taskLikeReaders_readTwice_secondTimeFromTheCache(String protection) throws Exception {
    Configuration conf = secureConf(protection);
    UserGroupInformation.setConfiguration(conf);
    UserGroupInformation.loginUserFromKeytab("hdfs/localhost@" + realm, keytab.getAbsolutePath());
    MiniMpCacheCluster.Builder b = new MiniMpCacheCluster.Builder(new File(BASE, protection))
        .host("localhost").dataNodes(1).blockSize(BLOCK)
        // Generous: the assertion is about where bytes come from, on a loaded build machine.
        .set(ClientConfigKeys.CACHE_DEADLINE_MS_KEY, "60000");
    conf.forEach(e -> b.set(e.getKey(), e.getValue()));
    try (MiniMpCacheCluster cluster = b.build()) {
      Path home = new Path("/user/alice");
      cluster.plainFileSystem().mkdirs(home);
      cluster.plainFileSystem().setOwner(home, "alice", "alice");
      Path input = new Path(home, "input");
      byte[] content = data(protection.length(), 3 * BLOCK + 4321);

      // The submitter: a Kerberos ticket; it writes the input and collects the job's tokens.
      UserGroupInformation submitter = UserGroupInformation.loginUserFromKeytabAndReturnUGI(
          "alice@" + realm, keytab.getAbsolutePath());
      Credentials job = new Credentials();
      submitter.doAs((PrivilegedExceptionAction<Void>) () -> {
        Configuration plain = cluster.plainHadoopConf();
        plain.setClass("fs.hdfs.impl", DistributedFileSystem.class, FileSystem.class);
        try (FileSystem fs = FileSystem.newInstance(cluster.dfs().getURI(), plain);
            FSDataOutputStream out = fs.create(input)) {
          out.write(content);
        }
        try (FileSystem fs = cluster.fileSystem()) {
          fs.addDelegationTokens("yarn", job);
        }
        return null;
      });
      assertEquals(List.of(DelegationTokenIdentifier.HDFS_DELEGATION_KIND),
          job.getAllTokens().stream().map(Token::getKind).toList());

      // The task: the job's tokens only, no ticket.
      UserGroupInformation task = UserGroupInformation.createRemoteUser("alice");
      task.addCredentials(job);
      assertFalse(task.hasKerberosCredentials());
      ClientCounters counters = ClientCounters.get();
      byte[] first = task.doAs((PrivilegedExceptionAction<byte[]>) () -> readAll(cluster, input));
      assertArrayEquals(content, first, "the first read, filling the cache");
      // The slaves fill the missed blocks beside the reader, on their own threads.
      List<BlockKey> keys = ClusterFiles.blocks(cluster, input);
      Waits.waitFor(() -> keys.stream().allMatch(k -> holder(cluster, k) != null),
          "the slaves to fill every block of the input");
      long fromCacheBefore = counters.bytesFromCache();
      long fallbacksBefore = counters.totalFallbacks();
      byte[] second = task.doAs((PrivilegedExceptionAction<byte[]>) () -> readAll(cluster, input));
      assertArrayEquals(content, second, "the second read");
      long fromCache = counters.bytesFromCache() - fromCacheBefore;
      assertTrue(fromCache >= 0.9 * content.length, "the second read came " + fromCache + " of "
          + content.length + " bytes from the cache; fallbacks " + counters.fallbacks());
      assertEquals(fallbacksBefore, counters.totalFallbacks(), counters.fallbacks().toString());
      for (MpCacheSlave s : cluster.slaves()) {
        assertFalse(s.info().hasStreamPort(), "no unprotected block stream under Kerberos");
        assertNull(s.getStreamServer());
      }

      if (protection.equals("privacy")) {
        assertSlaveRefusesWeakerProtection(cluster, input);
      } else {
        assertLocalizedCacheKnowsATaskByItsBlockToken(cluster, task);
      }
    }
  }

  /**
   * A slave of a cluster with {@code privacy} serves a token-holding caller whose configuration
   * asks for privacy and refuses one that offers only {@code authentication}: the SASL QOP
   * follows {@code hadoop.rpc.protection}.
   */
  private static void assertSlaveRefusesWeakerProtection(MiniMpCacheCluster cluster, Path input)
      throws Exception {
    LocatedBlock located = DFSTestUtil.getAllBlocks(cluster.plainFileSystem(), input).get(0);
    ExtendedBlock b = located.getBlock();
    BlockKey key = new BlockKey(b.getBlockPoolId(), b.getBlockId(), b.getGenerationStamp());
    MpCacheSlave holder = holder(cluster, key);
    assertNotNull(holder, "a slave caches " + key);
    ReadRequestProto read = ReadRequestProto.newBuilder().setBlock(ProtoConverters.toProto(key))
        .setOffset(0).setLength(100)
        .setBlockToken(located.getBlockToken().encodeToUrlString()).build();
    InetSocketAddress slave = new InetSocketAddress("localhost", holder.info().getClientPort());
    assertTrue(read(tokenHolder(located), cluster.conf(), slave, read).getData().size() >= 100,
        "a caller with the cluster's protection is served");
    Configuration weaker = cluster.conf();
    weaker.set("hadoop.rpc.protection", "authentication");
    weaker.setInt("ipc.client.connect.max.retries.on.sasl", 0);
    IOException refused = assertThrows(IOException.class,
        () -> read(tokenHolder(located), weaker, slave, read));
    assertTrue(String.valueOf(refused.getMessage()).contains("protection")
        || String.valueOf(refused.getCause()).contains("protection"), refused.toString());
  }

  /**
   * The slave's Localized Cache knows a task, which holds no ticket, by a block token of its job's
   * files, as {@link LocalizedTaskIdentity} gets it: the task may ask for room for the container
   * the NodeManager (the real auxiliary service, with the daemons' ticket) started for its user,
   * not for another user's container; without the token it cannot connect at all.
   */
  private static void assertLocalizedCacheKnowsATaskByItsBlockToken(MiniMpCacheCluster cluster,
      UserGroupInformation task) throws Exception {
    Path jobDir = new Path("/user/alice/staging/job_1700000000000_0001");
    Path splits = new Path(jobDir, "job.splitmetainfo");
    try (FSDataOutputStream out = cluster.plainFileSystem().create(splits)) {
      out.write(data(3, 100));
    }
    cluster.plainFileSystem().setOwner(splits, "alice", "alice");
    Configuration conf = cluster.conf();
    conf.set(MRJobConfig.MAPREDUCE_JOB_DIR, jobDir.toString());
    // A task that cannot authenticate fails at once, not after Hadoop's SASL retries.
    conf.setInt("ipc.client.connect.max.retries.on.sasl", 0);
    MpCacheSlave slave = cluster.slaves().get(0);
    InetSocketAddress address = new InetSocketAddress("localhost",
        slave.getLocalizedAddress().getPort());
    conf.set(YarnIntegrationConfigKeys.LOCALIZED_ADDRESS_KEY, "localhost:" + address.getPort());
    LocalizedAuxService nodeManager = new LocalizedAuxService();
    nodeManager.init(conf);
    nodeManager.start();
    try {
      ContainerId alices = container(1);
      ContainerId carols = container(2);
      nodeManager.initializeContainer(new ContainerInitializationContext("alice", alices,
          Resource.newInstance(512, 1)));
      nodeManager.initializeContainer(new ContainerInitializationContext("carol", carols,
          Resource.newInstance(512, 1)));

      assertThrows(IOException.class, () -> requestSpace(task, conf, address, alices),
          "the job's delegation tokens alone do not authenticate to the slave");
      UserGroupInformation caller = task.doAs(
          (PrivilegedExceptionAction<UserGroupInformation>) () -> LocalizedTaskIdentity.of(conf));
      assertFalse(caller.hasKerberosCredentials());
      assertTrue(requestSpace(caller, conf, address, alices).isGranted());
      RemoteException refused = assertThrows(RemoteException.class,
          () -> requestSpace(caller, conf, address, carols));
      assertTrue(refused.getMessage().contains("does not run for user alice"),
          refused.getMessage());

      nodeManager.stopApplication(new ApplicationTerminationContext(
          alices.getApplicationAttemptId().getApplicationId()));
      assertEquals(0, slave.getLocalizedCache().snapshot().localizedCacheUsed(),
          "the NodeManager released alice's grant");
    } finally {
      nodeManager.stop();
    }
  }

  private static ContainerId container(int app) {
    return ContainerId.newContainerId(ApplicationAttemptId.newInstance(
        ApplicationId.newInstance(1_700_000_000_000L, app), 1), 2);
  }

  private static LocalizedGrant requestSpace(UserGroupInformation caller, Configuration conf,
      InetSocketAddress slave, ContainerId container) throws Exception {
    return caller.doAs((PrivilegedExceptionAction<LocalizedGrant>) () -> {
      try (LocalizedProtocolClientSideTranslatorPB p =
          new LocalizedProtocolClientSideTranslatorPB(slave, conf)) {
        return p.requestSpace(container.getApplicationAttemptId().getApplicationId().toString(),
            container.toString(), "attempt_1700000000000_0001_m_000000_0", 1000,
            LocalizedJob.UNKNOWN);
      }
    });
  }

  /**
   * A caller holding the block's token only; a new one per call, as Hadoop's RPC client shares a
   * connection between calls of one user to one address.
   */
  private static UserGroupInformation tokenHolder(LocatedBlock located) {
    UserGroupInformation caller = UserGroupInformation.createRemoteUser("alice");
    caller.addToken(located.getBlockToken());
    return caller;
  }

  private static ReadResponseProto read(UserGroupInformation caller, Configuration conf,
      InetSocketAddress slave, ReadRequestProto request) throws Exception {
    return caller.doAs((PrivilegedExceptionAction<ReadResponseProto>) () -> {
      ClientSlaveProtocolPB p = RpcSupport.proxy(ClientSlaveProtocolPB.class, slave, conf,
          10_000);
      try {
        return RpcSupport.call(() -> p.read(null, request));
      } finally {
        RpcSupport.close(p);
      }
    });
  }
}
