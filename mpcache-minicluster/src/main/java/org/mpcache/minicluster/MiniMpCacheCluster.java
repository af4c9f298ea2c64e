package org.mpcache.minicluster;

import static org.mpcache.minicluster.ClusterDefaults.setUnlessConfigured;

import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.util.Time;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveInfoProto;
import org.mpcache.common.protocolPB.SlaveFigures;
import org.mpcache.hdfs.ClientConfigKeys;
import org.mpcache.hdfs.MpCacheFileSystem;
import org.mpcache.master.MasterConfigKeys;
import org.mpcache.master.MpCacheMaster;
import org.mpcache.slave.MpCacheSlave;
import org.mpcache.slave.SlaveConfigKeys;
import org.mpcache.slave.localized.LocalizedConfigKeys;
import org.mpcache.slave.store.BlockStorage;
import org.mpcache.yarn.SsdMapOutputCollector;
import org.mpcache.yarn.SsdShuffle;

/**
 * A whole mpCache cluster in one JVM, for the demo, the evaluation and end-to-end tests: a
 * MiniDFSCluster, optionally a MiniMRYarnCluster, one master, and one slave beside each DataNode
 * (each slave declares its DataNode's transfer address, as on a real node). {@link #conf()} is a
 * client configuration whose {@code hdfs://} FileSystem reads through the cache.
 *
 * <p>Each slave's SSD directory ({@code <baseDir>/ssd-<i>}, emptied when the cluster is built, as
 * MiniDFSCluster formats its own: blocks an earlier cluster left there would name a NameNode that
 * is gone; a directory from {@link Builder#slaveCacheDir} is the caller's and kept) holds an
 * Input Cache that can reach {@link Builder#slaveCapacity} bytes (half its own space, half
 * Dynamic Pool units of the block size) and a Localized Cache of
 * {@link Builder#localizedCapacity} bytes. With YARN, NodeManager
 * {@code i} is paired with slave {@code i} as on a real node ({@link LocalizedNodeManagers}): the
 * slave's SSD directory is one of its local dirs and its {@code mpcache_localized} auxiliary service
 * releases the grants of finished containers and applications; {@link #conf()} then also sets the
 * map output collector and the shuffle that put localized data on the SSD when the slave grants
 * room.
 *
 * <p>Not thread-safe: one caller builds, uses and closes it.
 */
public final class MiniMpCacheCluster implements Closeable {
  /**
   * Task and application-master JVM options unless the builder sets them: short-lived JVMs on a
   * small machine spend much of their CPU in the optimizing compiler, which a test's tasks never
   * repay.
   */
  static final String TASK_JVM_OPTS = "-Xmx384m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC";

  /** How to build a {@link MiniMpCacheCluster}. */
  public static final class Builder {
    private final File baseDir;
    private int dataNodes = 2;
    private boolean yarn;
    private long slaveCapacity = 1L << 30;
    private long localizedCapacity = -1;
    private long blockSize = 8L << 20;
    private int replication = -1;
    private IntFunction<File> dataNodeDir;
    private IntFunction<File> slaveCacheDir;
    private IntFunction<File> nodeManagerLocalDir;
    private IntFunction<File> nodeManagerHddDir;
    private int nodeManagerMemoryMb;
    private String host = "127.0.0.1";
    private boolean nodeHosts;
    private BiFunction<Integer, BlockStorage, BlockStorage> slaveStorage;
    private int externalMasterPort = -1;
    private int[] externalClientPorts;
    private int[] externalLocalizedPorts;
    private final Configuration conf = new Configuration();

    public Builder(File baseDir) {
      this.baseDir = baseDir;
    }

    public Builder dataNodes(int n) {
      this.dataNodes = n;
      return this;
    }

    /** Also start YARN with one NodeManager per DataNode. */
    public Builder yarn(boolean on) {
      this.yarn = on;
      return this;
    }

    /**
     * The bytes each slave's Input Cache can reach: its own space and the Dynamic Pool, half each.
     */
    public Builder slaveCapacity(long bytes) {
      this.slaveCapacity = bytes;
      return this;
    }

