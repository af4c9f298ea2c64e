package org.mpcache.trust;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.mpcache.e2e.ClusterFiles.readUntilCached;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.commons.io.FileUtils;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.util.Time;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.common.Waits;
import org.mpcache.e2e.WordCountJobs;
import org.mpcache.hdfs.ClientConfigKeys;
import org.mpcache.minicluster.MiniMpCacheCluster;
import org.mpcache.slave.MpCacheSlave;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Faults injected into a real MapReduce job (PUMA word-count, 2 reduces) on the embedded cluster
 * while it runs: a slave frozen, the master frozen, the SSD full. Each time the job succeeds, its
 * output is byte for byte plain Hadoop's, and the mean map task time grows by a bounded amount
 * over the same job without the fault (printed; asserted only loosely, well under the 20 s RPC
 * stalls of old). The daemons share this JVM, so "frozen" means their RPC server threads are
 * suspended ({@link RpcServerThreads}), which is what a SIGSTOP does to a process's threads; a real
 * SIGSTOP would stop the whole test.
 *
 * <p>The slaves' SSD dirs, which are also the NodeManagers' SSD local dirs, lie on one tmpfs when
 * the test may mount one (as root); the SSD-full case needs it and is skipped otherwise.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
// Generous: each job takes about 20 s on an idle machine, minutes on a crowded one.
@Timeout(value = 1800, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MapReduceFaultsTest {
  private static final Logger LOG = LoggerFactory.getLogger(MapReduceFaultsTest.class);
  private static final long BLOCK = 1L << 20;
  private static final int DEADLINE_MS = 1_000;
  /**
   * With the job's own map time added (a crowded machine stretches both runs alike): far below the
   * old stalls (three 20 s RPC timeouts per block), far above the deadline.
   */
  private static final long EXTRA_PER_MAP_BOUND_MS = 10_000;
  private static final File ROOT = new File("target/e2e/mr-faults").getAbsoluteFile();
  private static final File SSD = new File(ROOT, "ssd-tmpfs");
  private static final Path INPUT = new Path("/faults/input");
  private static final Path COLD_INPUT = new Path("/faults/cold");

  private static MiniMpCacheCluster cluster;
  private static boolean tmpfs;
  private static final RpcServerThreads frozen = new RpcServerThreads();
  private static byte[] plainOutput;
  private static double baselineMapMs;

  @BeforeAll
  static void start() throws Exception {
    FileUtils.deleteQuietly(ROOT);
    assertTrue(SSD.mkdirs());
    tmpfs = run("mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", SSD.getPath());
    cluster = new MiniMpCacheCluster.Builder(ROOT).yarn(true).blockSize(BLOCK)
        .slaveCapacity(16 * BLOCK).slaveCacheDir(i -> new File(SSD, "ssd-" + i))
        .set(ClientConfigKeys.CACHE_DEADLINE_MS_KEY, String.valueOf(DEADLINE_MS))
        .set(MpCacheConfigKeys.RPC_TIMEOUT_MS_KEY, "5000").build();
    Path inputFile = WordCountJobs.text(cluster, INPUT, 6 * BLOCK, 41);
    plainOutput = WordCountJobs.plainOutput(cluster, INPUT, new Path("/faults/out-plain"));
    // The jobs read cached input, the baseline's as the faulted ones'.
    readUntilCached(cluster, inputFile);
    Ran baseline = runJob("baseline", INPUT, true);
    assertArrayEquals(plainOutput, WordCountJobs.output(cluster, baseline.out));
    baselineMapMs = baseline.meanMapMs;
  }

  @AfterAll
  static void stop() throws Exception {
    frozen.close();
    if (cluster != null) {
      cluster.close();
    }
    if (tmpfs) {
      run("umount", SSD.getPath());
    }
  }

  @Test
  @Order(1)
  void wordCount_slaveFrozenMidJob_succeedsWithPlainOutput() throws Exception {
    MpCacheSlave slave = cluster.slaves().get(0);
    Ran r = runWithFault("slave-frozen", INPUT, () -> frozen.freeze(
        RpcServerThreads.of(List.of(slave.info().getClientPort()))));
    assertArrayEquals(plainOutput, WordCountJobs.output(cluster, r.out));
    assertExtraDelayBounded(r, baselineMapMs);
  }

  @Test
  @Order(2)
  void wordCount_masterFrozenMidJob_succeedsWithPlainOutput() throws Exception {
    int port = cluster.master().getRpcAddress().getPort();
    // Frozen from the first map progress until the job ends or 45 s pass: the clients' list
    // refresh, the slaves' heartbeats and their reclaim requests all wait on it.
    Thread resume = new Thread(() -> {
      try {
        Thread.sleep(45_000);
      } catch (InterruptedException e) {
        return;
      }
      frozen.resumeAll();
    }, "resume-master");
    resume.setDaemon(true);
    Ran r;
    try {
      r = runWithFault("master-frozen", INPUT, () -> {
        int n = frozen.freeze(RpcServerThreads.of(List.of(port)));
        resume.start();
        return n;
      });
    } finally {
      resume.interrupt();
    }
    assertArrayEquals(plainOutput, WordCountJobs.output(cluster, r.out));
    assertExtraDelayBounded(r, baselineMapMs);
  }

  @Test
  @Order(3)
  void wordCount_ssdFull_inputFillsAndLocalizedDataFallBack() throws Exception {
    assumeTrue(tmpfs, "needs root to put the SSD dirs on a small tmpfs");
    WordCountJobs.text(cluster, COLD_INPUT, 4 * BLOCK, 43);
    Ran plain = runJob("cold-plain", COLD_INPUT, false);
    // The NodeManagers delete finished applications' dirs on the SSD in the background: were
    // that to free space on the full tmpfs during the next job, YARN's own localizer would pick
    // the SSD dir for the job's files and fail writing them, with or without mpCache.
    Waits.waitFor(() -> applicationDirs().isEmpty(), 60_000,
        "the NodeManagers to delete the application dirs on the SSD");
    File ballast = new File(SSD, "ballast");
    long filled = fill(ballast);
    try {
      Ran full = runJob("ssd-full", COLD_INPUT, true);
      assertArrayEquals(WordCountJobs.output(cluster, plain.out), WordCountJobs.output(cluster, full.out));
      LOG.info("SSD full: {} bytes of ballast", filled);
      assertExtraDelayBounded(full, plain.meanMapMs);
    } finally {
      Files.deleteIfExists(ballast.toPath());
    }
  }

  private static List<File> applicationDirs() {
    List<File> dirs = new ArrayList<>();
    File[] ssds = SSD.listFiles(f -> f.getName().startsWith("ssd-"));
    for (File ssd : ssds == null ? new File[0] : ssds) {
      File[] users = new File(ssd, "usercache").listFiles();
      for (File user : users == null ? new File[0] : users) {
        File[] apps = new File(user, "appcache").listFiles();
        dirs.addAll(Arrays.asList(apps == null ? new File[0] : apps));
      }
    }
    return dirs;
  }

  /** Writes {@code file} until its filesystem is full; returns the bytes written. */
  private static long fill(File file) throws IOException {
    byte[] mb = new byte[(int) BLOCK];
    long written = 0;
    try (OutputStream out = Files.newOutputStream(file.toPath())) {
      while (true) {
        out.write(mb);
        written += mb.length;
      }
    } catch (IOException e) {
      if (!String.valueOf(e.getMessage()).contains("No space left on device")) {
        throw e;
      }
    }
    return written;
  }

  private static void assertExtraDelayBounded(Ran r, double baselineMs) {
    double extra = r.meanMapMs - baselineMs;
    String figure = String.format("%s: mean map task %.0f ms against %.0f ms without the fault"
        + " (%+.0f ms per task; longest %d ms), job %d ms", r.name, r.meanMapMs, baselineMs,
        extra, r.maxMapMs, r.jobMs);
    System.out.println("Fault figure: " + figure);
    assertTrue(extra < EXTRA_PER_MAP_BOUND_MS + baselineMs, figure);
  }

  /** A finished job: its output dir and its map task times. */
  private record Ran(String name, Path out, double meanMapMs, long maxMapMs, long jobMs) {
  }

  @FunctionalInterface
  private interface Fault {
    int inject() throws Exception;
  }

  private static Job submit(String name, Path input, boolean mpCache) throws Exception {
    Configuration conf = mpCache ? cluster.conf() : cluster.plainHadoopConf();
    Path out = new Path("/faults/out-" + name);
    Job job = WordCountJobs.wordCount(conf, input, out);
    job.setJobName("wordcount-" + name);
    job.submit();
    return job;
  }

  private static Ran runJob(String name, Path input, boolean mpCache) throws Exception {
    return finish(name, submit(name, input, mpCache), Time.monotonicNow());
  }

  /** Runs the job and injects {@code fault} once its maps have made progress. */
  private static Ran runWithFault(String name, Path input, Fault fault) throws Exception {
    long start = Time.monotonicNow();
    Job job = submit(name, input, true);
    while (!job.isComplete() && job.mapProgress() <= 0f) {
      Thread.sleep(50);
    }
    assertTrue(fault.inject() > 0, "the fault found threads to freeze");
    try {
      return finish(name, job, start);
    } finally {
      frozen.resumeAll();
    }
  }

  private static Ran finish(String name, Job job, long start) throws Exception {
    assertTrue(job.waitForCompletion(false), "job " + name + " failed");
    long jobMs = Time.monotonicNow() - start;
    long[] maps = WordCountJobs.mapMillis(job);
    return new Ran(name, FileOutputFormat.getOutputPath(job),
        Arrays.stream(maps).average().orElse(0), Arrays.stream(maps).max().orElse(0), jobMs);
  }

  private static boolean run(String... command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    boolean ok = p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    if (!ok) {
      LOG.info("{}: {}", String.join(" ", command), output);
    }
    return ok;
  }
}
