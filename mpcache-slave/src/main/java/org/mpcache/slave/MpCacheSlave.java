package org.mpcache.slave;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.service.CompositeService;
import org.apache.hadoop.util.Time;
import org.mpcache.common.BlockKey;
import org.mpcache.common.ConfigChecks;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.common.MpCacheVersion;
import org.mpcache.common.proto.ClientSlaveProtos.ClientSlaveService;
import org.mpcache.common.protocolPB.ClientSlaveProtocolPB;
import org.mpcache.common.protocolPB.LocalizedJob;
import org.mpcache.common.protocolPB.RequestChecks;
import org.mpcache.common.protocolPB.RequestRefusedException;
import org.mpcache.common.service.Daemons;
import org.mpcache.common.service.RpcServerService;
import org.mpcache.common.service.SecureLogin;
import org.mpcache.common.stream.BlockStreamConnection;
import org.mpcache.common.proto.MpCacheProtos.JobSpacePredictionProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveInfoProto;
import org.mpcache.common.proto.MpCacheProtos.SpaceReportProto;
import org.mpcache.common.proto.MpCacheProtos.SsdDirProto;
import org.mpcache.slave.cache.BlockStreamServer;
import org.mpcache.slave.cache.BlockFileCheck;
import org.mpcache.slave.cache.ClientEndpoint;
import org.mpcache.slave.cache.ConnectionLimits;
import org.mpcache.slave.cache.FillAdmission;
import org.mpcache.slave.cache.FillRequest;
import org.mpcache.slave.cache.InputCache;
import org.mpcache.slave.master.DatasetCounters;
import org.mpcache.slave.cache.DescriptorServer;
import org.mpcache.slave.cache.SlaveCounters;
import org.mpcache.common.proto.SlaveMasterProtos.PrefetchCommandProto;
import org.mpcache.slave.localized.LocalizedCache;
import org.mpcache.slave.localized.LocalizedCacheService;
import org.mpcache.slave.localized.LocalizedConfigKeys;
import org.mpcache.slave.localized.SpacePrediction;
import org.mpcache.slave.master.MasterInputExcluder;
import org.mpcache.slave.master.MasterLink;
import org.mpcache.slave.metrics.SlaveMetrics;
import org.mpcache.slave.fill.FillFileSystems;
import org.mpcache.slave.fill.FillHoldOff;
import org.mpcache.slave.fill.FillSourceGate;
import org.mpcache.slave.fill.FillSources;
import org.mpcache.slave.fill.FillYield;
import org.mpcache.slave.fill.BlockFiller;
import org.mpcache.slave.security.BlockAccessChecker;
import org.mpcache.slave.security.BlockTokenChecker;
import org.mpcache.slave.security.SlavePolicyProvider;
import org.mpcache.slave.space.DynamicSpaceTuner;
import org.mpcache.slave.space.ForegroundActivity;
import org.mpcache.slave.space.SpaceSnapshot;
import org.mpcache.slave.space.SsdVolume;
import org.mpcache.slave.space.TunedInputCacheSpace;
import org.mpcache.slave.store.BlockNotCachedException;
import org.mpcache.slave.store.BlockStorage;
import org.mpcache.slave.store.CachedBlock;
import org.mpcache.slave.store.FileBlockStore;
import org.mpcache.slave.store.StorageDirLocks;
import org.mpcache.slave.verify.StartupVerifier;
import org.mpcache.slave.volume.RunningClock;
import org.mpcache.slave.volume.VolumeHealth;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The mpCache slave daemon, one per DataNode/NodeManager host. It owns the node's SSD directories
 * ({@code mpcache.slave.cache.dirs}), each split by the Dynamic Space Tuner into an Input Cache, a
 * Dynamic Pool and a Localized Cache (paper Section 2.1). The Input Cache ({@link InputCache})
 * keeps cached HDFS blocks, which the client endpoint serves to the tasks that read them and the
 * filler ({@link BlockFiller}) reads from HDFS for readers' misses and prefetches; the
 * Localized Cache service grants the node's map and reduce tasks SSD room for their localized
 * data; the master link reports to the master, carries the split in every heartbeat, and asks the
 * Replace Arbitrator which cached datasets to exclude when localized data needs room that input
 * holds.
 *
 * <p>Services, in start order: the filler (ready before the first heartbeat can carry commands),
 * the descriptor server when
 * {@code mpcache.slave.domain.socket.path} is set (local hits), the block stream server unless
 * {@code mpcache.slave.stream.address} is empty or security asks for protected transfers (remote
 * hits), the client RPC server (its port is part of the
 * slave's identity), the Localized Cache service (tasks and the NodeManager's auxiliary service
 * call it), then the master link (it registers with that port).
 *
 * <p>Each SSD directory is locked ({@link StorageDirLocks}) from init to stop, so that two slaves
 * never share one.
 *
 * <p>Thread-safety: the services are; the tuner is guarded by {@code spaceLock}, which the Input
 * Cache's space and the Localized Cache both take around every tuner call.
 */