    /** Each slave's Localized Cache capacity in bytes; by default eight blocks. */
    public Builder localizedCapacity(long bytes) {
      this.localizedCapacity = bytes;
      return this;
    }

    public Builder blockSize(long bytes) {
      this.blockSize = bytes;
      return this;
    }

    /** HDFS's replication; by default two, or one with a single DataNode. */
    public Builder replication(int replicas) {
      if (replicas < 1) {
        throw new IllegalArgumentException("replication " + replicas + " is below 1");
      }
      this.replication = replicas;
      return this;
    }

    /**
     * Adds a configuration file every daemon and client reads; the master reads it again on
     * {@code mpcache admin refresh}. Values set with {@link #set} take precedence.
     */
    public Builder addResource(File file) {
      conf.addResource(new Path(file.toURI()));
      return this;
    }

    /**
     * Where DataNode {@code i} keeps its blocks (one storage directory); by default under the
     * base directory, as MiniDFSCluster places it.
     */
    public Builder dataNodeDir(IntFunction<File> dir) {
      this.dataNodeDir = dir;
      return this;
    }

    /** Where slave {@code i} keeps its Input Cache; by default {@code <base>/ssd-<i>}. */
    public Builder slaveCacheDir(IntFunction<File> dir) {
      this.slaveCacheDir = dir;
      return this;
    }

    /**
     * The only local dir of NodeManager {@code i} (spills, map outputs, merges, container work
     * dirs), with the Localized Cache not wired in; by default the four dirs MiniMRYarnCluster
     * makes under {@code target/}, beside the slave's SSD dir, with it wired in.
     */
    public Builder nodeManagerLocalDir(IntFunction<File> dir) {
      this.nodeManagerLocalDir = dir;
      return this;
    }

    /**
     * Gives NodeManager {@code i} two local dirs, this HDD dir and slave {@code i}'s SSD dir, with
     * the Localized Cache wired in: localized data goes to the SSD dir while the slave grants room
     * and to the HDD dir otherwise, as on a real node with both. Excludes
     * {@link #nodeManagerLocalDir}.
     */
    public Builder nodeManagerHddDir(IntFunction<File> dir) {
      this.nodeManagerHddDir = dir;
      return this;
    }

    /** Each NodeManager's container memory ({@code yarn.nodemanager.resource.memory-mb}). */
    public Builder nodeManagerMemoryMb(int mb) {
      this.nodeManagerMemoryMb = mb;
      return this;
    }

    /**
     * The host name the master and the slaves listen on and advertise; {@code 127.0.0.1} by
     * default. A Kerberized cluster uses {@code localhost}, the host its service principals name
     * ({@code _HOST} in {@code mpcache.*.kerberos.principal} expands to it).
     */
    public Builder host(String name) {
      this.host = name;
      return this;
    }

    /**
     * Puts node {@code i}, its slave and its NodeManager, on a loopback address of its own,
     * {@code 127.0.0.<i+2>}, so that YARN and the slaves name the nodes apart ({@link #nodeHost}):
     * otherwise every NodeManager of a mini cluster is {@code localhost} and every slave the
     * builder's {@link #host}, and placement by host cannot be observed in one JVM. The master,
     * the DataNodes and the Localized Cache addresses stay on {@link #host}. Needs YARN with the
     * Localized Cache wired in (no {@link #nodeManagerLocalDir}) and daemons run by the cluster.
     */
    public Builder nodeHosts(boolean on) {
      this.nodeHosts = on;
      return this;
    }

    /**
     * Wraps the block storage of slave {@code i} (its Input Cache's file I/O) each time the slave
     * starts, e.g. in a decorator that injects the SSD's faults.
     */
    public Builder slaveStorage(BiFunction<Integer, BlockStorage, BlockStorage> wrap) {
      this.slaveStorage = wrap;
      return this;
    }

