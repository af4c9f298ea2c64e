package org.mpcache.benchmarks.eval;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.FileSystemCounter;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.util.Time;
import org.mpcache.minicluster.MiniMpCacheCluster;
import org.mpcache.benchmarks.datagen.DataGenerators;
import org.mpcache.benchmarks.datagen.SeededRandom;
import org.mpcache.benchmarks.puma.PumaBenchmarks;
import org.mpcache.benchmarks.puma.PumaConfigKeys;
import org.mpcache.benchmarks.puma.PumaRun;
import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;
import org.mpcache.hdfs.ClientConfigKeys;
import org.mpcache.master.MasterConfigKeys;
import org.mpcache.master.arbitrator.CachePolicies;

/**
 * Runs a job mix on a fresh embedded cluster ({@link MiniMpCacheCluster}) per mode and
 * repetition, placing each node's HDFS blocks, input cache and NodeManager local dirs on the tiers
 * of a {@link TierLayout} and choosing the master's policy as {@link EvalMode} says, and measures
 * every job. Before a mode's first job, the datasets of the
 * mix are generated once per (input kind, size class) through plain HDFS, so the cache starts cold
 * and later jobs over the same dataset can hit it. An untimed warm-up job runs before the first
 * timed job of the harness. The page cache is dropped before every job where the machine allows it.
 *
 * <p>Not thread-safe: one caller runs one harness at a time (the machine holds one cluster).
 */
public final class EvalHarness {
  private static final String MPCACHE_POLICY = CachePolicies.MPCACHE;
  /**
   * How often the client asks whether a job has finished, in ms. Hadoop's 5 s default
   * ({@code mapreduce.client.completion.pollinterval}) would round every job time up to the next
   * poll: two modes' times for one job would differ by multiples of 5 s.
   */
  static final int COMPLETION_POLL_MS = 100;
  /** The warm-up job's input: enough to load and compile the job path, little to read. */
  private static final long WARM_UP_BYTES = 1L << 20;
  /** Task JVM options: a heap within the 512 MB containers and the JVM's default compilers. */
  private static final String TASK_HEAP = "-Xmx384m";

  /**
   * The cluster and job settings shared by every mode.
   *
   * @param nodes DataNodes, NodeManagers and slaves
   * @param blockBytes HDFS block size
   * @param localizedBytes mpCache's Localized Cache per node (the Dynamic Pool lends more)
   * @param nodeManagerMemoryMb container memory per NodeManager before the memory cache takes its
   *     share
   * @param pacmanPolicy the PACMan-like mode's eviction policy ({@code lfu-f} or {@code life})
   * @param reduces reduce tasks per job
   * @param kmeansIterations the most iterations k-means runs
   * @param seed seeds the datasets
   * @param timed whether the runs are measured: every run starts with the untimed warm-up job and
   *     tasks run with the JIT production tasks run with; tests that time nothing turn it off and
   *     get the embedded cluster's quick-starting task JVMs
   */
  public record Settings(int nodes, long blockBytes, long localizedBytes,
      int nodeManagerMemoryMb, String pacmanPolicy, int reduces, int kmeansIterations, long seed,
      boolean timed) {

    /** Checks the settings. */
    public Settings {
      if (nodes < 1 || blockBytes < 1 || localizedBytes < 1 || reduces < 1
          || kmeansIterations < 1) {
        throw new IllegalArgumentException("nodes, block size, Localized Cache size, reduces and "
            + "k-means iterations must all be positive");
      }
    }
  }

  /**
   * One run of a comparison: a mode and, for a caching mode, its cache size per node.
   *
   * @param mode the mode
   * @param cacheBytesPerNode the input cache size per node (ignored by modes without one)
   */
  public record Run(EvalMode mode, long cacheBytesPerNode) {
  }