public class MpCacheSlave extends CompositeService implements MasterLink.SlaveState {
  private static final Logger LOG = LoggerFactory.getLogger(MpCacheSlave.class);

  private final Object spaceLock = new Object();
  private DynamicSpaceTuner tuner;
  private StorageDirLocks dirLocks;
  private FileBlockStore store;
  /** Times the SSD reads, leaving out stalls of the whole process; null before init. */
  private RunningClock readClock;
  private SlaveCounters counters;
  private InputCache inputCache;
  private DescriptorServer descriptorServer;
  private BlockStreamServer streamServer;
  private RpcServerService rpcServer;
  private LocalizedCache localizedCache;
  private LocalizedCacheService localizedService;
  private MasterLink masterLink;
  private BlockFiller filler;
  private FillSourceGate fillSources;
  private FillFileSystems fillFileSystems;
  private StartupVerifier startupVerifier;
  private SlaveMetrics metrics;
  private String hostname;
  private String datanodeAddress;

  public MpCacheSlave() {
    super(MpCacheSlave.class.getSimpleName());
  }

  @Override
  protected void serviceInit(Configuration conf) throws Exception {
    List<SsdVolume> layout = LocalizedConfigKeys.ssdLayout(conf);
    double guard = LocalizedConfigKeys.guard(conf);
    int chunk = ConfigChecks.intAtLeast(conf, SlaveConfigKeys.CHECKSUM_CHUNK_BYTES_KEY,
        SlaveConfigKeys.CHECKSUM_CHUNK_BYTES_DEFAULT, 512);
    int readMax = ConfigChecks.intAtLeast(conf, SlaveConfigKeys.READ_MAX_BYTES_KEY,
        SlaveConfigKeys.READ_MAX_BYTES_DEFAULT, chunk);
    int handlers = ConfigChecks.intAtLeast(conf, SlaveConfigKeys.RPC_HANDLER_COUNT_KEY,
        SlaveConfigKeys.RPC_HANDLER_COUNT_DEFAULT, 1);
    int rpcTimeout = ConfigChecks.intAtLeast(conf, MpCacheConfigKeys.RPC_TIMEOUT_MS_KEY,
        MpCacheConfigKeys.RPC_TIMEOUT_MS_DEFAULT, 1);
    InetSocketAddress bind = ConfigChecks.address(conf, SlaveConfigKeys.RPC_ADDRESS_KEY,
        SlaveConfigKeys.RPC_ADDRESS_DEFAULT);
    InetSocketAddress master = ConfigChecks.address(conf,
        MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY, MpCacheConfigKeys.MASTER_RPC_ADDRESS_DEFAULT);
    hostname = conf.getTrimmed(SlaveConfigKeys.HOSTNAME_KEY, SlaveConfigKeys.HOSTNAME_DEFAULT);
    if (hostname.isEmpty()) {
      hostname = InetAddress.getLocalHost().getCanonicalHostName();
    }
    datanodeAddress = conf.getTrimmed(SlaveConfigKeys.DATANODE_ADDRESS_KEY,
        SlaveConfigKeys.DATANODE_ADDRESS_DEFAULT);
    // Before the block keys are fetched from the NameNode or anything is served.
    SecureLogin.login(conf, SlaveConfigKeys.KEYTAB_FILE_KEY,
        MpCacheConfigKeys.SLAVE_KERBEROS_PRINCIPAL_KEY, hostname);

    tuner = new DynamicSpaceTuner(layout, guard);
    List<Path> dirs = new ArrayList<>(layout.size());
    for (SsdVolume v : layout) {
      dirs.add(Paths.get(v.dir()));
    }
    // Before the store touches them: a second slave on these dirs would delete our fills.
    dirLocks = StorageDirLocks.lock(dirs);
    readClock = RunningClock.start();
    TunedInputCacheSpace inputSpace = new TunedInputCacheSpace(tuner, spaceLock);
    store = FileBlockStore.open(createBlockStorage(conf), dirs, inputSpace, chunk,
        volumeHealth(conf, dirs), readClock);
    int heartbeatDatasets = ConfigChecks.intAtLeast(conf,
        SlaveConfigKeys.HEARTBEAT_DATASETS_MAX_KEY, SlaveConfigKeys.HEARTBEAT_DATASETS_MAX_DEFAULT,
        1);
    if (heartbeatDatasets > RequestChecks.MAX_DATASETS_PER_HEARTBEAT) {
      throw new IllegalArgumentException(SlaveConfigKeys.HEARTBEAT_DATASETS_MAX_KEY + " = "
          + heartbeatDatasets + " is more than the master accepts in one heartbeat; set it to at"
          + " most " + RequestChecks.MAX_DATASETS_PER_HEARTBEAT);
    }
    counters = new SlaveCounters(new DatasetCounters(ConfigChecks.intAtLeast(conf,
        SlaveConfigKeys.DATASETS_MAX_KEY, SlaveConfigKeys.DATASETS_MAX_DEFAULT, 1),
        heartbeatDatasets, Time::now));
    masterLink = new MasterLink(master, rpcTimeout, () -> this);
    // Before the services: they change the Input Cache through it.
    inputCache = new InputCache(store, counters, masterLink);
    // The master's view stays true: a directory's dropped blocks are removals like evictions.
    store.onVolumeOut((dir, dropped) -> dropped.forEach(masterLink::reportRemoved));
    long yieldWindow = ConfigChecks.longAtLeast(conf, SlaveConfigKeys.FILL_YIELD_WINDOW_MS_KEY,
        SlaveConfigKeys.FILL_YIELD_WINDOW_MS_DEFAULT, 1);
    // Hits and Localized Cache grants, weighed by the fills (FillYield).
    ForegroundActivity foreground = new ForegroundActivity(yieldWindow, Time::monotonicNow);
    boolean verify =
        conf.getBoolean(SlaveConfigKeys.FILL_VERIFY_KEY, SlaveConfigKeys.FILL_VERIFY_DEFAULT);
    if (!verify) {
      LOG.warn("{}=false: the files readers' lookups name are taken on their word, not checked"
          + " with the NameNode", SlaveConfigKeys.FILL_VERIFY_KEY);
    }
    BlockAccessChecker access = createAccessChecker(conf);
    String socket = conf.getTrimmed(SlaveConfigKeys.DOMAIN_SOCKET_PATH_KEY,
        SlaveConfigKeys.DOMAIN_SOCKET_PATH_DEFAULT);
    if (!socket.isEmpty()) {
      descriptorServer = new DescriptorServer(Paths.get(socket), inputCache, access, foreground,
          new ConnectionLimits(ConfigChecks.intAtLeast(conf,
              SlaveConfigKeys.DOMAIN_SOCKET_MAX_CONNECTIONS_KEY,
              SlaveConfigKeys.DOMAIN_SOCKET_MAX_CONNECTIONS_DEFAULT, 1),
              SlaveConfigKeys.DOMAIN_SOCKET_MAX_CONNECTIONS_KEY, rpcTimeout, 0));
    }
    String stream = conf.getTrimmed(SlaveConfigKeys.STREAM_ADDRESS_KEY,
        SlaveConfigKeys.STREAM_ADDRESS_DEFAULT);
    if (stream.isEmpty()) {
      LOG.info("{} is empty: remote hits are read through RPC",
          SlaveConfigKeys.STREAM_ADDRESS_KEY);
    } else if (!BlockStreamConnection.allowed(conf)) {
      LOG.info("Kerberos or hadoop.rpc.protection above authentication: block bytes go through"
          + " the protected RPC, not the unprotected block stream ({})",
          SlaveConfigKeys.STREAM_ADDRESS_KEY);
    } else {
      streamServer = new BlockStreamServer(ConfigChecks.address(conf,
          SlaveConfigKeys.STREAM_ADDRESS_KEY, SlaveConfigKeys.STREAM_ADDRESS_DEFAULT), inputCache,
          access, foreground, readMax,
          new ConnectionLimits(ConfigChecks.intAtLeast(conf,
              SlaveConfigKeys.STREAM_MAX_CONNECTIONS_KEY,
              SlaveConfigKeys.STREAM_MAX_CONNECTIONS_DEFAULT, 1),
              SlaveConfigKeys.STREAM_MAX_CONNECTIONS_KEY, rpcTimeout,
              ConfigChecks.longAtLeast(conf, SlaveConfigKeys.STREAM_IDLE_TIMEOUT_MS_KEY,
                  SlaveConfigKeys.STREAM_IDLE_TIMEOUT_MS_DEFAULT, 1)),
          conf.getBoolean(SlaveConfigKeys.STREAM_KEEPALIVE_KEY,
              SlaveConfigKeys.STREAM_KEEPALIVE_DEFAULT));
    }
    DescriptorServer descriptors = descriptorServer;
    fillSources = new FillSourceGate(FillSources.of(conf), Time::monotonicNow);
    if (fillSources.sources().authorities().isEmpty()) {
      LOG.warn("{} = {} is not HDFS and no HDFS nameservice is configured: the slave fills no"
          + " block itself (readers' misses, prefetches)", FileSystem.FS_DEFAULT_NAME_KEY,
          FileSystem.getDefaultUri(conf));
    } else {
      LOG.info("The slave fills blocks from its cluster's HDFS only: {}",
          fillSources.sources().authorities());
    }
    fillFileSystems = new FillFileSystems(conf, fillSources);
    // Whether a block is the file's a fill names: asked before every fill's admission.
    BlockFileCheck blockFiles =
        verify ? createBlockFileCheck(conf) : (key, path, offset, length) -> true;
    FillAdmission admission = new FillAdmission(inputCache, masterLink, blockFiles);
    filler = new BlockFiller(inputCache, admission, fillSources, fillFileSystems,
        ConfigChecks.intAtLeast(conf, SlaveConfigKeys.PREFETCH_QUEUE_KEY,
            SlaveConfigKeys.PREFETCH_QUEUE_DEFAULT, 1),
        ConfigChecks.intAtLeast(conf, SlaveConfigKeys.SLAVE_FILL_QUEUE_KEY,
            SlaveConfigKeys.SLAVE_FILL_QUEUE_DEFAULT, 1),
        ConfigChecks.longAtLeast(conf, SlaveConfigKeys.FILL_BYTES_PER_SEC_KEY,
            SlaveConfigKeys.FILL_BYTES_PER_SEC_DEFAULT, 0),
        new FillHoldOff(
            ConfigChecks.longAtLeast(conf, SlaveConfigKeys.FILL_QUIET_MS_KEY,
                SlaveConfigKeys.FILL_QUIET_MS_DEFAULT, 0),
            ConfigChecks.longAtLeast(conf, SlaveConfigKeys.FILL_MAX_DELAY_MS_KEY,
                SlaveConfigKeys.FILL_MAX_DELAY_MS_DEFAULT, 0)),
        new FillYield(
            ConfigChecks.longAtLeast(conf, SlaveConfigKeys.FILL_YIELD_FOREGROUND_BYTES_PER_SEC_KEY,
                SlaveConfigKeys.FILL_YIELD_FOREGROUND_BYTES_PER_SEC_DEFAULT, 0),
            yieldWindow,
            ConfigChecks.longAtLeast(conf, SlaveConfigKeys.FILL_YIELD_MAX_DELAY_MS_KEY,
                SlaveConfigKeys.FILL_YIELD_MAX_DELAY_MS_DEFAULT, 0)),
        foreground);
    ClientEndpoint clientEndpoint = new ClientEndpoint(inputCache, access, foreground,
        filler::fillForReader, fillSources, readMax,
        descriptors == null ? () -> "" : descriptors::advertisedPath);
    // Tasks hold block tokens, not Kerberos tickets: they authenticate with those.
    rpcServer = new RpcServerService("SlaveRpcServer", bind, handlers).serve(
        ClientSlaveProtocolPB.class, ClientSlaveService.newReflectiveBlockingService(clientEndpoint))
        // A block evicted between a reader's lookup and its read is an expected answer, not a
        // fault: one log line, not a stack trace per read.
        .terse(RequestRefusedException.class, BlockNotCachedException.class)
        // A read's response carries up to readMax bytes of data and the message around them.
        .expectResponsesUpTo(readMax + 64 * 1024)
        .authorize(new SlavePolicyProvider()).tokens(access.rpcSecretManager());
    // The excluder runs with no lock held (its reclaim is an RPC): it reads a block's directory
    // under the space lock, as fills change the reservations meanwhile.
    localizedCache = new LocalizedCache(tuner, spaceLock,
        new MasterInputExcluder(masterLink::requestReclaim, inputSpace::dirOf,
            store::cachedLength, layout.size()),
        store::leased, inputCache::evict, masterLink, foreground);
    // Tasks call the Localized Cache with their block tokens too.
    localizedService = new LocalizedCacheService(localizedCache, access.rpcSecretManager());
    // The blocks a previous run left, checked so far by size and header only.
    startupVerifier = new StartupVerifier(store, store.cachedBlocks(),
        ConfigChecks.longAtLeast(conf, SlaveConfigKeys.VERIFY_BYTES_PER_SEC_KEY,
            SlaveConfigKeys.VERIFY_BYTES_PER_SEC_DEFAULT, 0),
        (key, why) -> {
          counters.blockFailedVerification();
          inputCache.drop(key, why);
        });
    addService(filler);
    if (descriptorServer != null) {
      // Before the client RPC server: a hit names the socket only once it is served.
      addService(descriptorServer);
    }
    if (streamServer != null) {
      // Before the master link, which registers its port.
      addService(streamServer);
    }
    addService(rpcServer);
    addService(localizedService);
    addService(masterLink);
    // Last: it drops blocks through the Input Cache and reports them through the link.
    addService(startupVerifier);
    super.serviceInit(conf);
  }