    /**
     * Leaves the master and the slaves to the caller, who runs them elsewhere (e.g. as processes
     * it can kill) from {@link #masterConf()} and {@link #slaveConf(int)}: the master on
     * {@code masterPort}, slave {@code i} serving clients on {@code clientPorts[i]} and its
     * NodeManager on {@code localizedPorts[i]}. Fixed ports let a restarted daemon keep its
     * address. The cluster starts HDFS and YARN and does not wait for the daemons;
     * {@link #master()} is then null and {@link #slaves()} empty.
     */
    public Builder externalDaemons(int masterPort, int[] clientPorts, int[] localizedPorts) {
      this.externalMasterPort = masterPort;
      this.externalClientPorts = clientPorts.clone();
      this.externalLocalizedPorts = localizedPorts.clone();
      return this;
    }

    /** Sets a configuration value for every daemon and client of the cluster. */
    public Builder set(String key, String value) {
      conf.set(key, value);
      return this;
    }

    public MiniMpCacheCluster build() throws IOException {
      if (nodeManagerLocalDir != null && nodeManagerHddDir != null) {
        throw new IllegalArgumentException("Set either nodeManagerLocalDir (one dir, no Localized "
            + "Cache) or nodeManagerHddDir (an HDD dir beside the slave's SSD dir), not both");
      }
      if (externalClientPorts != null && (externalClientPorts.length != dataNodes
          || externalLocalizedPorts.length != dataNodes)) {
        throw new IllegalArgumentException("externalDaemons needs one client port and one "
            + "localized port per DataNode (" + dataNodes + ")");
      }
      if (nodeHosts && (!yarn || nodeManagerLocalDir != null || externalClientPorts != null)) {
        throw new IllegalArgumentException("nodeHosts needs yarn, no nodeManagerLocalDir and no "
            + "externalDaemons");
      }
      MiniMpCacheCluster c = new MiniMpCacheCluster(this);
      try {
        c.start();
      } catch (IOException | RuntimeException e) {
        c.close();
        throw e;
      }
      return c;
    }
  }

  private final Builder spec;
  private final Configuration conf;
  private MiniDFSCluster dfs;
  private MiniMRYarnCluster mr;
  private MpCacheMaster master;
  private Configuration masterConf;
  private final List<MpCacheSlave> slaves = new ArrayList<>();
  private final List<Configuration> slaveConfs = new ArrayList<>();
  private final List<Integer> localizedPorts = new ArrayList<>();
  /** Each slave's client port as it last started (readable once the slave has stopped). */
  private final List<Integer> clientPorts = new ArrayList<>();
  private final Map<Integer, File> ssdDirs = new HashMap<>();
  /**
   * Where the slaves' domain sockets are: a private directory under /tmp, as a socket path must
   * stay under about 100 characters, which a test's target/ directory may not; made at first use.
   */
  private java.nio.file.Path socketDir;

  private MiniMpCacheCluster(Builder spec) {
    this.spec = spec;
    this.conf = new Configuration(spec.conf);
  }

