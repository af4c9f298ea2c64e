package org.mpcache.trust;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.mpcache.e2e.ClusterFiles.blocks;
import static org.mpcache.e2e.ClusterFiles.readUntilCached;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.util.Time;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mpcache.admin.AdminCliRun;
import org.mpcache.common.BlockKey;
import org.mpcache.e2e.WordCountJobs;
import org.mpcache.hdfs.ClientConfigKeys;
import org.mpcache.minicluster.MiniMpCacheCluster;
import org.mpcache.slave.MpCacheSlave;
import org.mpcache.slave.SlaveConfigKeys;
import org.mpcache.slave.volume.VolumeHealth.DirState;

/**
 * A real device failing under each slave's SSD directory in the middle of a word-count job on the
 * embedded cluster with YARN: each directory is an ext4 file system on its own loop device, which
 * the test shuts down once the job runs, with the kernel's {@code EXT4_IOC_SHUTDOWN} (the
 * "godown" of xfstests): from then on the kernel answers every read, write and open there with
 * {@code EIO}, as it does for a device that died. The job succeeds with plain Hadoop's output;
 * each directory that met more than the tolerated faults is out of service, after a bounded
 * number of them; {@code mpcache admin report} shows it with its cause; once a new device is
 * mounted in its place, {@code mpcache admin refresh} returns it to service.
 *
 * <p>{@code dm-flakey} and {@code dm-delay} would fail a device below the file system; this
 * kernel has no device mapper, and the shutdown ioctl is the real fault it offers. The test needs
 * root, {@code losetup}, {@code mkfs.ext4}, {@code mount} and {@code python3} (for the ioctl), and
 * is skipped, naming what is missing, without them.
 */
class FaultySsdDeviceTest {
  private static final long BLOCK = 2L << 20;
  private static final int DEADLINE_MS = 1_000;
  private static final int TOLERATED = 1;
  private static final File BASE = new File("target/e2e/faulty-ssd");
  private static final Path INPUT = new Path("/faulty-ssd/input");
  /** {@code EXT4_IOC_SHUTDOWN} with {@code EXT4_GOING_FLAGS_NOLOGFLUSH}, as xfstests' godown. */
  private static final String SHUTDOWN = "import fcntl, os, struct, sys\n"
      + "fd = os.open(sys.argv[1], os.O_RDONLY)\n"
      + "fcntl.ioctl(fd, 0x8004587D, struct.pack('I', 2))\n";
  private static final List<String> loops = new ArrayList<>();
  private static final List<File> mounts = new ArrayList<>();
  private static MiniMpCacheCluster cluster;
  private static Path inputFile;
  private static byte[] plainOutput;

  @BeforeAll
  static void start() throws Exception {
    assumeTrue("root".equals(System.getProperty("user.name")),
        "needs root to attach loop devices and mount file systems; runs as "
            + System.getProperty("user.name"));
    for (String tool : List.of("losetup", "mkfs.ext4", "mount", "umount", "python3")) {
      assumeTrue(run("sh", "-c", "command -v " + tool).ok, "needs " + tool + " on the PATH");
    }
    BASE.mkdirs();
    for (int i = 0; i < 2; i++) {
      File image = new File(BASE, "ssd-" + i + ".img");
      File mount = new File(BASE, "ssd-" + i);
      run("umount", "-l", mount.getPath());
      image.delete();
      mount.mkdirs();
      Run loop = run("sh", "-c", "truncate -s 256M " + image.getPath()
          + " && losetup --find --show " + image.getPath());
      assumeTrue(loop.ok, "no loop device could be attached: " + loop.output);
      loops.add(loop.output.trim());
      Run fs = run("sh", "-c", "mkfs.ext4 -q " + loops.get(i) + " && mount " + loops.get(i)
          + " " + mount.getPath());
      assumeTrue(fs.ok, "no ext4 file system could be mounted on a loop device: " + fs.output);
      mounts.add(mount);
    }
    cluster = new MiniMpCacheCluster.Builder(BASE).yarn(true).blockSize(BLOCK)
        .slaveCapacity(32 * BLOCK).slaveCacheDir(mounts::get)
        // The NodeManagers' local dirs elsewhere: a failed disk under YARN's own dirs fails
        // containers, which is YARN's disk checker's business, not the cache's.
        .nodeManagerLocalDir(i -> new File(BASE, "nm-local-" + i))
        .set(ClientConfigKeys.CACHE_DEADLINE_MS_KEY, String.valueOf(DEADLINE_MS))
        .set(SlaveConfigKeys.VOLUME_FAULTS_TOLERATED_KEY, String.valueOf(TOLERATED)).build();
    inputFile = WordCountJobs.text(cluster, INPUT, 6 * BLOCK, 43);
    plainOutput = WordCountJobs.plainOutput(cluster, INPUT, new Path("/faulty-ssd/plain"));
    // The job's maps read the input from the SSDs when the devices fail.
    readUntilCached(cluster, inputFile);
  }

