package org.mpcache.yarn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.atLeast;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mockito.ArgumentCaptor;
import org.mpcache.common.protocolPB.LocalizedGrant;
import org.mpcache.common.protocolPB.LocalizedJob;
import org.mpcache.common.protocolPB.LocalizedProtocol;

/**
 * Where {@link SsdLocalDirAllocator} puts a file when the slave grants room but the SSD's filesystem
 * has not (on the HDDs, and without holding a grant it will not use), and what each file's grant
 * holds once it is written (what it wrote, and a map output's index beside it).
 */
class SsdLocalDirAllocatorTest {
  private static final long MB = 1024 * 1024;
  private static final String APP = "application_1_0001";
  private static final String FILE = "output/attempt_1_0001_m_000000_0/file.out";
  private static final String CONTAINER = "container_1_0001_01_000002";
  private static final String ATTEMPT = "attempt_1_0001_m_000000_0";

  @TempDir
  File root;
  private File hdd;
  private Configuration conf;
  private LocalizedProtocol slave;

  @BeforeEach
  void setUp() throws IOException {
    hdd = new File(root, "hdd");
    assertTrue(hdd.mkdirs());
    conf = new Configuration(false);
    conf.set(YarnIntegrationConfigKeys.HDD_LOCAL_DIRS_KEY, hdd.getAbsolutePath());
    slave = mock(LocalizedProtocol.class);
  }

  /** The app dir of an SSD root as the NodeManager makes it. */
  private static File appDir(File ssdRoot) {
    File d = new File(ssdRoot, "usercache/u/appcache/" + APP);
    assertTrue(d.isDirectory() || d.mkdirs());
    return d;
  }

  private SsdLocalDirAllocator allocator(List<File> ssdRoots, long margin,
      LocalizedSpaceClient.UsableSpace probe) {
    return new SsdLocalDirAllocator(new LocalizedSpaceClient(slave, APP, CONTAINER, ATTEMPT, 1.0,
        ssdRoots.stream().map(File::getAbsolutePath).toList(),
        ssdRoots.stream().map(r -> appDir(r).getAbsolutePath()).toList(), conf, margin, probe));
  }

  private void grant(File ssdRoot) throws IOException {
    when(slave.requestSpace(anyString(), anyString(), anyString(), anyLong(),
        any(LocalizedJob.class))).thenReturn(LocalizedGrant.granted(ssdRoot.getAbsolutePath()));
  }

  private void verifyRequests(int n) throws IOException {
    verify(slave, n == 0 ? never() : times(n)).requestSpace(anyString(), anyString(),
        anyString(), anyLong(), any(LocalizedJob.class));
  }

  private static boolean under(Path p, File dir) {
    return p.toUri().getPath().startsWith(dir.getAbsolutePath() + "/");
  }

  @Test
  void getLocalPathForWrite_ssdHasRoom_returnsSsdPath() throws IOException {
    File ssd = new File(root, "ssd");
    grant(ssd);
    Path p = allocator(List.of(ssd), MB, dir -> 1L << 30).getLocalPathForWrite(FILE, MB, conf);
    assertEquals(new Path(appDir(ssd).getAbsolutePath(), FILE), p);
    verifyRequests(1);
  }

  @Test
  void spill_writtenSmallerThanItsEstimate_restOfTheGrantGoesBackThenAllOnDelete()
      throws IOException {
    File ssd = new File(root, "ssd");
    grant(ssd);
    SsdLocalDirAllocator allocator = allocator(List.of(ssd), 0, dir -> 1L << 30);
    RelocatingLocalFileSystem fs = new RelocatingLocalFileSystem(allocator, conf, (a, b) -> { });
    String dir = ssd.getAbsolutePath();
    // A spill is estimated by its records before the combiner: 1 MiB asked, 100 KiB written.
    Path spill = allocator.getLocalPathForWrite("attempt_1_0001_m_000000_0_spill_0.out", MB, conf);
    try (FSDataOutputStream out = fs.create(spill)) {
      out.write(new byte[100 * 1024]);
    }
    verify(slave).returnSpace(APP, CONTAINER, ATTEMPT, dir, MB - 100 * 1024);
    // A single spill becomes the map's output by a rename; an output merged from spills deletes
    // them: the renamed file's 100 KiB go back when it is deleted under its new name.
    Path out = new Path(spill.getParent(), "file.out");
    assertTrue(fs.rename(spill, out));
    assertTrue(fs.delete(out, false));
    verify(slave).returnSpace(APP, CONTAINER, ATTEMPT, dir, 100 * 1024);
    assertFalse(fs.delete(new Path(hdd.getAbsolutePath(), "absent"), false));
    verify(slave, times(2)).returnSpace(anyString(), anyString(), anyString(), anyString(),
        anyLong());
  }