  private void start() throws IOException {
    if (spec.slaveCacheDir == null) {
      for (int i = 0; i < spec.dataNodes; i++) {
        File ssd = ssdDir(i);
        if (ssd.exists() && !FileUtil.fullyDelete(ssd)) {
          throw new IOException("Cannot clear " + ssd + " of an earlier cluster's blocks");
        }
      }
    }
    conf.setLong(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, spec.blockSize);
    int replication = spec.replication > 0 ? spec.replication : Math.min(2, spec.dataNodes);
    conf.setInt(DFSConfigKeys.DFS_REPLICATION_KEY, replication);
    if (spec.dataNodeDir == null) {
      dfs = new MiniDFSCluster.Builder(conf, new File(spec.baseDir, "dfs"))
          .numDataNodes(spec.dataNodes).build();
    } else {
      dfs = new MiniDFSCluster.Builder(conf, new File(spec.baseDir, "dfs")).numDataNodes(0)
          .build();
      Configuration[] overlays = new Configuration[spec.dataNodes];
      for (int i = 0; i < spec.dataNodes; i++) {
        File dir = spec.dataNodeDir.apply(i);
        overlays[i] = new Configuration(false);
        overlays[i].set(DFSConfigKeys.DFS_DATANODE_DATA_DIR_KEY, dir.getAbsolutePath());
      }
      dfs.startDataNodes(conf, spec.dataNodes, null, false, null, null, null, null, null, false,
          false, false, overlays, null, null);
      // Built with no DataNodes, MiniDFSCluster lowered the replication to 0.
      conf.setInt(DFSConfigKeys.DFS_REPLICATION_KEY, replication);
      dfs.getConfiguration(0).setInt(DFSConfigKeys.DFS_REPLICATION_KEY, replication);
    }
    dfs.waitActive();
    conf.set(FileSystem.FS_DEFAULT_NAME_KEY, dfs.getURI().toString());

    boolean external = spec.externalClientPorts != null;
    masterConf = new Configuration(conf);
    // A port restartMaster can bind again: no other socket is given it while the master is down.
    masterConf.set(MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY,
        spec.host + ":" + (external ? spec.externalMasterPort : RebindablePorts.pick(spec.host)));
    setUnlessConfigured(masterConf, MasterConfigKeys.HTTP_ADDRESS_KEY, spec.host + ":0");
    setUnlessConfigured(masterConf, MasterConfigKeys.HEARTBEAT_INTERVAL_MS_KEY, "500");
    // No checkpoints unless the test asks for them: the default, under hadoop.tmp.dir, is shared
    // by every cluster on the machine, and a restart stands for a crash (restartMaster).
    setUnlessConfigured(masterConf, MasterConfigKeys.STATE_DIR_KEY,
        MasterConfigKeys.STATE_DIR_NONE);
    setUnlessConfigured(masterConf, MasterConfigKeys.SLAVE_EXPIRY_MS_KEY, "5000");
    if (external) {
      conf.set(MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY,
          masterConf.get(MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY));
      for (int i = 0; i < spec.dataNodes; i++) {
        localizedPorts.add(spec.externalLocalizedPorts[i]);
        slaveConfs.add(slaveConf(i, spec.externalClientPorts[i], localizedPorts.get(i)));
      }
    } else {
      startDaemons();
    }
    conf.setClass("fs.hdfs.impl", MpCacheFileSystem.class, FileSystem.class);
    // Unlike a deployment (docs/install.md keeps Hadoop's FileSystem cache on), each FileSystem
    // made from this conf is new: tests give a copy client settings of its own, which a cached
    // instance made from another copy would ignore, and close the FileSystems they get, which
    // would close a cached one under the other tests of the JVM.
    conf.setBoolean("fs.hdfs.impl.disable.cache", true);
    setUnlessConfigured(conf, ClientConfigKeys.SLAVES_REFRESH_MS_KEY, "1000");
    // Tests read small files: local hits take descriptors, the transport a long-lived reader
    // settles on, from the first hit. The evaluation sets the client's own default back.
    setUnlessConfigured(conf, ClientConfigKeys.DOMAIN_SOCKET_AFTER_BYTES_KEY, "0");
    if (spec.yarn) {
      startYarn();
    }
  }

  private void startDaemons() throws IOException {
    master = new MpCacheMaster();
    master.init(masterConf);
    master.start();
    conf.set(MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY,
        spec.host + ":" + master.getRpcAddress().getPort());

    for (int i = 0; i < spec.dataNodes; i++) {
      startSlave(i);
    }
    awaitSlaves();
  }

  /** Slave {@code i}'s SSD dir; the builder's function is called once per node. */
  private File ssdDir(int i) {
    return ssdDirs.computeIfAbsent(i, n -> spec.slaveCacheDir == null
        ? new File(spec.baseDir, "ssd-" + n) : spec.slaveCacheDir.apply(n));
  }

  private String hddDir(int i) throws IOException {
    if (spec.nodeManagerHddDir == null) {
      return null;
    }
    File dir = spec.nodeManagerHddDir.apply(i);
    if (!dir.isDirectory() && !dir.mkdirs()) {
      throw new IOException("Cannot create NodeManager HDD local dir " + dir);
    }
    return dir.getAbsolutePath();
  }

  private void startSlave(int i) throws IOException {
    startSlave(i, 0);
  }

