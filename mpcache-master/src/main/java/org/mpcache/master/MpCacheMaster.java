package org.mpcache.master;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Paths;
import java.util.function.LongSupplier;
import javax.annotation.concurrent.GuardedBy;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenIdentifier;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation.AuthenticationMethod;
import org.apache.hadoop.security.token.SecretManager;
import org.apache.hadoop.service.CompositeService;
import org.apache.hadoop.util.Time;
import org.mpcache.common.ConfigChecks;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.common.proto.AdminProtos.AdminService;
import org.mpcache.common.proto.ClientMasterProtos.ClientMasterService;
import org.mpcache.common.proto.SlaveMasterProtos.SlaveMasterService;
import org.mpcache.common.protocolPB.AdminProtocolPB;
import org.mpcache.common.protocolPB.ClientMasterProtocolPB;
import org.mpcache.common.protocolPB.RequestRefusedException;
import org.mpcache.common.protocolPB.SlaveMasterProtocolPB;
import org.mpcache.common.security.BlockKeySecretManager;
import org.mpcache.common.service.Daemons;
import org.mpcache.common.service.RpcServerService;
import org.mpcache.common.service.SecureLogin;
import org.mpcache.master.admin.MasterRefresher;
import org.mpcache.master.admin.PrefetchPlanner;
import org.mpcache.common.metrics.MetricsSupport;
import org.mpcache.master.arbitrator.CachePolicies;
import org.mpcache.master.arbitrator.CachePolicy;
import org.mpcache.master.arbitrator.PlacementIndex;
import org.mpcache.master.arbitrator.PolicyParameters;
import org.mpcache.master.arbitrator.ReplaceArbitrator;
import org.mpcache.master.metrics.MasterMetrics;
import org.mpcache.master.registry.SlaveMonitor;
import org.mpcache.master.registry.SlaveRegistry;
import org.mpcache.master.rpc.AdminHandler;
import org.mpcache.master.rpc.ClientMasterHandler;
import org.mpcache.master.rpc.SlaveMasterHandler;
import org.mpcache.master.security.MasterPolicyProvider;
import org.mpcache.master.status.ArbitratorStats;
import org.mpcache.master.status.MasterStatus;
import org.mpcache.master.space.DynamicSpaceManager;
import org.mpcache.master.web.MasterHttpServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The mpCache master daemon, one per cluster: the Replace Arbitrator behind the slave, client and
 * admin RPC protocols, the Dynamic Space Manager's history of localized space per job type (kept in
 * {@code mpcache.master.space.history.file}), and the monitor that expires silent slaves.
 *
 * <p>Services, in start order: the RPC server (so slaves can register as soon as the master is
 * up), the slave monitor (which only acts on registered slaves), then the web UI (it only reads).
 */
public class MpCacheMaster extends CompositeService {
  private static final Logger LOG = LoggerFactory.getLogger(MpCacheMaster.class);

  private SlaveRegistry registry;
  private ReplaceArbitrator arbitrator;
  private DynamicSpaceManager spaceManager;
  private RpcServerService rpcServer;
  private MasterHttpServer httpServer;
  private MasterStatus status;
  private MasterRefresher refresher;
  private MasterMetrics metrics;
  /** RPC durations wait here until the port (part of the metrics' name) is known at start. */
  private volatile MasterMetrics rpcTimer;
  @GuardedBy("this")
  private FileSystem fileSystem;

  public MpCacheMaster() {
    super(MpCacheMaster.class.getSimpleName());
  }

