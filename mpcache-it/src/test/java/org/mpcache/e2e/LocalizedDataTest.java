package org.mpcache.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
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
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.KeyValueTextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.mpcache.yarn.YarnIntegrationConfigKeys;
import org.mpcache.minicluster.MiniMpCacheCluster;
import org.mpcache.common.protocolPB.LocalizedJob;
import org.mpcache.master.space.SpaceSplit;
import org.mpcache.slave.MpCacheSlave;
import org.mpcache.slave.space.SpaceSnapshot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Localized data on the SSD, end to end on MiniDFSCluster + MiniMRYarnCluster with mpCache (a real
 * master, a real slave beside each DataNode and NodeManager, input read from HDFS through
 * MpCacheFileSystem): a shuffle-heavy sort whose map outputs, spills and reduce-side merges land in
 * the slaves' SSD directories while granted; the same sort with the SSD full, with its outputs on
 * the HDDs; both identical to plain Hadoop's output; after each application the slaves' localized
 * usage returns to zero and the lent pool units return; the master's Dynamic Space Manager learns
 * the job's localized space under its type and input size; and a slave that is down fails nothing.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(900)
class LocalizedDataTest {
  private static final Logger LOG = LoggerFactory.getLogger(LocalizedDataTest.class);
  private static final long MB = 1024 * 1024;
  private static final int MAPS = 5;
  private static final File ROOT = new File("target/e2e/localized").getAbsoluteFile();
  private static final Path INPUT = new Path("/localized/input");

  private static MiniMpCacheCluster cluster;
  private static long inputBytes;
  private static String plainOutput;