  /**
   * Starts slave {@code i} serving clients on {@code port}, 0 for a new one outside the
   * ephemeral range ({@link RebindablePorts}: crashAndRestartSlave binds it again).
   */
  private void startSlave(int i, int port) throws IOException {
    // A restarted slave keeps its Localized Cache port: its NodeManager knows only that one.
    int localizedPort = i < slaves.size() ? localizedPorts.get(i)
        : RebindablePorts.pick(spec.host);
    if (port == 0) {
      port = RebindablePorts.pick(spec.nodeHosts ? nodeAddress(i) : spec.host);
    }
    Configuration sc = slaveConf(i, port, localizedPort);
    MpCacheSlave s = spec.slaveStorage == null ? new MpCacheSlave() : new MpCacheSlave() {
      @Override
      protected BlockStorage createBlockStorage(Configuration c) {
        return spec.slaveStorage.apply(i, super.createBlockStorage(c));
      }
    };
    s.init(sc);
    s.start();
    if (i >= slaves.size()) {
      localizedPorts.add(s.getLocalizedAddress().getPort());
      clientPorts.add(s.info().getClientPort());
    } else {
      clientPorts.set(i, s.info().getClientPort());
    }
    if (i < slaves.size()) {
      slaves.set(i, s);
      slaveConfs.set(i, sc);
    } else {
      slaves.add(s);
      slaveConfs.add(sc);
    }
  }

  /**
   * The configuration of slave {@code i}: beside DataNode {@code i}, on its SSD dir, serving
   * clients on {@code clientPort} and its NodeManager on {@code localizedPort} (0 for any).
   */
  private Configuration slaveConf(int i, int clientPort, int localizedPort) {
    DataNode dn = dfs.getDataNodes().get(i);
    Configuration sc = new Configuration(conf);
    sc.set(SlaveConfigKeys.RPC_ADDRESS_KEY,
        (spec.nodeHosts ? nodeAddress(i) : spec.host) + ":" + clientPort);
    sc.set(SlaveConfigKeys.HOSTNAME_KEY, nodeHost(i));
    // Block streams on any free port of the slave's address; a test may turn them off with "".
    setUnlessConfigured(sc, SlaveConfigKeys.STREAM_ADDRESS_KEY,
        (spec.nodeHosts ? nodeAddress(i) : spec.host) + ":0");
    sc.set(SlaveConfigKeys.DATANODE_ADDRESS_KEY, "127.0.0.1:" + dn.getXferAddress().getPort());
    sc.set(MpCacheConfigKeys.SLAVE_CACHE_DIRS_KEY, ssdDir(i).getAbsolutePath());
    long localized = spec.localizedCapacity >= 0 ? spec.localizedCapacity : 8 * spec.blockSize;
    long total = spec.slaveCapacity + localized;
    sc.setLong(SlaveConfigKeys.CACHE_CAPACITY_KEY, total);
    setUnlessConfigured(sc, LocalizedConfigKeys.SPACE_UNIT_KEY, Long.toString(spec.blockSize));
    setUnlessConfigured(sc, LocalizedConfigKeys.LOCALIZED_FRACTION_KEY,
        Double.toString((double) localized / total));
    setUnlessConfigured(sc, LocalizedConfigKeys.INPUT_FRACTION_KEY,
        Double.toString(spec.slaveCapacity / 2.0 / total));
    sc.set(LocalizedConfigKeys.LOCALIZED_BIND_ADDRESS_KEY, spec.host + ":" + localizedPort);
    // Local hits by descriptor passing, as an operator would set it up; a test's configuration
    // may turn it off with an empty path.
    if (sc.get(SlaveConfigKeys.DOMAIN_SOCKET_PATH_KEY) == null) {
      sc.set(SlaveConfigKeys.DOMAIN_SOCKET_PATH_KEY,
          socketDir().resolve("slave-" + i + ".socket").toString());
    }
    return sc;
  }

