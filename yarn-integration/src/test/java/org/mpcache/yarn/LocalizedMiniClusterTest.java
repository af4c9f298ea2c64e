package org.mpcache.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.commons.io.FileUtils;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.KeyValueTextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.mpcache.common.protocolPB.LocalizedGrant;
import org.mpcache.common.protocolPB.LocalizedProtocol;
import org.mpcache.slave.localized.LocalizedCache;
import org.mpcache.slave.localized.LocalizedCacheService;
import org.mpcache.slave.localized.LocalizedConfigKeys;
import org.mpcache.slave.space.DynamicSpaceTuner;
import org.mpcache.slave.space.InputExcluder;
import org.mpcache.slave.space.SpaceSnapshot;
import org.mpcache.slave.space.SsdVolume;

/**
 * End to end on a MiniMRYarnCluster whose NodeManager has an extra local dir playing the SSD, with
 * the slave's Localized Cache service running in the test JVM: a shuffle-heavy sort whose map
 * outputs and reduce-side merges land on the SSD while granted, the same sort with the SSD full and
 * with the slave down, all with output identical to plain Hadoop's.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(600)
class LocalizedMiniClusterTest {
  private static final long MB = 1024 * 1024;
  private static final int MAPS = 5;
  private static final File ROOT = new File("target/localized-it").getAbsoluteFile();
  private static final File SSD = new File(ROOT, "ssd");
  private static final File INPUT = new File(ROOT, "input");

  private static DynamicSpaceTuner tuner;
  private static LocalizedCache cache;
  private static RecordingSlave slave;
  private static LocalizedCacheService service;
  private static MiniMRYarnCluster cluster;
  private static String plainOutput;

  @BeforeAll
  static void startCluster() throws Exception {
    FileUtils.deleteQuietly(ROOT);
    assertTrue(SSD.mkdirs() && INPUT.mkdirs());
    writeInput();

    // 64 MB of SSD in 1 MB units; a 3.2 MB Localized Cache, so the sort borrows pool units.
    tuner = new DynamicSpaceTuner(List.of(SsdVolume.split(SSD.getPath(), 64 * MB, MB, 0.4, 0.05)),
        DynamicSpaceTuner.DEFAULT_GUARD);
    cache = new LocalizedCache(tuner, new Object(), InputExcluder.NEVER, blocks -> { });
    slave = new RecordingSlave(cache);
    Configuration slaveConf = new Configuration(false);
    slaveConf.set(LocalizedConfigKeys.LOCALIZED_BIND_ADDRESS_KEY, "127.0.0.1:0");
    service = new LocalizedCacheService(slave);
    service.init(slaveConf);
    service.start();

    YarnConfiguration conf = new SsdLocalDirsFixture.PinnedConf();
    conf.set("yarn.nodemanager.aux-services." + YarnIntegrationConfigKeys.AUX_SERVICE_NAME
        + ".class", LocalizedAuxService.class.getName());
    conf.set(YarnIntegrationConfigKeys.LOCALIZED_ADDRESS_KEY,
        "127.0.0.1:" + service.getAddress().getPort());
    conf.set(YarnIntegrationConfigKeys.SSD_DIRS_KEY, SSD.getPath());
    conf.setInt(YarnIntegrationConfigKeys.RPC_TIMEOUT_MS_KEY, 1000);
    conf.setInt("yarn.nodemanager.log.retain-seconds", 1);
    conf.setInt("yarn.scheduler.minimum-allocation-mb", 256);
    conf.setBoolean("yarn.nodemanager.vmem-check-enabled", false);
    conf.setInt("yarn.app.mapreduce.am.resource.mb", 512);
    conf.set("yarn.app.mapreduce.am.command-opts", "-Xmx384m");
    conf.setInt(MRJobConfig.MAP_MEMORY_MB, 512);
    conf.setInt(MRJobConfig.REDUCE_MEMORY_MB, 512);
    conf.set(MRJobConfig.MAP_JAVA_OPTS, "-Xmx384m");
    conf.set(MRJobConfig.REDUCE_JAVA_OPTS, "-Xmx384m");
    cluster = new MiniMRYarnCluster("localized-it", 1);
    cluster.init(conf);
    cluster.start();
    assertTrue(cluster.getNodeManager(0).getConfig().get(YarnConfiguration.NM_LOCAL_DIRS)
        .contains(SSD.getPath()), "the SSD dir is a NodeManager local dir");

    plainOutput = runSort("plain", false);
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.stop();
    }
    if (service != null) {
      service.stop();
    }
  }

  @Test
  @Order(1)
  void sort_ssdGranted_mapOutputsAndReduceMergesOnSsd() throws Exception {
    slave.clear();
    try (FileWatcher ssd = new FileWatcher(SSD)) {
      assertEquals(plainOutput, runSort("granted", true));
      assertTrue(ssd.seen().stream().anyMatch(f -> f.endsWith("/file.out")),
          "map outputs observed on the SSD: " + ssd.seen());
      assertTrue(ssd.seen().stream().anyMatch(f -> f.endsWith("/file.out.index")), ssd.seen()
          .toString());
      assertTrue(ssd.seen().stream().anyMatch(f -> f.contains("_spill_")), ssd.seen().toString());
      assertTrue(ssd.seen().stream().anyMatch(f -> f.matches(".*_r_.*/map_\\d+\\.out")),
          "fetched map outputs on the SSD: " + ssd.seen());
      assertTrue(ssd.seen().stream().anyMatch(f -> f.endsWith(".merged")),
          "reduce-side on-disk merges on the SSD: " + ssd.seen());
    }
    assertTrue(slave.grantedAttempts().stream().filter(a -> a.contains("_m_")).count() >= MAPS,
        "every map was granted SSD room: " + slave.grantedAttempts());
    assertTrue(slave.grantedAttempts().stream().anyMatch(a -> a.contains("_r_")),
        "the reduce was granted SSD room: " + slave.grantedAttempts());
    assertTrue(slave.maxUsed() > tuner.layout().get(0).localizedCacheCapacity(),
        "the sort outgrew the Localized Cache: " + slave.maxUsed());
    assertTrue(slave.maxLent() > 0, "pool units were lent to the Localized Cache");

    SpaceSnapshot after = awaitLocalizedEmpty();
    assertEquals(0, after.localizedCacheUsed());
    assertEquals(0, after.poolLentToLocalized());
  }

  @Test
  @Order(2)
  void sort_ssdFull_succeedsWithOutputsOnHdd() throws Exception {
    SpaceSnapshot s = cache.snapshot();
    long room = s.localizedCacheCapacity() + s.poolFree();
    assertTrue(cache.requestSpace("application_0_0001", "container_filler", "attempt_filler", room)
        .isGranted());
    slave.clear();
    List<File> hdds = new ArrayList<>();
    for (String d : cluster.getNodeManager(0).getConfig()
        .getTrimmedStrings(YarnConfiguration.NM_LOCAL_DIRS)) {
      if (!d.equals(SSD.getPath())) {
        hdds.add(new File(d));
      }
    }
    try (FileWatcher ssd = new FileWatcher(SSD); FileWatcher hdd = new FileWatcher(hdds)) {
      assertEquals(plainOutput, runSort("full", true));
      assertFalse(ssd.seen().stream().anyMatch(f -> f.contains("/output/")),
          "nothing localized on the full SSD: " + ssd.seen());
      assertTrue(hdd.seen().stream().anyMatch(f -> f.endsWith("/file.out")),
          "map outputs on the HDDs: " + hdd.seen());
    }
    assertTrue(slave.grantedAttempts().isEmpty(), slave.grantedAttempts().toString());
    assertTrue(slave.denials() > 0);
    cache.applicationFinished("application_0_0001");
    assertEquals(0, cache.snapshot().localizedCacheUsed());
  }

  @Test
  @Order(3)
  void sort_slaveDown_succeedsOnHdd() throws Exception {
    service.stop();
    assertEquals(plainOutput, runSort("slave-down", true));
    assertEquals(0, cache.snapshot().localizedCacheUsed());
  }

  private static SpaceSnapshot awaitLocalizedEmpty() throws InterruptedException {
    long deadline = System.currentTimeMillis() + 30_000;
    SpaceSnapshot s = cache.snapshot();
    while ((s.localizedCacheUsed() > 0 || s.poolLentToLocalized() > 0)
        && System.currentTimeMillis() < deadline) {
      Thread.sleep(200);
      s = cache.snapshot();
    }
    return s;
  }

  /** 5 files of about 1 MB of unique random keys, one map each. */
  private static void writeInput() throws IOException {
    Random random = new Random(7);
    int line = 0;
    for (int f = 0; f < MAPS; f++) {
      try (PrintWriter w = new PrintWriter(new File(INPUT, "part-" + f),
          StandardCharsets.UTF_8)) {
        for (int i = 0; i < 10_000; i++) {
          w.printf("%016x-%06d\t%s%n", random.nextLong(), line++,
              Long.toString(random.nextLong(), 36).repeat(6));
        }
      }
    }
  }

  /** Sorts the input with one reduce and returns its output. */
  private static String runSort(String name, boolean mpCache) throws Exception {
    Configuration conf = new Configuration(cluster.getConfig());
    if (mpCache) {
      conf.set(MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR, SsdMapOutputCollector.class.getName());
      conf.set("mapreduce.job.reduce.shuffle.consumer.plugin.class", SsdShuffle.class.getName());
    }
    conf.setInt(MRJobConfig.IO_SORT_MB, 1);
    conf.setInt(MRJobConfig.IO_SORT_FACTOR, 2);
    conf.setFloat(MRJobConfig.SHUFFLE_MEMORY_LIMIT_PERCENT, 0f);
    Job job = Job.getInstance(conf, "sort-" + name);
    job.setInputFormatClass(KeyValueTextInputFormat.class);
    job.setMapperClass(Mapper.class);
    job.setReducerClass(Reducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    job.setNumReduceTasks(1);
    FileInputFormat.addInputPath(job, new Path(INPUT.toURI()));
    File out = new File(ROOT, "out-" + name);
    FileOutputFormat.setOutputPath(job, new Path(out.toURI()));
    assertTrue(job.waitForCompletion(false), "job " + name + " succeeded");
    assertEquals(MAPS, job.getCounters().findCounter(
        org.apache.hadoop.mapreduce.JobCounter.TOTAL_LAUNCHED_MAPS).getValue());
    return Files.readString(new File(out, "part-r-00000").toPath());
  }

  /** The slave's Localized Cache, recording what it granted and the peak of its split. */
  private static final class RecordingSlave implements LocalizedProtocol {
    private final LocalizedCache delegate;
    private final Set<String> granted = ConcurrentHashMap.newKeySet();
    private final AtomicLong denials = new AtomicLong();
    private final AtomicLong maxUsed = new AtomicLong();
    private final AtomicLong maxLent = new AtomicLong();

    RecordingSlave(LocalizedCache delegate) {
      this.delegate = delegate;
    }

    @Override
    public LocalizedGrant requestSpace(String applicationId, String containerId,
        String attemptId, long bytes) throws IOException {
      LocalizedGrant g = delegate.requestSpace(applicationId, containerId, attemptId, bytes);
      if (g.isGranted()) {
        granted.add(attemptId);
      } else {
        denials.incrementAndGet();
      }
      SpaceSnapshot s = delegate.snapshot();
      maxUsed.accumulateAndGet(s.localizedCacheUsed(), Math::max);
      maxLent.accumulateAndGet(s.poolLentToLocalized(), Math::max);
      return g;
    }

    @Override
    public void reportRetained(String applicationId, String containerId, String attemptId,
        String dir, long bytes) throws IOException {
      delegate.reportRetained(applicationId, containerId, attemptId, dir, bytes);
    }

    @Override
    public void containerFinished(String containerId) throws IOException {
      delegate.containerFinished(containerId);
    }

    @Override
    public void applicationFinished(String applicationId) throws IOException {
      delegate.applicationFinished(applicationId);
    }

    void clear() {
      granted.clear();
      denials.set(0);
      maxUsed.set(0);
      maxLent.set(0);
    }

    Set<String> grantedAttempts() {
      return Set.copyOf(granted);
    }

    long denials() {
      return denials.get();
    }

    long maxUsed() {
      return maxUsed.get();
    }

    long maxLent() {
      return maxLent.get();
    }
  }

  /** Lists files under some dirs every 20 ms while a job runs, remembering every path seen. */
  private static final class FileWatcher implements AutoCloseable {
    private final Set<String> seen = ConcurrentHashMap.newKeySet();
    private final Thread thread;
    private volatile boolean running = true;

    FileWatcher(File dir) {
      this(List.of(dir));
    }

    FileWatcher(List<File> dirs) {
      thread = new Thread(() -> {
        while (running) {
          for (File d : dirs) {
            try (Stream<java.nio.file.Path> s = Files.walk(d.toPath())) {
              s.forEach(p -> seen.add(p.toString()));
            } catch (IOException | java.io.UncheckedIOException e) {
              // A file vanished mid-walk; the next pass sees the rest.
            }
          }
          try {
            Thread.sleep(20);
          } catch (InterruptedException e) {
            return;
          }
        }
      }, "file-watcher");
      thread.setDaemon(true);
      thread.start();
    }

    Set<String> seen() {
      return Set.copyOf(seen);
    }

    @Override
    public void close() throws InterruptedException {
      running = false;
      thread.join();
    }
  }
}
