package org.mpcache.master;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.LongSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenIdentifier;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation;
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
import org.mpcache.master.adoption.AdoptionChecker;
import org.mpcache.master.adoption.NameNodeGenerationStamps;
import org.mpcache.common.metrics.MetricsSupport;
import org.mpcache.master.arbitrator.CachePolicies;
import org.mpcache.master.arbitrator.CachePolicy;
import org.mpcache.master.arbitrator.PlacementIndex;
import org.mpcache.master.arbitrator.PolicyParameters;
import org.mpcache.master.arbitrator.ReplaceArbitrator;
import org.mpcache.master.metrics.MasterMetrics;
import org.mpcache.master.registry.SlaveAdmission;
import org.mpcache.master.registry.SlaveMonitor;
import org.mpcache.master.registry.SlaveRefusals;
import org.mpcache.master.registry.SlaveRegistry;
import org.mpcache.master.rpc.AdminHandler;
import org.mpcache.master.rpc.ClientMasterHandler;
import org.mpcache.master.rpc.SlaveGate;
import org.mpcache.master.rpc.SlaveMasterHandler;
import org.mpcache.master.security.AdminAcls;
import org.mpcache.master.security.MasterPolicyProvider;
import org.mpcache.master.status.ArbitratorStats;
import org.mpcache.master.status.MasterStatus;
import org.mpcache.master.space.DynamicSpaceManager;
import org.mpcache.master.state.MasterStateCheckpointer;
import org.mpcache.master.state.MasterStateFile;
import org.mpcache.master.web.MasterHttpServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The mpCache master daemon, one per cluster: the Replace Arbitrator behind the slave, client and
 * admin RPC protocols, the Dynamic Space Manager's history of localized space per job type (kept in
 * {@code mpcache.master.space.history.file}, or in the state directory), the checkpoints of what
 * slaves cannot tell a restarted master ({@code mpcache.master.state.dir}), and the monitor that
 * expires silent slaves.
 *
 * <p>Services, in start order: the state checkpointer (it restores the last checkpoint before any
 * slave can register, and, stopped last, checkpoints what the others leave), the check of adopted
 * blocks against HDFS (it only works on what registrations queue, so it is ready before the first
 * one), the RPC server (so slaves can register as soon as the master is up), the slave monitor (which only acts on
 * registered slaves), then the web UI (it only reads).
 */
public class MpCacheMaster extends CompositeService {
  private static final Logger LOG = LoggerFactory.getLogger(MpCacheMaster.class);
  /** The space history's file in the state directory, when no file of its own is set. */
  static final String SPACE_HISTORY_IN_STATE_DIR = "space-history";

  private SlaveRegistry registry;
  private SlaveRefusals slaveRefusals;
  private ReplaceArbitrator arbitrator;
  private DynamicSpaceManager spaceManager;
  private RpcServerService rpcServer;
  private MasterHttpServer httpServer;
  private MasterStatus status;
  private NameNodeGenerationStamps generationStamps;
  private AdoptionChecker adoptionChecker;
  private MasterRefresher refresher;
  private MasterMetrics metrics;
  private MasterStateCheckpointer checkpointer;
  /** How many datasets the metrics list in {@code TopDatasets}. */
  private int topDatasets;
  /** RPC durations wait here until the port (part of the metrics' name) is known at start. */
  private volatile MasterMetrics rpcTimer;

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
    topDatasets = ConfigChecks.intAtLeast(conf, MasterConfigKeys.METRICS_TOP_DATASETS_KEY,
        MasterConfigKeys.METRICS_TOP_DATASETS_DEFAULT, 0);
    InetSocketAddress rpcAddress = ConfigChecks.address(conf,
        MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY, MpCacheConfigKeys.MASTER_RPC_ADDRESS_DEFAULT);
    InetSocketAddress bind = new InetSocketAddress(conf.getTrimmed(
        MasterConfigKeys.RPC_BIND_HOST_KEY, MasterConfigKeys.RPC_BIND_HOST_DEFAULT),
        rpcAddress.getPort());