  private java.nio.file.Path socketDir() {
    if (socketDir == null) {
      try {
        // Created rwx------, as the slave requires of a socket's directory.
        socketDir = Files.createTempDirectory(Paths.get("/tmp"), "mpc-");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return socketDir;
  }

  private void startYarn() throws IOException {
    FileSystem fs = dfs.getFileSystem();
    Path staging = new Path("/apps_staging_dir");
    fs.mkdirs(staging);
    fs.setPermission(staging, new FsPermission((short) 0777));
    Path tmp = new Path("/tmp");
    fs.mkdirs(tmp);
    fs.setPermission(tmp, new FsPermission((short) 01777));
    Configuration yc;
    boolean localizedWired = spec.nodeManagerLocalDir == null;
    if (localizedWired) {
      List<LocalizedNodeManagers.Slot> slots = new ArrayList<>();
      for (int i = 0; i < localizedPorts.size(); i++) {
        slots.add(new LocalizedNodeManagers.Slot(ssdDir(i).getAbsolutePath(),
            spec.host + ":" + localizedPorts.get(i), hddDir(i),
            spec.nodeHosts ? nodeAddress(i) : null));
      }
      yc = LocalizedNodeManagers.configure(conf, slots);
    } else {
      yc = new NodeDirs.PinnedConf(conf);
      yc.set(YarnConfiguration.NM_CONTAINER_EXECUTOR, NodeDirs.Executor.class.getName());
      for (int i = 0; i < spec.dataNodes; i++) {
        File dir = spec.nodeManagerLocalDir.apply(i);
        if (!dir.isDirectory() && !dir.mkdirs()) {
          throw new IOException("Cannot create NodeManager local dir " + dir);
        }
        yc.set(NodeDirs.localDirKey(i), dir.getAbsolutePath());
      }
    }
    // A YarnConfiguration makes the ResourceManager keep node attributes on the default file
    // system (here HDFS, where its replication 0 is refused): keep them on the local disk.
    yc.set(YarnConfiguration.FS_NODE_ATTRIBUTE_STORE_ROOT_DIR,
        new File(spec.baseDir, "node-attributes").toURI().toString());
    if (spec.nodeManagerMemoryMb > 0) {
      yc.setInt(YarnConfiguration.NM_PMEM_MB, spec.nodeManagerMemoryMb);
    }
    yc.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
    yc.set(MRJobConfig.MR_AM_STAGING_DIR, staging.toString());
    yc.setInt(YarnConfiguration.NM_LOG_RETAIN_SECONDS, 1);
    yc.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 256);
    yc.setInt(MRJobConfig.MAP_MEMORY_MB, 512);
    setUnlessConfigured(yc, MRJobConfig.MAP_JAVA_OPTS, TASK_JVM_OPTS);
    yc.setInt(MRJobConfig.REDUCE_MEMORY_MB, 512);
    setUnlessConfigured(yc, MRJobConfig.REDUCE_JAVA_OPTS, TASK_JVM_OPTS);
    yc.setInt(MRJobConfig.MR_AM_VMEM_MB, 512);
    setUnlessConfigured(yc, MRJobConfig.MR_AM_COMMAND_OPTS, TASK_JVM_OPTS);
    // Heartbeats and the client's poll at their defaults (1 s, 1 s, 5 s) add idle seconds to
    // every job.
    setUnlessConfigured(yc, YarnConfiguration.RM_NM_HEARTBEAT_INTERVAL_MS, "250");
    setUnlessConfigured(yc, MRJobConfig.MR_AM_TO_RM_HEARTBEAT_INTERVAL_MS, "250");
    setUnlessConfigured(yc, Job.COMPLETION_POLL_INTERVAL_KEY, "200");
    // On a small, loaded machine a slow task gets a speculative twin, and a test counting task
    // attempts (or the figures of a run) would count it.
    setUnlessConfigured(yc, MRJobConfig.MAP_SPECULATIVE, "false");
    setUnlessConfigured(yc, MRJobConfig.REDUCE_SPECULATIVE, "false");
    mr = new MiniMRYarnCluster("mpcache", spec.dataNodes);
    mr.init(yc);
    mr.start();
    conf.addResource(mr.getConfig());
    for (String k : new String[] {YarnConfiguration.RM_ADDRESS,
        YarnConfiguration.RM_SCHEDULER_ADDRESS, "mapreduce.framework.name",
        MRJobConfig.MR_AM_STAGING_DIR, "mapreduce.jobhistory.address",
        YarnConfiguration.RM_WEBAPP_ADDRESS, MRJobConfig.MAP_MEMORY_MB,
        MRJobConfig.MAP_JAVA_OPTS, MRJobConfig.REDUCE_MEMORY_MB, MRJobConfig.REDUCE_JAVA_OPTS,
        MRJobConfig.MR_AM_VMEM_MB, MRJobConfig.MR_AM_COMMAND_OPTS,
        MRJobConfig.MR_AM_TO_RM_HEARTBEAT_INTERVAL_MS, Job.COMPLETION_POLL_INTERVAL_KEY,
        MRJobConfig.MAP_SPECULATIVE, MRJobConfig.REDUCE_SPECULATIVE}) {
      String v = mr.getConfig().get(k);
      if (v != null) {
        conf.set(k, v);
      }
    }
    if (localizedWired) {
      conf.set(MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR,
          SsdMapOutputCollector.class.getName());
      conf.set(MRConfig.SHUFFLE_CONSUMER_PLUGIN, SsdShuffle.class.getName());
    }
  }

  /** Node {@code i}'s own loopback address, with {@link Builder#nodeHosts}. */
  private static String nodeAddress(int i) {
    if (i > 250) {
      throw new IllegalArgumentException("nodeHosts supports up to 251 nodes");
    }
    return "127.0.0." + (i + 2);
  }

  /**
   * The host name slave {@code i} advertises, which with {@link Builder#nodeHosts} is also the
   * name YARN gives NodeManager {@code i} (the canonical name of its address, as the
   * NodeManager derives its id); the builder's {@link Builder#host} otherwise.
   */
  public String nodeHost(int i) {
    if (!spec.nodeHosts) {
      return spec.host;
    }
    try {
      return InetAddress.getByName(nodeAddress(i)).getCanonicalHostName();
    } catch (UnknownHostException e) {
      throw new IllegalStateException("An IP literal always resolves: " + nodeAddress(i), e);
    }
  }

  /** The SSD directory of slave {@code i}, which is also NodeManager {@code i}'s local dir. */
  public File slaveSsdDir(int i) {
    return ssdDir(i).getAbsoluteFile();
  }

  /**
   * The master's configuration (with {@link Builder#externalDaemons}: the one to start it with).
   */
  public Configuration masterConf() {
    return new Configuration(masterConf);
  }

  /**
   * Slave {@code i}'s configuration as it last started (with {@link Builder#externalDaemons}: the
   * one to start it with).
   */
  public Configuration slaveConf(int i) {
    return new Configuration(slaveConfs.get(i));
  }

  /** The MiniMRYarnCluster, or {@code null} when YARN was not started. */
  public MiniMRYarnCluster yarn() {
    return mr;
  }

  /** A client configuration: HDFS through mpCache, and YARN when it was started. */
  public Configuration conf() {
    return new Configuration(conf);
  }

  /**
   * A client configuration for plain Hadoop on the same cluster, the baseline to compare with:
   * reads bypass the cache and jobs keep their localized data on the NodeManagers' dirs as Hadoop
   * places it.
   */
  public Configuration plainHadoopConf() {
    Configuration c = conf();
    c.setBoolean(ClientConfigKeys.ENABLED_KEY, false);
    c.unset(MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR);
    c.unset(MRConfig.SHUFFLE_CONSUMER_PLUGIN);
    return c;
  }

  /** A FileSystem reading through the cache. */
  public FileSystem fileSystem() throws IOException {
    return FileSystem.get(dfs.getURI(), conf());
  }

  /** A plain HDFS FileSystem, bypassing the cache. */
  public FileSystem plainFileSystem() throws IOException {
    return dfs.getFileSystem();
  }

  public MpCacheMaster master() {
    return master;
  }

  public List<MpCacheSlave> slaves() {
    return slaves;
  }

  public MiniDFSCluster dfs() {
    return dfs;
  }

  /** Stops slave {@code i}, as a crash would (its files stay on its SSD directory). */
  public void stopSlave(int i) {
    // As a crash: the master is not told, clients find the slave unreachable until it expires.
    slaves.get(i).getMasterLink().setUnregisterOnStop(false);
    slaves.get(i).stop();
  }

  /**
   * Starts slave {@code i} again on its old directory (on a new port), and waits until the master
   * lists exactly the running slaves (the old registration expired, the new one arrived).
   */
  public void restartSlave(int i) throws IOException {
    slaves.get(i).stop();
    startSlave(i);
    awaitSlaves();
  }

  /**
   * Stops the master and starts a new one on the same RPC port, and waits until every running
   * slave has registered with it again. Without {@code mpcache.master.state.dir} (the cluster sets
   * none unless its configuration does) the master keeps
   * nothing of its own across the restart, so its stop stands for a crash: what it knew comes back
   * from the slaves' registrations. With it, the stop writes a last checkpoint, as a graceful stop
   * does, and the new master restores it.
   */
  public void restartMaster() throws IOException {
    restartMaster(c -> { }, () -> { });
  }

  /**
   * As {@link #restartMaster()}, with {@code change} applied to the new master's configuration
   * (this restart only; the next one starts from the cluster's configuration again).
   */
  public void restartMaster(Consumer<Configuration> change) throws IOException {
    restartMaster(change, () -> { });
  }

  /**
   * As {@link #restartMaster()}, running {@code whileDown} (e.g. changing files in HDFS) after the
   * master stopped and before the new one starts.
   */
  public void restartMaster(WhileDown whileDown) throws IOException {
    restartMaster(c -> { }, whileDown);
  }

  private void restartMaster(Consumer<Configuration> change, WhileDown whileDown)
      throws IOException {
    int port = master.getRpcAddress().getPort();
    master.stop();
    whileDown.run();
    Configuration mc = new Configuration(masterConf);
    change.accept(mc);
    mc.set(MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY, spec.host + ":" + port);
    master = new MpCacheMaster();
    master.init(mc);
    master.start();
    awaitSlaves();
  }

  /**
   * Stops slave {@code i} as a crash would (the master is not told; a no-op when it is already
   * stopped) and starts it again on its old directory and client port, so under the same slave id, as a real slave restarts; waits until
   * the master lists it again.
   */
  public void crashAndRestartSlave(int i) throws IOException {
    int port = clientPorts.get(i);
    stopSlave(i);
    startSlave(i, port);
    awaitSlaves();
  }

  /** What a test does while a daemon is down. */
  @FunctionalInterface
  public interface WhileDown {
    void run() throws IOException;
  }

  /** Waits until the master's live slaves are exactly the running ones. */
  public void awaitSlaves() throws IOException {
    Set<String> running = new TreeSet<>();
    for (MpCacheSlave s : slaves) {
      if (s.isInState(Service.STATE.STARTED)) {
        running.add(s.info().getSlaveId());
      }
    }
    long deadline = Time.monotonicNow() + 60_000;
    while (true) {
      Set<String> listed = new TreeSet<>();
      for (SlaveInfoProto s : master.getSlaveRegistry().liveSlaves()) {
        listed.add(s.getSlaveId());
      }
      if (listed.equals(running)) {
        return;
      }
      if (Time.monotonicNow() > deadline) {
        throw new IOException("The master lists slaves " + listed + ", expected " + running);
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted waiting for slaves");
      }
    }
  }

  /** The sum of every slave's counters. */
  public SlaveCountersProto totals() {
    SlaveCountersProto.Builder t = SlaveFigures.zeroCounters();
    for (MpCacheSlave s : slaves) {
      SlaveFigures.add(t, s.getCounters().snapshot());
    }
    return t.build();
  }

  /** Localized bytes the slaves' Localized Caches granted on the SSD since they started. */
  public long localizedBytesGranted() {
    return slaves.stream().mapToLong(s -> s.getLocalizedCache().bytesGranted()).sum();
  }

  /** Localized bytes the slaves' Localized Caches denied (sent to the HDDs) since they started. */
  public long localizedBytesDenied() {
    return slaves.stream().mapToLong(s -> s.getLocalizedCache().bytesDenied()).sum();
  }

  @Override
  public void close() {
    if (mr != null) {
      mr.stop();
    }
    for (MpCacheSlave s : slaves) {
      s.stop();
    }
    if (master != null) {
      master.stop();
    }
    if (dfs != null) {
      dfs.shutdown();
    }
    if (socketDir != null) {
      // The slaves deleted their sockets when they stopped; external ones may have left theirs.
      FileUtil.fullyDelete(socketDir.toFile());
    }
  }
}