  /** Hears about the harness's progress; called on the harness's thread. */
  public interface Listener {
    /**
     * Repetition {@code repetition} of a run of {@code jobs} jobs begins (cluster start and data
     * generation follow).
     */
    void runStarted(String run, int repetition, int jobs);

    /** A job is submitted. */
    void jobStarted(String run, MixJob job);

    /** A job completed (or failed: {@link JobResult#success()}). */
    void jobFinished(JobResult result);

    /** Something the reader of the results should know. */
    void notice(String message);
  }

  private final Settings settings;
  private final TierLayout tiers;
  private final File workDir;
  private final Listener listener;
  /** Whether this harness's JVM has run the warm-up job (once, before the first timed job). */
  private boolean warmedUp;

  /**
   * @param workDir holds each run's NameNode and test files
   */
  public EvalHarness(Settings settings, TierLayout tiers, File workDir, Listener listener) {
    this.settings = settings;
    this.tiers = tiers;
    this.workDir = workDir.getAbsoluteFile();
    this.listener = listener;
  }

  /**
   * The policy the PACMan-like mode will use: the one asked for if this build's master knows it,
   * else {@code mpcache} with a notice (so the mode still measures an in-memory cache that takes
   * container memory).
   */
  public String effectivePacmanPolicy() {
    if (CachePolicies.names().contains(settings.pacmanPolicy())) {
      return settings.pacmanPolicy();
    }
    return MPCACHE_POLICY;
  }

  /**
   * Runs {@code mix} {@code repeat} times in each of {@code runs}, interleaved: repetition 1 of
   * every run, then repetition 2 of every run, and so on, so that a drift of the machine's speed
   * over the comparison hits every run alike rather than the runs that came last.
   *
   * @return one result per job, run and repetition, in the order they ran
   */
  public List<JobResult> runAll(List<Run> runs, List<MixJob> mix, int repeat)
      throws IOException, InterruptedException {
    if (repeat < 1) {
      throw new IllegalArgumentException("repeat must be at least 1, got " + repeat);
    }
    List<JobResult> results = new ArrayList<>();
    for (int rep = 1; rep <= repeat; rep++) {
      for (Run r : runs) {
        results.addAll(run(r.mode(), r.cacheBytesPerNode(), mix, rep));
      }
    }
    return results;
  }