  @AfterAll
  static void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
    for (File m : mounts) {
      run("umount", "-l", m.getPath());
    }
    for (String l : loops) {
      run("losetup", "-d", l);
    }
  }

  @Test
  void wordCount_ssdDevicesFailMidJob_succeedsAndTheirDirectoriesGoOutOfService()
      throws Exception {
    long[] errorsBefore = readErrors();
    Job job = WordCountJobs.wordCount(cluster.conf(), INPUT, new Path("/faulty-ssd/faulty"));
    job.submit();
    while (!job.isComplete() && job.getStatus().getState() != JobStatus.State.RUNNING) {
      Thread.sleep(50);
    }
    for (File m : mounts) {
      Run r = run("python3", "-c", SHUTDOWN, m.getPath());
      assertTrue(r.ok, "shutting down " + m + ": " + r.output);
    }
    assertTrue(job.waitForCompletion(false), "job " + job.getJobID() + " failed");
    assertArrayEquals(plainOutput,
        WordCountJobs.output(cluster, new Path("/faulty-ssd/faulty")), "plain Hadoop's output");

    long[] errorsAfter = readErrors();
    int out = 0;
    for (int i = 0; i < cluster.slaves().size(); i++) {
      MpCacheSlave s = cluster.slaves().get(i);
      DirState dir = s.getStore().volumes().get(0);
      long failedReads = errorsAfter[i] - errorsBefore[i];
      System.out.println("Slave " + i + ": " + failedReads + " reads failed; " + dir);
      if (dir.inService()) {
        assertTrue(failedReads <= TOLERATED, "slave " + i + " kept a directory that failed "
            + failedReads + " reads: " + dir);
        continue;
      }
      out++;
      assertTrue(dir.cause().contains("Input/output error"), dir.cause());
      // The faults that took it out, and at most one more per map task already reading it.
      assertTrue(failedReads <= TOLERATED + 1 + 6, "slave " + i + ": " + failedReads);
      for (BlockKey b : blocks(cluster, inputFile)) {
        assertEquals(-1, s.getStore().cachedLength(b), "its blocks are dropped: " + b);
      }
    }
    assertTrue(out > 0, "a directory went out of service");
    String report = await("report", r -> r.lines().filter(FaultySsdDeviceTest::namesAMount)
        .filter(l -> l.contains("out of service") && l.contains("Input/output error")).count()
        == outCount(), "the report shows it");
    assertTrue(report.contains("SSD directories out of service: "), report);

    // The operator replaces each device and refreshes. (Mounting the old one again would not
    // do: the slave's lock file keeps its shut-down file system alive, and the kernel would
    // hand that one out again.)
    for (File m : mounts) {
      String image = m.getPath() + "-new.img";
      Run loop = run("sh", "-c", "rm -f " + image + " && truncate -s 256M " + image
          + " && losetup --find --show " + image);
      assertTrue(loop.ok, loop.output);
      loops.add(loop.output.trim());
      Run again = run("sh", "-c", "mkfs.ext4 -q " + loop.output.trim() + " && umount -l "
          + m.getPath() + " && mount " + loop.output.trim() + " " + m.getPath());
      assertTrue(again.ok, again.output);
    }
    AdminCliRun refresh = AdminCliRun.run(cluster.conf(), "refresh");
    assertEquals(0, refresh.code, refresh.err);
    assertTrue(refresh.out.contains("SSD directories returned to service on: "), refresh.out);
    await("report", r -> r.lines().filter(FaultySsdDeviceTest::namesAMount)
        .filter(l -> l.contains(" in service") && !l.contains("out of service")).count()
        == mounts.size(), "every directory is back in service");
    for (MpCacheSlave s : cluster.slaves()) {
      assertTrue(s.getStore().volumes().get(0).inService(), s.getStore().volumes().toString());
    }
    readUntilCached(cluster, inputFile);
  }

  /** Whether a line of the report is a row of one of the test's SSD directories. */
  private static boolean namesAMount(String line) {
    return mounts.stream().anyMatch(m -> line.contains(m.getAbsolutePath()));
  }

  private static long outCount() {
    return cluster.slaves().stream()
        .filter(s -> !s.getStore().volumes().get(0).inService()).count();
  }

  private static long[] readErrors() {
    long[] out = new long[cluster.slaves().size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = cluster.slaves().get(i).counters().getReadErrors();
    }
    return out;
  }

  /** Runs {@code mpcache admin <command>} until {@code until} holds of its output, up to 20 s. */
  private static String await(String command, java.util.function.Predicate<String> until,
      String what) throws Exception {
    long deadline = Time.monotonicNow() + 20_000;
    while (true) {
      AdminCliRun r = AdminCliRun.run(cluster.conf(), command);
      assertEquals(0, r.code, r.err);
      if (until.test(r.out)) {
        System.out.println(r.out);
        return r.out;
      }
      assertFalse(Time.monotonicNow() > deadline, what + ":\n" + r.out);
      Thread.sleep(200);
    }
  }

  /** A command's outcome and its output (stdout and stderr). */
  private record Run(boolean ok, String output) {
  }

  private static Run run(String... command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    boolean ok = p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
    return new Run(ok, output);
  }
}