  /** When an SSD directory goes out of service: the keys {@code mpcache.slave.volume.*}. */
  private static VolumeHealth volumeHealth(Configuration conf, List<Path> dirs) {
    return new VolumeHealth(dirs.stream().map(Path::toString).toList(),
        ConfigChecks.intAtLeast(conf, SlaveConfigKeys.VOLUME_FAULTS_TOLERATED_KEY,
            SlaveConfigKeys.VOLUME_FAULTS_TOLERATED_DEFAULT, 0),
        ConfigChecks.longAtLeast(conf, SlaveConfigKeys.VOLUME_FAULTS_WINDOW_MS_KEY,
            SlaveConfigKeys.VOLUME_FAULTS_WINDOW_MS_DEFAULT, 1),
        ConfigChecks.longAtLeast(conf, SlaveConfigKeys.VOLUME_SLOW_READ_MS_KEY,
            SlaveConfigKeys.VOLUME_SLOW_READ_MS_DEFAULT, 0),
        Time::monotonicNow, Time::now);
  }

  /**
   * The check that a client may read a block: HDFS block access tokens when HDFS issues them
   * ({@code dfs.block.access.token.enable}), none otherwise, as on a DataNode.
   */
  protected BlockAccessChecker createAccessChecker(Configuration conf) throws IOException {
    return conf.getBoolean(DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_KEY,
        DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_DEFAULT)
        ? BlockTokenChecker.connect(conf) : BlockAccessChecker.open();
  }