  @Test
  void spill_slaveCannotTakeTheGrantBack_writeAndDeleteStillSucceed() throws IOException {
    File ssd = new File(root, "ssd");
    grant(ssd);
    doThrow(new IOException("slave down")).when(slave).returnSpace(anyString(), anyString(),
        anyString(), anyString(), anyLong());
    SsdLocalDirAllocator allocator = allocator(List.of(ssd), 0, dir -> 1L << 30);
    RelocatingLocalFileSystem fs = new RelocatingLocalFileSystem(allocator, conf, (a, b) -> { });
    Path spill = allocator.getLocalPathForWrite("attempt_1_0001_m_000000_0_spill_0.out", MB, conf);
    try (FSDataOutputStream out = fs.create(spill)) {
      out.write(new byte[10]);
    }
    assertEquals(10, fs.getFileStatus(spill).getLen());
    assertTrue(fs.delete(spill, false));
    verify(slave).returnSpace(eq(APP), eq(CONTAINER), eq(ATTEMPT), anyString(), eq(MB - 10));
  }

  @Test
  void getLocalPathForWrite_ssdFilesystemTooFull_returnsHddPathWithoutAGrant()
      throws IOException {
    File ssd = new File(root, "ssd");
    grant(ssd);
    // The slave's accounts have room, the filesystem has not: 2 MB usable, 1 MB + 1.5 MB wanted.
    Path p = allocator(List.of(ssd), 3 * MB / 2, dir -> 2 * MB)
        .getLocalPathForWrite(FILE, MB, conf);
    assertTrue(under(p, hdd), "a file that does not fit the SSD's filesystem goes to the HDD: " + p);
    verifyRequests(0);
  }

  @Test
  void getLocalPathForWrite_grantedDirTooFull_returnsHddPath() throws IOException {
    File full = new File(root, "ssd-full");
    File roomy = new File(root, "ssd-roomy");
    grant(full);
    Map<String, Long> usable = Map.of(appDir(full).getAbsolutePath(), 0L,
        appDir(roomy).getAbsolutePath(), 1L << 30);
    Path p = allocator(List.of(full, roomy), MB, usable::get).getLocalPathForWrite(FILE, MB, conf);
    assertTrue(under(p, hdd), "the granted dir's filesystem is full: " + p);
    verifyRequests(1);
  }

