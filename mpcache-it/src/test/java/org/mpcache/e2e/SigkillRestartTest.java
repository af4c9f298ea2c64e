package org.mpcache.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.apache.commons.io.FileUtils;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.util.Time;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.mpcache.benchmarks.puma.CountingBenchmark;
import org.mpcache.benchmarks.puma.WikiLine;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.AdminProtos.ReportResponseProto;
import org.mpcache.common.proto.AdminProtos.SlaveReportProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;
import org.mpcache.hdfs.ClientConfigKeys;
import org.mpcache.hdfs.ClientCounters;
import org.mpcache.hdfs.FallbackCause;
import org.mpcache.master.MasterConfigKeys;
import org.mpcache.master.MpCacheMaster;
import org.mpcache.minicluster.MiniMpCacheCluster;
import org.mpcache.slave.MpCacheSlave;
import org.mpcache.slave.SlaveConfigKeys;
import org.mpcache.slave.store.BlockFile;

/**
 * The cache survives daemons killed with SIGKILL: the master and the two slaves run as processes
 * ({@link DaemonProcesses}) beside an in-process HDFS and YARN. The first run of a PUMA word-count
 * job (one reduce, four blocks of input) caches its input, reading none of it from the cache; then
 * the master is killed and restarted, a slave is killed and restarted, and the master is frozen
 * (SIGSTOP) for 25 s: after each fault a new client reads the input, at least 90% of it from the
 * cache, and after all three the job's second run does too, with plain Hadoop's output byte for
 * byte. (One second run for the three faults keeps the class within its time budget: a job takes
 * 60 to 100 s on the loaded two-core machine the suite runs on.) With the master killed mid-job,
 * the job succeeds and the slaves serve hits while it is down. A block file changed on the SSD
 * while its slave was dead is dropped and never served. A client that outlives the master's
 * restart finds it again on its old port.
 *
 * <p>Counters come from the master's admin report; slaves send them with every heartbeat (100 ms
 * here), and a figure is read once two reports 300 ms apart agree.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
// Generous: each job takes about 20 s on an idle machine, minutes on a crowded one.
@Timeout(value = 1800, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SigkillRestartTest {
  private static final long BLOCK = 4L << 20;
  private static final File ROOT = new File("target/e2e/sigkill").getAbsoluteFile();
  private static final Path INPUT = new Path("/sigkill/input");
  private static final String MASTER = "master";
  private static final int SLAVES = 2;
  private static final long REFRESH_MS = 1_000;
  /** What a slave logs each time it registers. */
  private static final String REGISTERED = "Registered with the mpCache master";
  /** The master's default: a 25 s pause stays under it. */
  private static final long EXPIRY_MS = MasterConfigKeys.SLAVE_EXPIRY_MS_DEFAULT;

  private static MiniMpCacheCluster cluster;
  private static DaemonProcesses daemons;
  private static Path data;
  private static long inputBytes;
  private static int inputBlocks;
  private static byte[] plainOutput;
  private static int runs;

  @BeforeAll
  static void start() throws Exception {
    FileUtils.deleteQuietly(ROOT);
    int[] ports = DaemonProcesses.freePorts(1 + 2 * SLAVES);
    cluster = new MiniMpCacheCluster.Builder(ROOT).yarn(true).blockSize(BLOCK)
        .dataNodes(SLAVES).slaveCapacity(16 * BLOCK)
        .externalDaemons(ports[0], new int[] {ports[1], ports[2]}, new int[] {ports[3], ports[4]})
        .set(MasterConfigKeys.HEARTBEAT_INTERVAL_MS_KEY, "100")
        .set(MasterConfigKeys.SLAVE_EXPIRY_MS_KEY, Long.toString(EXPIRY_MS))
        .set(SlaveConfigKeys.VERIFY_BYTES_PER_SEC_KEY, Long.toString(1L << 30))
        // Calls of 128 KiB: a map task reads its split through the cache while it counts words,
        // with a deadline that a loaded machine's 32 calls per block stay well within.
        .set(ClientConfigKeys.READ_BYTES_KEY, Integer.toString(128 << 10))
        .set(ClientConfigKeys.CACHE_DEADLINE_MS_KEY, "10000")
        .set(ClientConfigKeys.SLAVES_REFRESH_MS_KEY, Long.toString(REFRESH_MS)).build();
    daemons = new DaemonProcesses(new File(ROOT, "daemons"));
    daemons.start(MASTER, MpCacheMaster.class, cluster.masterConf());
    awaitReport(r -> true, "the master answering");
    for (int i = 0; i < SLAVES; i++) {
      daemons.start(slave(i), MpCacheSlave.class, cluster.slaveConf(i));
    }
    awaitReport(r -> r.getLiveSlaves() == SLAVES, "both slaves registered");

    data = WordCountJobs.text(cluster, INPUT, 4 * BLOCK, 61);
    inputBytes = cluster.plainFileSystem().getFileStatus(data).getLen();
    inputBlocks = ClusterFiles.blocks(cluster, data).size();
    // Plain Hadoop's output, from the local job runner: no cache, no YARN containers to wait for.
    Configuration local = cluster.plainHadoopConf();
    local.set("mapreduce.framework.name", "local");
    plainOutput = WordCountJobs.output(cluster, finish(submit(local, "plain")));

    long cold = runFromCache("cold");
    System.out.println("Restart figure: the job's first run read " + cold + " of " + inputBytes
        + " input bytes from the cache");
    // The first run caches as it reads (a block a map enters past its start is filled by the
    // slave, and a later map may hit it), but it must stay below the share the tests assert.
    assertTrue(cold < 0.9 * inputBytes, "a cold cache served " + cold + " of " + inputBytes
        + " bytes: the share the tests assert would say nothing");
    awaitReport(r -> r.getCachedBlocks() >= inputBlocks, "the input cached by the first run");
  }

  @AfterAll
  static void stop() {
    if (daemons != null) {
      daemons.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  private static String slave(int i) {
    return "slave-" + i;
  }

  @Test
  @Order(1)
  void sigkillMaster_restarted_adoptsEveryBlockAndServesFromTheCache() throws Exception {
    daemons.kill(MASTER);
    daemons.restart(MASTER);
    awaitReport(r -> r.getLiveSlaves() == SLAVES && r.getCachedBlocks() >= inputBlocks,
        "both slaves back with every input block adopted");
    assertFreshReadFromCache();
  }

  @Test
  @Order(2)
  void sigkillSlave_restarted_keepsItsBlocksAndServesFromTheCache() throws Exception {
    long registrations = daemons.logLines(slave(0), REGISTERED);
    daemons.kill(slave(0));
    daemons.restart(slave(0));
    // The master lists the dead process's registration until it expires: wait for the new one.
    waitUntil(() -> daemons.logLines(slave(0), REGISTERED) > registrations,
        "the restarted slave registering");
    awaitReport(r -> r.getLiveSlaves() == SLAVES && r.getCachedBlocks() >= inputBlocks,
        "the restarted slave's blocks adopted");
    assertFreshReadFromCache();
  }

  @Test
  @Order(3)
  void sigstopMaster_25s_nothingEvictedNorRegisteredAgain() throws Exception {
    long cached = awaitReport(r -> true, "a report").getCachedBlocks();
    long[] registrations = logLines(REGISTERED);
    long[] answersAgain = logLines("answers again");
    daemons.signal(MASTER, "STOP");
    try {
      Thread.sleep(25_000);
    } finally {
      daemons.signal(MASTER, "CONT");
    }
    // Each slave's heartbeat timed out meanwhile (20 s); wait until each heard the master again.
    for (int i = 0; i < SLAVES; i++) {
      int n = i;
      waitUntil(() -> daemons.logLines(slave(n), "answers again") > answersAgain[n],
          slave(n) + " hearing the master again");
    }
    ReportResponseProto r = awaitReport(x -> true, "a report");
    assertEquals(SLAVES, r.getLiveSlaves(), "no slave expired");
    assertEquals(cached, r.getCachedBlocks(), "no block evicted");
    assertArrayEquals(registrations, logLines(REGISTERED),
        "no slave registered again");
    assertFreshReadFromCache();
  }

  /** The second run of the job, after the three faults above. */
  @Test
  @Order(4)
  void wordCount_afterTheKillsAndThePause_readsItsInputFromTheCache() throws Exception {
    assertMostlyFromCache(runFromCache("second"));
  }

  @Test
  @Order(5)
  void sigkillMaster_midJob_jobSucceedsAndSlavesServeHitsMeanwhile() throws Exception {
    Job job = wordCount(cluster.conf(), "master-killed-mid-job");
    // Maps that read their blocks over 10 s or more, reporting progress every 500 ms: the kill
    // comes while they still read.
    job.setMapperClass(PacedWordMapper.class);
    job.getConfiguration().setLong(MRJobConfig.TASK_PROGRESS_REPORT_INTERVAL, 500);
    job.submit();
    // Kill the master once every map task reads its split: a task's client learns the slaves from
    // the master at its first read, so a task that starts while the master is down reads from
    // HDFS (docs/operations.md). Lookups are no sign: each task first reads its split's
    // description (job.split) through the cache.
    waitUntil(() -> {
      TaskReport[] maps = job.getTaskReports(TaskType.MAP);
      return maps.length > 0 && Arrays.stream(maps).allMatch(t -> t.getProgress() > 0);
    }, "every map task reading its split");
    SlaveCountersProto atKill = report().getTotalCounters();
    daemons.kill(MASTER);
    long downSince = Time.monotonicNow();
    waitUntil(() -> job.isComplete() || job.mapProgress() >= 1f, "the maps done");
    long downMs = Time.monotonicNow() - downSince;
    daemons.restart(MASTER);
    Path out = finish(job);
    awaitReport(r -> r.getLiveSlaves() == SLAVES, "both slaves registered again");
    long during = counters().getBytesFromCache() - atKill.getBytesFromCache();
    System.out.println("Restart figure: with the master down for " + downMs + " ms mid-job, the "
        + "slaves served " + during + " bytes of hits");
    // Bytes read through a block file's descriptor are counted when the reader leaves the block,
    // after the kill for maps that were still reading: at least half the input was served while
    // the master was down.
    assertTrue(during >= inputBytes / 2,
        "the slaves served " + during + " bytes while the master was down");
    assertArrayEquals(plainOutput, WordCountJobs.output(cluster, out));
  }

  @Test
  @Order(6)
  void sigkillSlave_blockChangedWhileDead_isDroppedAndNeverServed() throws Exception {
    // Which slave caches which block follows from the block ids: take a slave that holds one.
    int holder = -1;
    BlockKey changed = null;
    for (int s = 0; s < SLAVES && changed == null; s++) {
      for (BlockKey k : ClusterFiles.blocks(cluster, data)) {
        if (new BlockFile(cluster.slaveSsdDir(s).toPath(), k, BlockFile.Kind.DATA).path().toFile()
            .isFile()) {
          holder = s;
          changed = k;
          break;
        }
      }
    }
    assertTrue(changed != null, "a slave caches a block of the input");
    int i = holder;
    File ssd = cluster.slaveSsdDir(i);
    daemons.kill(slave(i));
    File file = new BlockFile(ssd.toPath(), changed, BlockFile.Kind.DATA).path().toFile();
    ClusterFiles.changeMiddleByte(file);
    long registrations = daemons.logLines(slave(i), REGISTERED);
    daemons.restart(slave(i));
    waitUntil(() -> daemons.logLines(slave(i), REGISTERED) > registrations,
        "the restarted slave registering");
    waitUntil(() -> slaveReport(i).getCounters().getBlocksFailedVerification() == 1,
        "the background verification failing the changed block");
    // Other blocks may come and go meanwhile (the restarted master settles its datasets): the
    // master's count agrees with the block files on the SSD, without the changed one.
    waitUntil(() -> !file.exists() && slaveReport(i).getCachedBlocks() == blockFilesOn(ssd),
        "the master told of the drop");
    assertTrue(!file.exists(), "the changed block's file is deleted");
    long mismatches = checksumMismatches();
    assertArrayEquals(plainBytes(), freshRead());
    assertEquals(mismatches, checksumMismatches(),
        "the changed bytes never reached the reader (its CRC check would have caught them)");
    // That read missed the dropped block, whose fill starts once the misses on the input have
    // stopped (mpcache.slave.fill.quiet.ms): the tests after this one read the input whole from
    // the cache.
    waitUntil(() -> {
      long before = counters().getBytesFromCache();
      assertArrayEquals(plainBytes(), freshRead());
      return counters().getBytesFromCache() - before == inputBytes;
    }, "the dropped block cached again");
  }

  @Test
  @Order(7)
  void sigkillMaster_clientOutlivesIt_findsItAgainWithoutFailedReads() throws Exception {
    ClientCounters client = ClientCounters.get();
    byte[] expected = plainBytes();
    Configuration conf = cluster.conf();
    // Keeps the client's idle connection to the master past its death, whatever the restart takes.
    conf.setInt(CommonConfigurationKeysPublic.IPC_CLIENT_CONNECTION_MAXIDLETIME_KEY, 600_000);
    try (FileSystem fs = FileSystem.get(cluster.dfs().getURI(), conf)) {
      assertArrayEquals(expected, read(fs)); // the client has the master's list of slaves
      long unreachableBefore = masterUnreachable(client);
      daemons.kill(MASTER);
      daemons.restart(MASTER);
      awaitReport(r -> r.getLiveSlaves() == SLAVES && r.getCachedBlocks() >= inputBlocks,
          "both slaves registered again");
      // The client's connection to the old master died with it; its next refresh must connect
      // to the new one: no failed refresh for three refresh periods, within a bounded delay, and
      // meanwhile every read is right and served from the cache.
      long restarted = Time.monotonicNow();
      long quietSince = restarted;
      long unreachable = masterUnreachable(client);
      while (Time.monotonicNow() - quietSince < 3 * REFRESH_MS) {
        long fromCache = client.bytesFromCache();
        assertArrayEquals(expected, read(fs), "a read after the master's restart");
        assertMostlyFromCache(client.bytesFromCache() - fromCache);
        if (masterUnreachable(client) != unreachable) {
          unreachable = masterUnreachable(client);
          quietSince = Time.monotonicNow();
        }
        assertTrue(Time.monotonicNow() - restarted < 30_000,
            "the client still cannot reach the restarted master: " + client.fallbacks());
      }
      System.out.println("Restart figure: a client idle while the master restarted reached it "
          + (quietSince - restarted) + " ms after it listed both slaves, after "
          + (unreachable - unreachableBefore) + " failed list refreshes");
    }
  }

  private static long checksumMismatches() {
    return ClientCounters.get().fallbacks().getOrDefault(FallbackCause.CHECKSUM_MISMATCH, 0L);
  }

  private static long masterUnreachable(ClientCounters c) {
    return c.fallbacks().getOrDefault(FallbackCause.MASTER_UNREACHABLE, 0L);
  }

  private static byte[] read(FileSystem fs) throws IOException {
    try (FSDataInputStream in = fs.open(data)) {
      return in.readAllBytes();
    }
  }

  private static byte[] plainBytes() throws IOException {
    try (FSDataInputStream in = cluster.plainFileSystem().open(data)) {
      return in.readAllBytes();
    }
  }

  /** Every slave's {@code text} lines in its log, by slave. */
  private static long[] logLines(String text) throws IOException {
    long[] n = new long[SLAVES];
    for (int i = 0; i < SLAVES; i++) {
      n[i] = daemons.logLines(slave(i), text);
    }
    return n;
  }

  /** The cached blocks' data files in a slave's SSD directory. */
  private static long blockFilesOn(File ssd) throws IOException {
    try (Stream<java.nio.file.Path> files = Files.walk(ssd.toPath().resolve("current"))) {
      return files.filter(f -> Files.isRegularFile(f)
          && !f.getFileName().toString().endsWith(".crc")).count();
    }
  }

  private static SlaveReportProto slaveReport(int i) throws IOException {
    int port = cluster.slaveConf(i).getSocketAddr(SlaveConfigKeys.RPC_ADDRESS_KEY, "", 0)
        .getPort();
    for (SlaveReportProto s : report().getSlavesList()) {
      if (s.getLive() && s.getSlave().getClientPort() == port) {
        return s;
      }
    }
    throw new AssertionError("the master lists no live slave on port " + port);
  }

  /**
   * A new client reads the input, as a new task would: the bytes, 90% from the cache. A task's JVM
   * starts with no RPC connection; this JVM's pooled connection to a killed slave would fail its
   * first call (the slave is then left alone for {@code mpcache.client.slave.retry.ms}), so the
   * client's connections close after 1 s idle.
   */
  private static void assertFreshReadFromCache() throws IOException {
    long before = counters().getBytesFromCache();
    assertArrayEquals(plainBytes(), freshRead());
    assertMostlyFromCache(counters().getBytesFromCache() - before);
  }

  /** The input read by a new client whose RPC connections close after 1 s idle. */
  private static byte[] freshRead() throws IOException {
    Configuration conf = cluster.conf();
    conf.setInt(CommonConfigurationKeysPublic.IPC_CLIENT_CONNECTION_MAXIDLETIME_KEY, 1_000);
    try (FileSystem fs = FileSystem.get(cluster.dfs().getURI(), conf)) {
      return read(fs);
    }
  }

  private static void assertMostlyFromCache(long fromCache) {
    System.out.println("Restart figure: " + fromCache + " of " + inputBytes
        + " input bytes from the cache");
    assertTrue(fromCache >= 0.9 * inputBytes, fromCache + " of " + inputBytes
        + " input bytes from the cache");
  }

  /**
   * Runs the job through the cache; asserts plain Hadoop's output; returns the bytes it read from
   * the cache.
   */
  private static long runFromCache(String name) throws Exception {
    long before = counters().getBytesFromCache();
    Path out = finish(submit(cluster.conf(), name));
    assertArrayEquals(plainOutput, WordCountJobs.output(cluster, out), "output of run " + name);
    return counters().getBytesFromCache() - before;
  }

  private static Job submit(Configuration conf, String name) throws Exception {
    Job job = wordCount(conf, name);
    job.submit();
    return job;
  }

  private static Job wordCount(Configuration conf, String name) throws Exception {
    Path out = new Path("/sigkill/out-" + (runs++) + "-" + name);
    Job job = WordCountJobs.wordCount(conf, INPUT, out);
    job.setNumReduceTasks(1);
    job.setJobName("wordcount-" + name);
    return job;
  }

  /**
   * The word count's mapper, pausing 160 ms for every 64 KiB of input it maps: a map task reads
   * its 4 MiB block over at least 10 s whatever the length of the lines, so the master can be
   * killed while the maps still read through the cache.
   */
  public static final class PacedWordMapper extends CountingBenchmark.CountingMapper {
    private static final long PACE_BYTES = 64 * 1024;
    private long bytes;

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      for (String word : WikiLine.words(line)) {
        count(word, context);
      }
      long before = bytes / PACE_BYTES;
      bytes += line.getLength() + 1;
      for (long pause = bytes / PACE_BYTES - before; pause > 0; pause--) {
        Thread.sleep(160);
      }
    }
  }

  private static Path finish(Job job) throws Exception {
    assertTrue(job.waitForCompletion(false), "job " + job.getJobName() + " failed");
    return FileOutputFormat.getOutputPath(job);
  }

  /** The live slaves' counters, once two reports 300 ms apart agree (the heartbeats caught up). */
  private static SlaveCountersProto counters() throws IOException {
    SlaveCountersProto last = report().getTotalCounters();
    while (true) {
      sleep(300);
      SlaveCountersProto now = report().getTotalCounters();
      if (now.equals(last)) {
        return now;
      }
      last = now;
    }
  }

  private static ReportResponseProto report() throws IOException {
    return DaemonProcesses.report(cluster.conf());
  }

  /** Polls the master's report until {@code done} holds (the master may be starting), 2 min. */
  private static ReportResponseProto awaitReport(Predicate<ReportResponseProto> done, String what)
      throws IOException {
    long deadline = Time.monotonicNow() + 120_000;
    IOException last = null;
    while (Time.monotonicNow() < deadline) {
      try {
        ReportResponseProto r = report();
        if (done.test(r)) {
          return r;
        }
      } catch (IOException e) {
        last = e;
      }
      sleep(50);
    }
    throw new AssertionError("timed out waiting for " + what + daemons.states(), last);
  }

  @FunctionalInterface
  private interface Check {
    boolean holds() throws Exception;
  }

  private static void waitUntil(Check check, String what) throws Exception {
    long deadline = Time.monotonicNow() + 120_000;
    while (!check.holds()) {
      if (Time.monotonicNow() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      sleep(50);
    }
  }

  private static void sleep(long ms) throws InterruptedIOException {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException();
    }
  }
}