  /**
   * Whether a block is the one a file of the cluster's HDFS holds at an offset: the slave's own
   * NameNode call ({@link FillFileSystems#isBlockOf}); a seam for tests that fake the NameNode.
   * Used only with {@code mpcache.slave.fill.verify} on.
   */
  protected BlockFileCheck createBlockFileCheck(Configuration conf) {
    return fillFileSystems;
  }

  /**
   * The file I/O under the Input Cache: the local file system; a seam for tests that inject the
   * SSD's faults.
   */
  protected BlockStorage createBlockStorage(Configuration conf) {
    return BlockStorage.local();
  }

  @Override
  protected void serviceStart() throws Exception {
    super.serviceStart();
    metrics = new SlaveMetrics(rpcServer.getAddress().getPort(), this);
    metrics.register();
    LOG.info("mpCache slave {} serving {} cached blocks; SSD split {}; Localized Cache on {}",
        info().getSlaveId(), store.cachedBlocks().size(), localizedCache.snapshot(),
        localizedService.getAddress());
  }

  @Override
  protected void serviceStop() throws Exception {
    if (metrics != null) {
      metrics.unregister();
    }
    try {
      super.serviceStop();
    } finally {
      if (readClock != null) {
        readClock.close();
      }
      if (dirLocks != null) {
        dirLocks.close();
      }
    }
  }