  /**
   * Runs {@code mix} in {@code mode} once, on a fresh cluster with a cold cache.
   *
   * @param cacheBytesPerNode the input cache size per node for a caching mode (ignored by the
   *     others)
   * @param repetition the repetition this run is, from 1, recorded in the results
   * @return one result per job, in mix order
   */
  public List<JobResult> run(EvalMode mode, long cacheBytesPerNode, List<MixJob> mix,
      int repetition) throws IOException, InterruptedException {
    long cacheMb = mode.caches() ? cacheBytesPerNode >> 20 : 0;
    String run = JobResult.runName(mode.cliName(), cacheMb);
    listener.runStarted(run, repetition, mix.size());
    if (mode == EvalMode.PACMAN && !effectivePacmanPolicy().equals(settings.pacmanPolicy())) {
      listener.notice("policy " + settings.pacmanPolicy() + " is not in this build (known: "
          + CachePolicies.names() + "); the pacman mode evicts with " + MPCACHE_POLICY);
    }
    int containerMb = mode == EvalMode.PACMAN
        ? settings.nodeManagerMemoryMb() - (int) cacheMb : settings.nodeManagerMemoryMb();
    if (containerMb < 1024) {
      throw new IllegalArgumentException("A " + cacheMb + " MB memory cache leaves " + containerMb
          + " MB of the NodeManager's " + settings.nodeManagerMemoryMb() + " MB for containers; "
          + "at least 1024 MB are needed: shrink the memory cache or raise the NodeManager memory");
    }
    File base = new File(workDir, run);
    FileUtil.fullyDelete(base);
    List<File> tierDirs = new ArrayList<>();
    MiniMpCacheCluster.Builder b = new MiniMpCacheCluster.Builder(base)
        .dataNodes(settings.nodes()).yarn(true).blockSize(settings.blockBytes())
        // One replica per block, the DataNodes' HDDs holding equal shares (TurnTakingPlacement).
        .replication(1)
        .set(DFSConfigKeys.DFS_BLOCK_REPLICATOR_CLASSNAME_KEY,
            TurnTakingPlacement.class.getName())
        .slaveCapacity(mode.caches() || mode.ssdSlave() ? cacheBytesPerNode
            : settings.blockBytes())
        .dataNodeDir(tierDir(mode.dataOnSsd() ? Tier.SSD : Tier.HDD, run + "/dn", tierDirs))
        .slaveCacheDir(tierDir(mode.cacheInMemory() ? Tier.MEMORY : Tier.SSD,
            run + "/cache", tierDirs))
        .nodeManagerMemoryMb(containerMb)
        .set(ClientConfigKeys.ENABLED_KEY, Boolean.toString(mode.caches()))
        // The client as shipped: the embedded cluster's tests start descriptors at once.
        .set(ClientConfigKeys.DOMAIN_SOCKET_AFTER_BYTES_KEY,
            Long.toString(ClientConfigKeys.DOMAIN_SOCKET_AFTER_BYTES_DEFAULT))
        .set(MasterConfigKeys.POLICY_KEY,
            mode == EvalMode.PACMAN ? effectivePacmanPolicy() : mode.policy());
    if (settings.timed()) {
      // The cluster's short heartbeats stay (at Hadoop's defaults they would hide the tiers'
      // differences), but tasks run with the JIT that production tasks run with.
      b.set(MRJobConfig.MAP_JAVA_OPTS, TASK_HEAP)
          .set(MRJobConfig.REDUCE_JAVA_OPTS, TASK_HEAP)
          .set(MRJobConfig.MR_AM_COMMAND_OPTS, TASK_HEAP);
    }
    if (mode.localizedCache()) {
      b.nodeManagerHddDir(tierDir(Tier.HDD, run + "/nm-local", tierDirs))
          .localizedCapacity(settings.localizedBytes());
    } else {
      b.nodeManagerLocalDir(tierDir(mode.localOnSsd() ? Tier.SSD : Tier.HDD, run + "/nm-local",
          tierDirs));
    }
    Configuration tierConf = new Configuration(false);
    tiers.configure(tierConf);
    for (Map.Entry<String, String> e : tierConf) {
      b.set(e.getKey(), e.getValue());
    }
    List<JobResult> results = new ArrayList<>();
    try (MiniMpCacheCluster cluster = b.build()) {
      // Interrupted (Ctrl-C), the JVM would leave the task JVMs running and holding files on the
      // tiers' devices; stopping the cluster stops them.
      Thread hook = new Thread(cluster::close, "eval-cluster-stop");
      Runtime.getRuntime().addShutdownHook(hook);
      try {
        generateInputs(cluster.plainFileSystem(), mix);
        if (settings.timed() && !warmedUp) {
          warmUp(cluster, run);
          warmedUp = true;
        }
        for (MixJob job : mix) {
          listener.jobStarted(run, job);
          JobResult r = runJob(cluster, mode, cacheMb, run, repetition, job);
          results.add(r);
          listener.jobFinished(r);
        }
      } finally {
        removeHook(hook);
      }
    } finally {
      FileUtil.fullyDelete(base);
      for (File d : tierDirs) {
        FileUtil.fullyDelete(d);
      }
    }
    return results;
  }