  @Override
  protected void serviceInit(Configuration conf) throws Exception {
    long heartbeatMs = ConfigChecks.longAtLeast(conf, MasterConfigKeys.HEARTBEAT_INTERVAL_MS_KEY,
        MasterConfigKeys.HEARTBEAT_INTERVAL_MS_DEFAULT, 1);
    long expiryMs = ConfigChecks.longAtLeast(conf, MasterConfigKeys.SLAVE_EXPIRY_MS_KEY,
        MasterConfigKeys.SLAVE_EXPIRY_MS_DEFAULT, 1);
    if (expiryMs <= heartbeatMs) {
      throw new IllegalArgumentException(MasterConfigKeys.SLAVE_EXPIRY_MS_KEY + " (" + expiryMs
          + ") must be larger than " + MasterConfigKeys.HEARTBEAT_INTERVAL_MS_KEY + " ("
          + heartbeatMs + "), or every slave would expire between two heartbeats.");
    }
    int handlers = ConfigChecks.intAtLeast(conf, MasterConfigKeys.RPC_HANDLER_COUNT_KEY,
        MasterConfigKeys.RPC_HANDLER_COUNT_DEFAULT, 1);
    InetSocketAddress rpcAddress = ConfigChecks.address(conf,
        MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY, MpCacheConfigKeys.MASTER_RPC_ADDRESS_DEFAULT);
    InetSocketAddress httpAddress = ConfigChecks.address(conf, MasterConfigKeys.HTTP_ADDRESS_KEY,
        MasterConfigKeys.HTTP_ADDRESS_DEFAULT);
    InetSocketAddress bind = new InetSocketAddress(conf.getTrimmed(
        MasterConfigKeys.RPC_BIND_HOST_KEY, MasterConfigKeys.RPC_BIND_HOST_DEFAULT),
        rpcAddress.getPort());

    // Before anything talks to HDFS or serves RPC, as HDFS's daemons log in.
    SecureLogin.login(conf, MasterConfigKeys.KEYTAB_FILE_KEY,
        MpCacheConfigKeys.MASTER_KERBEROS_PRINCIPAL_KEY, rpcAddress.getHostName());
    spaceManager = openSpaceManager(conf);
    LongSupplier monotonic = Time::monotonicNow;
    registry = new SlaveRegistry(monotonic, expiryMs);
    arbitrator = new ReplaceArbitrator(placement -> createPolicy(conf, placement), registry,
        MasterConfigKeys.STATUS_MAX_DATASETS_DEFAULT, new ArbitratorStats(), Time::now);
    registry.readHoldingsFrom(arbitrator.holdings());
    // A refresh reloads the service ACLs too; no refresh can arrive before the server serves.
    refresher = new MasterRefresher(conf, registry, arbitrator, heartbeatMs,
        fresh -> rpcServer.refreshServiceAcls(fresh));
    refresher.start();
    status = new MasterStatus(registry, arbitrator, monotonic, Time::now);
    PrefetchPlanner prefetch = new PrefetchPlanner(this::fileSystem, registry, arbitrator);
    httpServer = new MasterHttpServer(httpAddress, status);
    rpcServer = new RpcServerService("MasterRpcServer", bind, handlers)
        .terse(RequestRefusedException.class).authorize(new MasterPolicyProvider())
        .tokens(createTokenSecrets(conf))
        .serve(SlaveMasterProtocolPB.class, SlaveMasterService.newReflectiveBlockingService(
            timed(SlaveMasterProtocolPB.class,
                new SlaveMasterHandler(registry, arbitrator, prefetch, spaceManager, heartbeatMs,
                    Time::now))))
        .serve(ClientMasterProtocolPB.class, ClientMasterService.newReflectiveBlockingService(
            timed(ClientMasterProtocolPB.class, new ClientMasterHandler(registry))))
        .serve(AdminProtocolPB.class, AdminService.newReflectiveBlockingService(
            timed(AdminProtocolPB.class,
                new AdminHandler(status, registry, arbitrator, prefetch, refresher))));
    addService(rpcServer);
    addService(new SlaveMonitor(registry, expiryMs, id -> {
      arbitrator.onSlaveLost(id);
      prefetch.forget(id);
    }));
    addService(httpServer);
    super.serviceInit(conf);
  }

  /**
   * With Kerberos and HDFS block tokens on, the NameNode's block keys, with which tasks (which hold
   * block tokens, not Kerberos tickets) authenticate to ask for the live slaves; null otherwise.
   */
  private static SecretManager<BlockTokenIdentifier> createTokenSecrets(Configuration conf)
      throws IOException {
    if (SecurityUtil.getAuthenticationMethod(conf) != AuthenticationMethod.KERBEROS
        || !conf.getBoolean(DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_KEY,
            DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_DEFAULT)) {
      return null;
    }
    return BlockKeySecretManager.connect(conf);
  }

  /** A protocol implementation whose calls are timed into the metrics once they exist. */
  private <T> T timed(Class<T> protocol, T handler) {
    return MetricsSupport.timed(protocol, handler, (method, ms) -> {
      MasterMetrics m = rpcTimer;
      if (m != null) {
        m.rpc(method, ms);
      }
    });
  }