  /** The slave's metrics source (null before start). */
  public SlaveMetrics getMetrics() {
    return metrics;
  }

  @Override
  public SlaveInfoProto info() {
    SlaveInfoProto.Builder b = SlaveInfoProto.newBuilder()
        .setSlaveId(hostname + ":" + rpcServer.getAddress().getPort()).setHost(hostname)
        .setClientPort(rpcServer.getAddress().getPort()).setVersion(MpCacheVersion.get());
    if (!datanodeAddress.isEmpty()) {
      b.setDatanodeAddress(datanodeAddress);
    }
    if (streamServer != null && streamServer.port() > 0) {
      b.setStreamPort(streamServer.port());
    }
    return b.build();
  }

  @Override
  public SpaceReportProto space() {
    SpaceSnapshot s = localizedCache.snapshot();
    SpaceReportProto.Builder b = SpaceReportProto.newBuilder().setCapacity(s.capacity())
        .setInputCacheCapacity(s.inputCacheCapacity()).setInputCacheUsed(s.inputCacheUsed())
        .setDynamicPoolCapacity(s.dynamicPoolCapacity()).setPoolLentToInput(s.poolLentToInput())
        .setPoolLentToLocalized(s.poolLentToLocalized())
        .setLocalizedCacheCapacity(s.localizedCacheCapacity())
        .setLocalizedCacheUsed(s.localizedCacheUsed());
    for (VolumeHealth.DirState d : store.volumes()) {
      SsdDirProto.Builder dir = SsdDirProto.newBuilder().setDir(d.dir())
          .setInService(d.inService()).setRecentFaults(d.recentFaults());
      if (!d.inService()) {
        dir.setCause(printable(d.cause(), RequestChecks.MAX_ID_CHARS))
            .setOutSinceMs(d.outSinceMs());
      }
      b.addDirs(dir);
    }
    return b.build();
  }