  /**
   * The SSD dir on a real 2 MB tmpfs with about 256 KB left: a 1 MB file must go to, and be
   * written on, the HDD. Needs root to mount; skipped otherwise.
   */
  @Test
  void getLocalPathForWrite_realFullFilesystem_fileWrittenOnHdd() throws Exception {
    File ssd = new File(root, "ssd-tmpfs");
    assertTrue(ssd.mkdirs());
    assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", ssd.getAbsolutePath()),
        "needs root to mount a 2 MB tmpfs as the SSD dir");
    try {
      File filler = new File(appDir(ssd), "filler");
      Files.write(filler.toPath(), new byte[(int) (2 * MB - 256 * 1024)]);
      grant(ssd);
      Path p = allocator(List.of(ssd), 64 * 1024, LocalizedSpaceClient.UsableSpace.REAL)
          .getLocalPathForWrite(FILE, MB, conf);
      File target = new File(p.toUri().getPath());
      assertTrue(target.getParentFile().isDirectory() || target.getParentFile().mkdirs());
      // What MapTask does with the path: write the whole file there.
      try (OutputStream out = Files.newOutputStream(target.toPath())) {
        out.write(new byte[(int) MB]);
      }
      assertTrue(under(p, hdd), "written on the HDD: " + p);
      verifyRequests(0);
    } finally {
      run("umount", ssd.getAbsolutePath());
    }
  }

  /** Runs {@code command}; whether it exited 0 within 30 s. Prints its output when not. */
  static boolean run(String... command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    boolean ok = p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    if (!ok) {
      System.err.println(String.join(" ", command) + ": " + output);
    }
    return ok;
  }
  /**
   * The bytes the slave holds for the attempt: what it was granted less what it was given back.
   * A map reports file.out and its index as retained when it ends; the slave warns when that is
   * more than it holds.
   */
  private long held() throws IOException {
    ArgumentCaptor<Long> asked = ArgumentCaptor.forClass(Long.class);
    verify(slave, atLeast(0)).requestSpace(anyString(), anyString(), anyString(), asked.capture(),
        any(LocalizedJob.class));
    ArgumentCaptor<Long> back = ArgumentCaptor.forClass(Long.class);
    verify(slave, atLeast(0)).returnSpace(anyString(), anyString(), anyString(), anyString(),
        back.capture());
    return asked.getAllValues().stream().mapToLong(Long::longValue).sum()
        - back.getAllValues().stream().mapToLong(Long::longValue).sum();
  }

  private SsdMapOutputFile mapOutputFiles(SsdLocalDirAllocator allocator, int reduces) {
    JobConf job = new JobConf(conf);
    job.setNumReduceTasks(reduces);
    job.set(MRJobConfig.TASK_ATTEMPT_ID, ATTEMPT);
    SsdMapOutputFile files = new SsdMapOutputFile(allocator);
    files.setConf(job);
    return files;
  }

  private static void write(RelocatingLocalFileSystem fs, Path p, int bytes) throws IOException {
    try (FSDataOutputStream out = fs.create(p)) {
      out.write(new byte[bytes]);
    }
  }

  @Test
  void onlySpill_renamedToTheOutput_grantHoldsTheOutputAndItsIndex() throws IOException {
    File ssd = new File(root, "ssd");
    grant(ssd);
    SsdLocalDirAllocator allocator = allocator(List.of(ssd), 0, dir -> 1L << 30);
    RelocatingLocalFileSystem fs = new RelocatingLocalFileSystem(allocator, conf, (a, b) -> { });
    SsdMapOutputFile files = mapOutputFiles(allocator, 2);
    int index = 2 * 24 + 8;
    // MapTask's single-spill path: the spill, smaller than its estimate, is renamed to file.out
    // and the index is written beside it from memory.
    Path spill = files.getSpillFileForWrite(0, MB);
    write(fs, spill, 100 * 1024);
    Path out = files.getOutputFileForWriteInVolume(spill);
    assertTrue(fs.mkdirs(out.getParent()));
    assertTrue(fs.rename(spill, out));
    write(fs, files.getOutputIndexFileForWriteInVolume(spill), index);
    assertEquals(100 * 1024 + index, held());
  }

  @Test
  void mergedOutput_writtenSmallerThanItsEstimate_grantHoldsTheOutputAndItsIndex()
      throws IOException {
    File ssd = new File(root, "ssd");
    grant(ssd);
    SsdLocalDirAllocator allocator = allocator(List.of(ssd), 0, dir -> 1L << 30);
    RelocatingLocalFileSystem fs = new RelocatingLocalFileSystem(allocator, conf, (a, b) -> { });
    SsdMapOutputFile files = mapOutputFiles(allocator, 1);
    Path out = files.getOutputFileForWrite(MB);
    write(fs, out, 200 * 1024);
    write(fs, files.getOutputIndexFileForWrite(32), 32);
    assertEquals(200 * 1024 + 32, held());
  }
  /** Writes {@code bytes} of a pattern to {@code p} in 64 KiB writes, as a spill's buffer does. */
  private static byte[] writeInChunks(RelocatingLocalFileSystem fs, Path p, int bytes)
      throws IOException {
    byte[] all = new byte[bytes];
    for (int i = 0; i < bytes; i++) {
      all[i] = (byte) (i * 31 + 7);
    }
    try (FSDataOutputStream out = fs.create(p)) {
      for (int off = 0; off < bytes; off += 64 * 1024) {
        out.write(all, off, Math.min(64 * 1024, bytes - off));
      }
    }
    return all;
  }

  private static byte[] read(RelocatingLocalFileSystem fs, Path p) throws IOException {
    try (InputStream in = fs.open(p)) {
      return in.readAllBytes();
    }
  }

  /** A map's spill as written: its file system, its path and the bytes written. */
  private record Spilled(RelocatingLocalFileSystem fs, Path path, byte[] content) {
  }

  /**
   * Writes a spill estimated at 10 MiB (its records before the combiner) and 3 MiB long, asking
   * for room in 1 MiB steps, with {@code ssd} as the slave's SSD dir.
   */
  private Spilled spill3MibEstimatedAt10(File ssd) throws IOException {
    conf.setLong(YarnIntegrationConfigKeys.SPILL_STEP_BYTES_KEY, MB);
    SsdLocalDirAllocator allocator = allocator(List.of(ssd), 0, dir -> 1L << 30);
    RelocatingLocalFileSystem fs = new RelocatingLocalFileSystem(allocator, conf, (a, b) -> { });
    SsdMapOutputFile files = mapOutputFiles(allocator, 1);
    files.spillsWrittenThroughRelocating();
    Path spill = files.getSpillFileForWrite(0, 10 * MB);
    return new Spilled(fs, spill, writeInChunks(fs, spill, 3 * (int) MB));
  }

  @Test
  void spill_writtenPastItsFirstStep_growsInStepsNotByItsEstimate() throws IOException {
    File ssd = new File(root, "ssd");
    grant(ssd);
    Spilled s = spill3MibEstimatedAt10(ssd);

    assertTrue(under(s.path(), ssd), "on the SSD: " + s.path());
    assertArrayEquals(s.content(), read(s.fs(), s.path()));
    ArgumentCaptor<Long> asked = ArgumentCaptor.forClass(Long.class);
    verify(slave, times(3)).requestSpace(anyString(), anyString(), anyString(), asked.capture(),
        any(LocalizedJob.class));
    // The first step, then as much again as held each time the spill outgrew it.
    assertEquals(List.of(MB + 32, MB + 32, 2 * MB + 64), asked.getAllValues());
    assertEquals(3 * MB + 32, held(), "the spill and its index");
  }

  @Test
  void spill_refusedRoomToGrow_movesToTheHddWithEveryByteAndGivesItsGrantBack()
      throws IOException {
    File ssd = new File(root, "ssd");
    when(slave.requestSpace(anyString(), anyString(), anyString(), anyLong(),
        any(LocalizedJob.class))).thenReturn(LocalizedGrant.granted(ssd.getAbsolutePath()),
        LocalizedGrant.denied("no room"));
    Spilled s = spill3MibEstimatedAt10(ssd);

    assertTrue(under(s.path(), ssd), "named on the SSD: " + s.path());
    assertFalse(new File(s.path().toUri().getPath()).exists(), "no longer on the SSD");
    File moved = s.fs().pathToFile(s.path());
    assertTrue(under(new Path(moved.getAbsolutePath()), hdd), "moved to the HDD: " + moved);
    assertArrayEquals(s.content(), read(s.fs(), s.path()));
    // The first step (1 MiB and the index's 32 bytes) goes back; the refused one was never held.
    verify(slave).returnSpace(APP, CONTAINER, ATTEMPT, ssd.getAbsolutePath(), MB + 32);
  }

  @Test
  void spill_noStep_asksForItsWholeEstimateUpFront() throws IOException {
    File ssd = new File(root, "ssd");
    grant(ssd);
    conf.setLong(YarnIntegrationConfigKeys.SPILL_STEP_BYTES_KEY, 0);
    SsdLocalDirAllocator allocator = allocator(List.of(ssd), 0, dir -> 1L << 30);
    SsdMapOutputFile files = mapOutputFiles(allocator, 1);
    files.spillsWrittenThroughRelocating();
    files.getSpillFileForWrite(0, 10 * MB);
    verify(slave).requestSpace(anyString(), anyString(), anyString(), eq(10 * MB + 32),
        any(LocalizedJob.class));
  }

  @Test
  void client_negativeStep_errorNamesTheKey() {
    conf.setLong(YarnIntegrationConfigKeys.SPILL_STEP_BYTES_KEY, -1);
    IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class, () -> allocator(List.of(new File(root, "ssd")), 0,
            dir -> 1L << 30));
    assertTrue(e.getMessage().contains(YarnIntegrationConfigKeys.SPILL_STEP_BYTES_KEY),
        e.getMessage());
  }
}