  private static void removeHook(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // Already shutting down: the hook runs.
    }
  }

  private enum Tier { HDD, SSD, MEMORY }

  private IntFunction<File> tierDir(Tier tier, String sub, List<File> created) {
    return i -> {
      try {
        File root = switch (tier) {
          case HDD -> tiers.hddDir(i);
          case SSD -> tiers.ssdDir(i);
          case MEMORY -> tiers.memoryDir(i);
        };
        File dir = new File(root, sub);
        FileUtil.fullyDelete(dir);
        created.add(dir);
        return PlainTiers.mkdirs(dir);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    };
  }

  /**
   * Runs one small untimed word-count over a dataset of its own, before the harness's first timed
   * job, so that the first run meets a JVM (the embedded cluster's daemons all run in this one)
   * that has loaded and compiled the job path, as every later run does; without it, the first
   * mode run pays that alone. It reads through the cache like any job, but nothing of the mix
   * reads its blocks.
   */
  private void warmUp(MiniMpCacheCluster cluster, String run)
      throws IOException, InterruptedException {
    Path input = new Path("/eval/warmup/input");
    Path output = new Path("/eval/warmup/output");
    tiers.load(() -> {
      DataGenerators.generate("word-count", cluster.plainFileSystem(), input, WARM_UP_BYTES,
          settings.seed());
      return null;
    });
    Configuration conf = cluster.conf();
    conf.setInt(MRJobConfig.NUM_REDUCES, settings.reduces());
    PumaRun r = PumaBenchmarks.byName("word-count").run(conf, input, output);
    if (!r.success()) {
      listener.notice("the warm-up job failed in " + run);
    }
    cluster.plainFileSystem().delete(new Path("/eval/warmup"), true);
  }

  /** Writes each distinct dataset of the mix once, with the tiers' limits lifted (untimed). */
  private void generateInputs(FileSystem fs, List<MixJob> mix) throws IOException {
    Map<String, MixJob> datasets = new LinkedHashMap<>();
    for (MixJob j : mix) {
      datasets.putIfAbsent(j.dataset(), j);
    }
    tiers.load(() -> {
      for (MixJob j : datasets.values()) {
        long seed = SeededRandom.mix(settings.seed() * 31 + j.dataset().hashCode());
        DataGenerators.generate(j.kind(), fs, dataPath(j), j.bytes(), seed);
      }
      return null;
    });
  }

  private static Path dataPath(MixJob j) {
    return new Path("/eval/data/" + j.dataset());
  }

  private JobResult runJob(MiniMpCacheCluster cluster, EvalMode mode, long cacheMb, String run,
      int repetition, MixJob job) throws IOException, InterruptedException {
    Configuration conf = jobConf(cluster.conf());
    conf.setInt(MRJobConfig.NUM_REDUCES, settings.reduces());
    conf.setInt(PumaConfigKeys.KMEANS_MAX_ITERATIONS_KEY, settings.kmeansIterations());
    Path output = new Path("/eval/out/" + run + "/job-" + job.index() + "-"
        + job.benchmark().name());
    if (!tiers.dropCaches() && job.index() == 0) {
      listener.notice("the page cache could not be dropped on this machine: repeated reads may "
          + "come from memory whatever the tier");
    }
    SlaveCountersProto before = cluster.totals();
    long grantedBefore = cluster.localizedBytesGranted();
    long deniedBefore = cluster.localizedBytesDenied();
    long start = Time.monotonicNow();
    long daemonCpuStart = processCpuNanos();
    PumaRun r;
    try {
      r = job.benchmark().run(conf, dataPath(job), output);
    } catch (IOException e) {
      listener.notice("job " + job.index() + " (" + job.benchmark().name() + ") failed in "
          + run + ": " + e.getMessage());
      r = new PumaRun(false, List.of(), new Counters());
    }
    double seconds = (Time.monotonicNow() - start) / 1000.0;
    double daemonCpuSeconds = (processCpuNanos() - daemonCpuStart) / 1e9;
    for (Job j : r.jobs()) {
      if (!j.isSuccessful()) {
        listener.notice("job " + job.index() + " (" + job.benchmark().name() + ") failed in "
            + run + ": " + j.getStatus().getFailureInfo());
      }
    }
    SlaveCountersProto after = cluster.totals();
    double[] phases = phaseSeconds(r.jobs());
    double jobSeconds = 0;
    for (Job j : r.jobs()) {
      jobSeconds += statusSeconds(j.getStartTime(), j.getFinishTime());
    }
    Counters c = r.counters();
    long hdfsRead = c.findCounter("hdfs", FileSystemCounter.BYTES_READ).getValue();
    long local = c.findCounter("file", FileSystemCounter.BYTES_READ).getValue()
        + c.findCounter("file", FileSystemCounter.BYTES_WRITTEN).getValue();
    cluster.plainFileSystem().delete(output, true);
    return new JobResult(mode.cliName(), cacheMb, repetition, job.index(), job.benchmark().name(), job.k(),
        job.dataset(), job.bytes(), r.success(), seconds, jobSeconds, phases[0], phases[1],
        mapCpuSeconds(r.jobs()), daemonCpuSeconds,
        c.findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue(),
        c.findCounter(JobCounter.DATA_LOCAL_MAPS).getValue(), hdfsRead,
        after.getBytesFromCache() - before.getBytesFromCache(),
        after.getBytesFromHdfs() - before.getBytesFromHdfs(),
        mode.dataOnSsd() ? "ssd" : "hdd",
        mode.cacheTier(),
        local, mode.localTier(),
        cluster.localizedBytesGranted() - grantedBefore,
        cluster.localizedBytesDenied() - deniedBefore,
        after.getHits() - before.getHits(), after.getMisses() - before.getMisses());
  }

  /**
   * The configuration a timed job runs with: {@code base} with the client polling for completion
   * every {@link #COMPLETION_POLL_MS}, so that the submit-to-finish time resolves a tenth of a
   * second.
   */
  static Configuration jobConf(Configuration base) {
    Configuration conf = new Configuration(base);
    conf.setInt(Job.COMPLETION_POLL_INTERVAL_KEY, COMPLETION_POLL_MS);
    return conf;
  }

  /**
   * A job's run time by its own clock (the application master's start and finish times, as the
   * job's status reports them), in seconds; 0 when either is unknown.
   */
  static double statusSeconds(long startMs, long finishMs) {
    return startMs <= 0 || finishMs < startMs ? 0 : (finishMs - startMs) / 1000.0;
  }

  /** The CPU time of this process (every daemon of the embedded cluster), in nanoseconds. */
  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean)
        ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  /** The map tasks' {@code CPU_MILLISECONDS} counters, summed over {@code jobs}, in seconds. */
  static double mapCpuSeconds(List<Job> jobs) throws IOException, InterruptedException {
    long ms = 0;
    for (Job j : jobs) {
      for (TaskReport t : j.getTaskReports(TaskType.MAP)) {
        ms += t.getTaskCounters().findCounter(TaskCounter.CPU_MILLISECONDS).getValue();
      }
    }
    return ms / 1000.0;
  }

  /**
   * The Map phase (first map start to last map end) and the Reduce phase (last map end to last
   * reduce end) of each job, summed, in seconds.
   */
  static double[] phaseSeconds(List<Job> jobs) throws IOException, InterruptedException {
    double map = 0;
    double reduce = 0;
    for (Job j : jobs) {
      long mapStart = Long.MAX_VALUE;
      long mapEnd = 0;
      for (TaskReport t : j.getTaskReports(TaskType.MAP)) {
        mapStart = Math.min(mapStart, t.getStartTime());
        mapEnd = Math.max(mapEnd, t.getFinishTime());
      }
      if (mapEnd == 0) {
        continue;
      }
      map += (mapEnd - mapStart) / 1000.0;
      long reduceEnd = 0;
      for (TaskReport t : j.getTaskReports(TaskType.REDUCE)) {
        reduceEnd = Math.max(reduceEnd, t.getFinishTime());
      }
      reduce += Math.max(0, reduceEnd - mapEnd) / 1000.0;
    }
    return new double[] {map, reduce};
  }
}