  /**
   * {@code text} as the master accepts it: at most {@code max} characters, none a control
   * character (an error message may carry a newline).
   */
  private static String printable(String text, int max) {
    String one = text.replaceAll("\\p{Cntrl}", " ");
    return one.length() <= max ? one : one.substring(0, max - 3) + "...";
  }

  /**
   * Returns the SSD directories out of service, on a thread of its own: the cleanup reads and
   * deletes on the directories, which must not hold up the master link.
   */
  @Override
  public void returnVolumes() {
    if (store.volumes().stream().allMatch(VolumeHealth.DirState::inService)) {
      return;
    }
    Thread t = new Thread(() -> {
      List<String> back = store.returnVolumes();
      LOG.info("SSD directories back in service on the master's word: {}", back);
    }, "mpcache-volume-return");
    t.setDaemon(true);
    t.start();
  }

  /** Dynamic Pool units lent to a cache or returned to the pool since the slave started. */
  public long poolMoves() {
    synchronized (spaceLock) {
      return tuner.poolMoves();
    }
  }

  @Override
  public SlaveCountersProto counters() {
    return counters.snapshot().toBuilder().setSsdBytesWritten(store.bytesWritten())
        .setLocalizedBytesGranted(getLocalizedCache().bytesGranted())
        .setVolumeFailures(store.volumeFailures()).build();
  }