  @BeforeAll
  static void start() throws Exception {
    FileUtils.deleteQuietly(ROOT);
    // 1 MB blocks and pool units; a 2 MB Localized Cache per node, so the sort borrows pool units.
    // The full-SSD test fills the slaves with a grant of an application no NodeManager runs; the
    // NodeManagers' report of what runs would end it within a minute, so it comes once a day.
    cluster = new MiniMpCacheCluster.Builder(ROOT).yarn(true).blockSize(MB)
        .slaveCapacity(32 * MB).localizedCapacity(2 * MB)
        .set(YarnIntegrationConfigKeys.RECONCILE_INTERVAL_MS_KEY, Long.toString(86_400_000L))
        .build();
    writeInput();
    plainOutput = runSort("plain", false);
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  @Order(1)
  void sort_ssdGranted_localizedDataOnSsd_accountedAndReleased() throws Exception {
    long readsBefore = cluster.totals().getHits() + cluster.totals().getMisses();
    long returnedBefore = returnedBytes();
    try (Watcher w = new Watcher(ssdDirs())) {
      assertEquals(plainOutput, runSort("granted", true));
      assertTrue(returnedBytes() > returnedBefore, "spills merged into their map's output gave"
          + " their grants back before their containers ended");
      Set<String> seen = w.seen();
      assertTrue(seen.stream().anyMatch(f -> f.endsWith("/file.out")),
          "map outputs observed on the SSD: " + seen);
      assertTrue(seen.stream().anyMatch(f -> f.endsWith("/file.out.index")), seen.toString());
      assertTrue(seen.stream().anyMatch(f -> f.contains("_spill_")), seen.toString());
      assertTrue(seen.stream().anyMatch(f -> f.matches(".*_r_.*/map_\\d+\\.out")),
          "fetched map outputs on the SSD: " + seen);
      assertTrue(seen.stream().anyMatch(f -> f.endsWith(".merged")),
          "reduce-side on-disk merges on the SSD: " + seen);
      assertTrue(w.maxLocalizedUsed() > 2 * MB, "the slaves accounted the localized data, beyond"
          + " a Localized Cache's own 2 MB: " + w.maxLocalizedUsed());
      assertTrue(w.maxLentToLocalized() > 0, "pool units were lent to the Localized Cache");
      LOG.info("Sort on the SSD: peak localized bytes on one slave {}, peak pool bytes lent to"
          + " the Localized Cache {}, {} distinct paths seen", w.maxLocalizedUsed(),
          w.maxLentToLocalized(), seen.size());
    }
    assertTrue(cluster.totals().getHits() + cluster.totals().getMisses() > readsBefore,
        "the input was read through mpCache");
    awaitLocalizedEmpty();

    // The job's type (its name) and input size reached the master with its localized space.
    waitUntil(() -> cluster.master().getSpaceManager().predict("sort-granted", inputBytes, MB)
        .basis() == SpaceSplit.Basis.SAME_BUCKET, "the job in the master's space history");
    assertTrue(cluster.master().getSpaceManager().predict("sort-granted", inputBytes, 1L << 40)
        .localizedBytes() > 0);
  }

  @Test
  @Order(2)
  void sort_ssdFull_succeedsWithOutputsOnHdd() throws Exception {
    for (MpCacheSlave s : cluster.slaves()) {
      SpaceSnapshot split = s.getLocalizedCache().snapshot();
      long room = split.localizedCacheCapacity() + split.poolFree();
      assertTrue(s.getLocalizedCache().requestSpace("application_0_0001", "container_filler",
          "attempt_filler", room, LocalizedJob.UNKNOWN).isGranted());
    }
    List<File> hdds = new ArrayList<>();
    for (int i = 0; i < cluster.slaves().size(); i++) {
      for (String d : cluster.yarn().getNodeManager(i).getConfig()
          .getTrimmedStrings(YarnConfiguration.NM_LOCAL_DIRS)) {
        if (!new File(d).getAbsoluteFile().equals(cluster.slaveSsdDir(i))) {
          hdds.add(new File(d));
        }
      }
    }
    try (Watcher ssd = new Watcher(ssdDirs()); Watcher hdd = new Watcher(hdds)) {
      assertEquals(plainOutput, runSort("full", true));
      assertFalse(ssd.seen().stream().anyMatch(f -> f.contains("/output/")),
          "nothing localized on the full SSD: " + ssd.seen());
      assertTrue(hdd.seen().stream().anyMatch(f -> f.endsWith("/file.out")),
          "map outputs on the HDDs: " + hdd.seen());
    }
    for (MpCacheSlave s : cluster.slaves()) {
      s.getLocalizedCache().applicationFinished("application_0_0001");
    }
    awaitLocalizedEmpty();
  }

  @Test
  @Order(3)
  void sort_slaveDown_succeeds() throws Exception {
    cluster.stopSlave(0);
    try {
      assertEquals(plainOutput, runSort("slave-down", true));
    } finally {
      cluster.restartSlave(0);
    }
    awaitLocalizedEmpty();
  }

  private static List<File> ssdDirs() {
    List<File> dirs = new ArrayList<>();
    for (int i = 0; i < cluster.slaves().size(); i++) {
      dirs.add(cluster.slaveSsdDir(i));
    }
    return dirs;
  }

  /** Every slave's localized usage and lent units return to zero (the application ended). */
  private static void awaitLocalizedEmpty() throws InterruptedException {
    waitUntil(() -> cluster.slaves().stream().map(s -> s.getLocalizedCache().snapshot())
        .allMatch(s -> s.localizedCacheUsed() == 0 && s.poolLentToLocalized() == 0),
        "localized usage back to zero and lent units returned");
  }

  private static void waitUntil(java.util.function.BooleanSupplier condition, String what)
      throws InterruptedException {
    long deadline = System.currentTimeMillis() + 30_000;
    while (!condition.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(200);
    }
  }

  /** 5 files of about 1 MB of unique random keys in HDFS, one map each. */
  private static long returnedBytes() {
    return cluster.slaves().stream().mapToLong(s -> s.getLocalizedCache().bytesReturned()).sum();
  }

  private static void writeInput() throws IOException {
    FileSystem fs = cluster.plainFileSystem();
    Random random = new Random(7);
    int line = 0;
    for (int f = 0; f < MAPS; f++) {
      Path file = new Path(INPUT, "part-" + f);
      try (OutputStream out = fs.create(file);
          PrintWriter w = new PrintWriter(new java.io.OutputStreamWriter(out,
              StandardCharsets.UTF_8))) {
        for (int i = 0; i < 10_000; i++) {
          w.printf("%016x-%06d\t%s%n", random.nextLong(), line++,
              Long.toString(random.nextLong(), 36).repeat(6));
        }
      }
      inputBytes += fs.getFileStatus(file).getLen();
    }
  }

  /**
   * Sorts the input with one reduce whose merges spill to disk, and returns its output. Plain:
   * neither the cache nor the localized plug points, and Hadoop's local job runner in this JVM
   * instead of YARN (the same job, the same output, without containers); otherwise on YARN, where
   * the job must run one map per input file.
   */
  private static String runSort(String name, boolean mpCache) throws Exception {
    Configuration conf = mpCache ? cluster.conf() : cluster.plainHadoopConf();
    if (!mpCache) {
      conf.set(MRConfig.FRAMEWORK_NAME, MRConfig.LOCAL_FRAMEWORK_NAME);
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
    FileInputFormat.addInputPath(job, INPUT);
    Path out = new Path("/localized/out-" + name);
    FileOutputFormat.setOutputPath(job, out);
    assertTrue(job.waitForCompletion(false), "job " + name + " succeeded");
    if (mpCache) {
      assertEquals(MAPS,
          job.getCounters().findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue());
    }
    try (FSDataInputStream in = cluster.plainFileSystem().open(new Path(out, "part-r-00000"))) {
      java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
      IOUtils.copyBytes(in, bytes, 65536, false);
      return bytes.toString(StandardCharsets.UTF_8);
    }
  }

  /**
   * Lists files under some dirs every 20 ms while a job runs, remembering every path seen, and
   * samples the slaves' split for the peak localized usage and lent units.
   */
  private static final class Watcher implements AutoCloseable {
    private final Set<String> seen = ConcurrentHashMap.newKeySet();
    private final AtomicLong maxUsed = new AtomicLong();
    private final AtomicLong maxLent = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;

    Watcher(List<File> dirs) {
      thread = new Thread(() -> {
        while (running) {
          for (File d : dirs) {
            try (Stream<java.nio.file.Path> s = Files.walk(d.toPath())) {
              s.forEach(p -> seen.add(p.toString()));
            } catch (IOException | UncheckedIOException e) {
              // A file vanished mid-walk; the next pass sees the rest.
            }
          }
          for (MpCacheSlave slave : cluster.slaves()) {
            SpaceSnapshot s = slave.getLocalizedCache().snapshot();
            maxUsed.accumulateAndGet(s.localizedCacheUsed(), Math::max);
            maxLent.accumulateAndGet(s.poolLentToLocalized(), Math::max);
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

    long maxLocalizedUsed() {
      return maxUsed.get();
    }

    long maxLentToLocalized() {
      return maxLent.get();
    }

    @Override
    public void close() throws InterruptedException {
      running = false;
      thread.join();
    }
  }
}