    // Before anything talks to HDFS or serves RPC, as HDFS's daemons log in.
    SecureLogin.login(conf, MasterConfigKeys.KEYTAB_FILE_KEY,
        MpCacheConfigKeys.MASTER_KERBEROS_PRINCIPAL_KEY, rpcAddress.getHostName());
    Path stateDir = stateDir(conf);
    spaceManager = openSpaceManager(conf, stateDir);
    LongSupplier monotonic = Time::monotonicNow;
    registry = new SlaveRegistry(monotonic, expiryMs);
    slaveRefusals = new SlaveRefusals();
    arbitrator = new ReplaceArbitrator(placement -> createPolicy(conf, placement), registry,
        MasterConfigKeys.STATUS_MAX_DATASETS_DEFAULT, new ArbitratorStats(), Time::now);
    arbitrator.setWriteBudget(writeBudget(conf));
    registry.readHoldingsFrom(arbitrator.holdings());
    // After the login: an empty mpcache.admin.acl names the user the master runs as.
    AdminAcls adminAcls = new AdminAcls(
        UserGroupInformation.getLoginUser().getShortUserName(), conf);
    // A refresh reloads the service ACLs too; no refresh can arrive before the server serves.
    refresher = new MasterRefresher(conf, registry, arbitrator, heartbeatMs,
        fresh -> rpcServer.refreshServiceAcls(fresh), adminAcls);
    refresher.start();
    PrefetchPlanner prefetch = new PrefetchPlanner(this::openFileSystem, registry, arbitrator,
        ConfigChecks.intAtLeast(conf, MasterConfigKeys.PREFETCH_MAX_FILES_KEY,
            MasterConfigKeys.PREFETCH_MAX_FILES_DEFAULT, 1),
        ConfigChecks.intAtLeast(conf, MasterConfigKeys.PREFETCH_QUEUE_MAX_BLOCKS_KEY,
            MasterConfigKeys.PREFETCH_QUEUE_MAX_BLOCKS_DEFAULT, 1));
    checkpointer = new MasterStateCheckpointer(stateDir == null ? null
        : new MasterStateFile(stateDir, ConfigChecks.longAtLeast(conf,
            MasterConfigKeys.STATE_MAX_BYTES_KEY, MasterConfigKeys.STATE_MAX_BYTES_DEFAULT, 1)),
        ConfigChecks.longAtLeast(conf, MasterConfigKeys.STATE_CHECKPOINT_INTERVAL_MS_KEY,
            MasterConfigKeys.STATE_CHECKPOINT_INTERVAL_MS_DEFAULT, 1),
        arbitrator, registry, prefetch, Time::now);
    status = new MasterStatus(registry, arbitrator, checkpointer::status, monotonic, Time::now);
    generationStamps = new NameNodeGenerationStamps(conf);
    adoptionChecker = new AdoptionChecker(generationStamps, (slaveId, stale) ->
        registry.staleDropped(slaveId, arbitrator.dropStale(slaveId, stale)),
        ConfigChecks.intAtLeast(conf, MasterConfigKeys.ADOPTION_CHECK_BATCH_BLOCKS_KEY,
            MasterConfigKeys.ADOPTION_CHECK_BATCH_BLOCKS_DEFAULT, 1),
        ConfigChecks.longAtLeast(conf, MasterConfigKeys.ADOPTION_CHECK_RETRY_MS_KEY,
            MasterConfigKeys.ADOPTION_CHECK_RETRY_MS_DEFAULT, 0), monotonic);
    registry.readChecksPendingFrom(adoptionChecker::pending);
    httpServer = new MasterHttpServer(status, adminAcls);
    rpcServer = new RpcServerService("MasterRpcServer", bind, handlers)
        .terse(RequestRefusedException.class, AccessControlException.class)
        .authorize(new MasterPolicyProvider())
        .tokens(createTokenSecrets(conf))
        .serve(SlaveMasterProtocolPB.class, SlaveMasterService.newReflectiveBlockingService(
            timed(SlaveMasterProtocolPB.class,
                new SlaveMasterHandler(registry,
                    new SlaveGate(registry, createSlaveAdmission(conf), slaveRefusals), arbitrator,
                    prefetch, adoptionChecker, spaceManager, heartbeatMs, Time::now))))
        .serve(ClientMasterProtocolPB.class, ClientMasterService.newReflectiveBlockingService(
            timed(ClientMasterProtocolPB.class, new ClientMasterHandler(registry, arbitrator))))
        .serve(AdminProtocolPB.class, AdminService.newReflectiveBlockingService(
            timed(AdminProtocolPB.class,
                new AdminHandler(status, registry, arbitrator, prefetch, refresher,
                    adminAcls))));
    // First to start, last to stop: restored before slaves can register, checkpointed after
    // the RPC server has stopped changing the state.
    addService(checkpointer);
    addService(adoptionChecker);
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