  @Override
  public DatasetCounters datasetCounters() {
    return counters.datasets();
  }

  @Override
  public List<CachedBlock> cachedBlocks() {
    return store.cachedBlockRecords();
  }

  @Override
  public void evict(List<BlockKey> blocks) {
    inputCache.evict(blocks);
  }

  @Override
  public void prefetch(List<PrefetchCommandProto> commands) {
    filler.submit(commands.stream().map(FillRequest::of).toList());
  }

  @Override
  public List<JobSpacePredictionProto> predictionsInUse() {
    List<JobSpacePredictionProto> out = new ArrayList<>();
    for (SpacePrediction p : localizedCache.predictionsInUse()) {
      out.add(JobSpacePredictionProto.newBuilder().setJobType(p.job().jobType())
          .setInputBytes(p.job().inputBytes()).setLocalizedBytes(p.localizedBytes())
          .setFromHistory(p.fromHistory()).build());
    }
    return out;
  }

  /** Hands the master's predictions to the Localized Cache; a malformed one is logged and skipped. */
  @Override
  public void predictions(List<JobSpacePredictionProto> answers) {
    for (JobSpacePredictionProto p : answers) {
      try {
        String type = RequestChecks.text("predictions.jobType", p.getJobTypeBytes(),
            RequestChecks.MAX_ID_CHARS);
        RequestChecks.unsignedFields("predictions", p);
        localizedCache.predictionArrived(new SpacePrediction(
            new LocalizedJob(type, p.getInputBytes()), p.getLocalizedBytes(), p.getFromHistory()));
      } catch (RequestRefusedException e) {
        LOG.warn("Ignored a malformed space prediction from the master: {}", e.getMessage());
      }
    }
  }

  public BlockFiller getFiller() {
    return filler;
  }

  /** What the slave fills from: its cluster's own HDFS; the refusals of any other. */
  public FillSourceGate getFillSources() {
    return fillSources;
  }

  /** The background verification of the blocks found on the SSD at start. */
  public StartupVerifier getStartupVerifier() {
    return startupVerifier;
  }

  /** The descriptor server; null when the slave does not pass descriptors. */
  public DescriptorServer getDescriptorServer() {
    return descriptorServer;
  }

  /** The block stream server; null when the slave does not stream. */
  public BlockStreamServer getStreamServer() {
    return streamServer;
  }

  public FileBlockStore getStore() {
    return store;
  }

  public SlaveCounters getCounters() {
    return counters;
  }

  public MasterLink getMasterLink() {
    return masterLink;
  }

  /** The Localized Cache: its grants and the node's SSD split. */
  public LocalizedCache getLocalizedCache() {
    return localizedCache;
  }

  /** Where the Localized Cache service listens: the NodeManager's {@code mpcache.localized.address}. */
  public InetSocketAddress getLocalizedAddress() throws IOException {
    return localizedService.getAddress();
  }

  /** Starts a slave from mpcache-site.xml on the classpath; runs until it is stopped. */
  public static void main(String[] args) {
    Daemons.run(new MpCacheSlave(), MpCacheSlave.class, args, LOG);
  }
}