  private static DynamicSpaceManager openSpaceManager(Configuration conf) throws Exception {
    double fraction = conf.getDouble(MasterConfigKeys.SPACE_DEFAULT_LOCALIZED_FRACTION_KEY,
        MasterConfigKeys.SPACE_DEFAULT_LOCALIZED_FRACTION_DEFAULT);
    if (!(fraction >= 0 && fraction <= 1)) {
      throw new IllegalArgumentException(MasterConfigKeys.SPACE_DEFAULT_LOCALIZED_FRACTION_KEY
          + " is " + fraction + ": set a share of the SSD in [0, 1], e.g. "
          + MasterConfigKeys.SPACE_DEFAULT_LOCALIZED_FRACTION_DEFAULT);
    }
    String file = conf.getTrimmed(MasterConfigKeys.SPACE_HISTORY_FILE_KEY,
        MasterConfigKeys.SPACE_HISTORY_FILE_DEFAULT);
    if (file.isEmpty()) {
      LOG.info("{} is not set: the space history is kept in memory only",
          MasterConfigKeys.SPACE_HISTORY_FILE_KEY);
      return DynamicSpaceManager.inMemory(fraction);
    }
    return DynamicSpaceManager.open(Paths.get(file), fraction);
  }

  /**
   * The cache policy named by {@code mpcache.master.policy}, over the arbitrator's placement index;
   * a seam for tests.
   */
  protected CachePolicy createPolicy(Configuration conf, PlacementIndex placement) {
    String name = conf.getTrimmed(MasterConfigKeys.POLICY_KEY, MasterConfigKeys.POLICY_DEFAULT);
    double bonus = conf.getDouble(MasterConfigKeys.POLICY_FULL_BONUS_KEY,
        MasterConfigKeys.POLICY_FULL_BONUS_DEFAULT);
    int aux = ConfigChecks.intAtLeast(conf, MasterConfigKeys.POLICY_AUXILIARY_CAPACITY_KEY,
        MasterConfigKeys.POLICY_AUXILIARY_CAPACITY_DEFAULT, 1);
    try {
      return CachePolicies.create(name, new PolicyParameters(bonus, aux), placement);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Invalid cache policy configuration ("
          + MasterConfigKeys.POLICY_KEY + "=" + name + ", " + MasterConfigKeys.POLICY_FULL_BONUS_KEY
          + "=" + bonus + "): " + e.getMessage(), e);
    }
  }

  @Override
  protected void serviceStart() throws Exception {
    super.serviceStart();
    metrics = new MasterMetrics(rpcServer.getAddress().getPort(), registry, arbitrator);
    metrics.register();
    rpcTimer = metrics;
    LOG.info("mpCache master serving on {} with policy {}; web UI at http://{}/",
        rpcServer.getAddress(), arbitrator.policyName(),
        NetUtils.getHostPortString(httpServer.getAddress()));
  }

  /**
   * The master's HDFS client, opened when the first prefetch needs it: plain HDFS (never through
   * the cache), on {@code fs.defaultFS}.
   */
  private synchronized FileSystem fileSystem() throws IOException {
    if (fileSystem == null) {
      Configuration c = new Configuration(getConfig());
      c.setClass("fs.hdfs.impl", DistributedFileSystem.class, FileSystem.class);
      fileSystem = FileSystem.newInstance(FileSystem.getDefaultUri(c), c);
    }
    return fileSystem;
  }

  @Override
  protected void serviceStop() throws Exception {
    if (metrics != null) {
      rpcTimer = null;
      metrics.unregister();
    }
    super.serviceStop();
    synchronized (this) {
      IOUtils.closeStream(fileSystem);
      fileSystem = null;
    }
  }

  /** The master's metrics source (null before start). */
  public MasterMetrics getMetrics() {
    return metrics;
  }

  /** The master's status queries (cluster report, datasets, explain), for the web UI. */
  public MasterStatus getStatus() {
    return status;
  }

  /** The RPC address the master listens on. */
  public InetSocketAddress getRpcAddress() {
    return rpcServer.getAddress();
  }

  /** The Dynamic Space Manager: the history of localized space per job type and input size. */
  public DynamicSpaceManager getSpaceManager() {
    return spaceManager;
  }

  /** The address the web UI listens on. */
  public InetSocketAddress getHttpAddress() {
    return httpServer.getAddress();
  }

  public SlaveRegistry getSlaveRegistry() {
    return registry;
  }

  /** Starts a master from mpcache-site.xml on the classpath; runs until it is stopped. */
  public static void main(String[] args) {
    Daemons.run(new MpCacheMaster(), MpCacheMaster.class, args, LOG);
  }
}