  /**
   * Who may register slaves ({@link SlaveAdmission}): the slave principal with Kerberos, the users
   * of {@code mpcache.master.slave.users} (by default, without Kerberos, the master's own user).
   *
   * @throws IllegalArgumentException with Kerberos, when neither the slave principal nor a user
   *     is configured: no slave could register
   */
  static SlaveAdmission createSlaveAdmission(Configuration conf) throws IOException {
    boolean kerberos =
        SecurityUtil.getAuthenticationMethod(conf) == AuthenticationMethod.KERBEROS;
    String principal = conf.getTrimmed(MpCacheConfigKeys.SLAVE_KERBEROS_PRINCIPAL_KEY, "");
    Collection<String> users = conf.getTrimmedStringCollection(MasterConfigKeys.SLAVE_USERS_KEY);
    if (kerberos && principal.isEmpty() && users.isEmpty()) {
      throw new IllegalArgumentException("hadoop.security.authentication is kerberos but neither "
          + MpCacheConfigKeys.SLAVE_KERBEROS_PRINCIPAL_KEY + " nor "
          + MasterConfigKeys.SLAVE_USERS_KEY + " is set, so no slave could register: set "
          + MpCacheConfigKeys.SLAVE_KERBEROS_PRINCIPAL_KEY + " to the slaves' principal, e.g. "
          + "mpcache/_HOST@EXAMPLE.COM");
    }
    if (!kerberos && users.isEmpty()) {
      users = List.of(UserGroupInformation.getCurrentUser().getShortUserName());
    }
    boolean check = conf.getBoolean(MasterConfigKeys.SLAVE_IP_CHECK_KEY,
        MasterConfigKeys.SLAVE_IP_CHECK_DEFAULT);
    if (!check) {
      LOG.warn("{}=false: a slave may advertise any host, and clients trust it to sit beside the "
          + "DataNode it names", MasterConfigKeys.SLAVE_IP_CHECK_KEY);
    }
    return new SlaveAdmission(kerberos && !principal.isEmpty() ? principal : null, users, check,
        NetUtils::isLocalAddress);
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

  /**
   * The state directory, absolute; null when {@code mpcache.master.state.dir} is
   * {@link MasterConfigKeys#STATE_DIR_NONE} or empty. Read with
   * {@link Configuration#get(String, String)}, which expands {@code ${hadoop.tmp.dir}} in the
   * default as in a value.
   */
  private static Path stateDir(Configuration conf) {
    String dir = conf.get(MasterConfigKeys.STATE_DIR_KEY,
        MasterConfigKeys.STATE_DIR_DEFAULT).trim();
    return dir.isEmpty() || dir.equalsIgnoreCase(MasterConfigKeys.STATE_DIR_NONE) ? null
        : Paths.get(dir).toAbsolutePath();
  }

  /**
   * The Dynamic Space Manager, its history in {@code mpcache.master.space.history.file}, else in
   * the state directory, else in memory.
   */
  private static DynamicSpaceManager openSpaceManager(Configuration conf, Path stateDir)
      throws Exception {
    double fraction = conf.getDouble(MasterConfigKeys.SPACE_DEFAULT_LOCALIZED_FRACTION_KEY,
        MasterConfigKeys.SPACE_DEFAULT_LOCALIZED_FRACTION_DEFAULT);
    if (!(fraction >= 0 && fraction <= 1)) {
      throw new IllegalArgumentException(MasterConfigKeys.SPACE_DEFAULT_LOCALIZED_FRACTION_KEY
          + " is " + fraction + ": set a share of the SSD in [0, 1], e.g. "
          + MasterConfigKeys.SPACE_DEFAULT_LOCALIZED_FRACTION_DEFAULT);
    }
    String file = conf.getTrimmed(MasterConfigKeys.SPACE_HISTORY_FILE_KEY,
        MasterConfigKeys.SPACE_HISTORY_FILE_DEFAULT);
    if (file.isEmpty() && stateDir != null) {
      return DynamicSpaceManager.open(stateDir.resolve(SPACE_HISTORY_IN_STATE_DIR), fraction);
    }
    if (file.isEmpty()) {
      LOG.info("{} is not set: the space history is kept in memory only",
          MasterConfigKeys.SPACE_HISTORY_FILE_KEY);
      return DynamicSpaceManager.inMemory(fraction);
    }
    return DynamicSpaceManager.open(Paths.get(file), fraction);
  }

  /**
   * The SSD write budget, {@code mpcache.master.admission.write.budget}, bytes per hour per slave.
   *
   * @throws IllegalArgumentException naming the key when it is negative or not a size
   */
  static long writeBudget(Configuration conf) {
    return ConfigChecks.bytesAtLeast(conf, MasterConfigKeys.ADMISSION_WRITE_BUDGET_KEY,
        MasterConfigKeys.ADMISSION_WRITE_BUDGET_DEFAULT, 0);
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
    double exponent = conf.getDouble(MasterConfigKeys.POLICY_SIZE_EXPONENT_KEY,
        MasterConfigKeys.POLICY_SIZE_EXPONENT_DEFAULT);
    try {
      return CachePolicies.create(name, new PolicyParameters(bonus, aux, exponent), placement);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Invalid cache policy configuration ("
          + MasterConfigKeys.POLICY_KEY + "=" + name + ", " + MasterConfigKeys.POLICY_FULL_BONUS_KEY
          + "=" + bonus + ", " + MasterConfigKeys.POLICY_SIZE_EXPONENT_KEY + "=" + exponent + "): "
          + e.getMessage(), e);
    }
  }

  @Override
  protected void serviceStart() throws Exception {
    super.serviceStart();
    metrics = new MasterMetrics(rpcServer.getAddress().getPort(), registry, arbitrator,
        slaveRefusals, checkpointer, topDatasets);
    metrics.register();
    rpcTimer = metrics;
    LOG.info("mpCache master serving on {} with policy {}; web UI at {}",
        rpcServer.getAddress(), arbitrator.policyName(), webUiUrls());
  }

  /**
   * A new HDFS client for one prefetch, as the current user (the prefetch's caller): plain HDFS
   * (never through the cache), on {@code fs.defaultFS}. Never cached, as a cached client would
   * keep the identity of whoever opened it.
   */
  private FileSystem openFileSystem() throws IOException {
    Configuration c = new Configuration(getConfig());
    c.setClass("fs.hdfs.impl", DistributedFileSystem.class, FileSystem.class);
    return FileSystem.newInstance(FileSystem.getDefaultUri(c), c);
  }

  @Override
  protected void serviceStop() throws Exception {
    if (metrics != null) {
      rpcTimer = null;
      metrics.unregister();
    }
    super.serviceStop();
    if (generationStamps != null) {
      generationStamps.close();
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

  /** The checkpoints of the state directory ({@code mpcache.master.state.dir}). */
  public MasterStateCheckpointer getCheckpointer() {
    return checkpointer;
  }

  /** The Dynamic Space Manager: the history of localized space per job type and input size. */
  public DynamicSpaceManager getSpaceManager() {
    return spaceManager;
  }

  /** The address the web UI listens on over HTTP, or null when it serves HTTPS only. */
  public InetSocketAddress getHttpAddress() {
    return httpServer.getHttpAddress();
  }

  /** The address the web UI listens on over HTTPS, or null when it serves HTTP only. */
  public InetSocketAddress getHttpsAddress() {
    return httpServer.getHttpsAddress();
  }

  private String webUiUrls() {
    List<String> urls = new ArrayList<>();
    if (getHttpAddress() != null) {
      urls.add("http://" + NetUtils.getHostPortString(getHttpAddress()) + "/");
    }
    if (getHttpsAddress() != null) {
      urls.add("https://" + NetUtils.getHostPortString(getHttpsAddress()) + "/");
    }
    return String.join(" and ", urls);
  }

  public SlaveRegistry getSlaveRegistry() {
    return registry;
  }

  /** The background check of adopted blocks against HDFS, for tests and diagnostics. */
  public AdoptionChecker getAdoptionChecker() {
    return adoptionChecker;
  }

  /** The Replace Arbitrator, for tests and diagnostics. */
  public ReplaceArbitrator getArbitrator() {
    return arbitrator;
  }

  /** Starts a master from mpcache-site.xml on the classpath; runs until it is stopped. */
  public static void main(String[] args) {
    Daemons.run(new MpCacheMaster(), MpCacheMaster.class, args, LOG);
  }
}
