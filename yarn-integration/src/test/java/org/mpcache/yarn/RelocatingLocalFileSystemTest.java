package org.mpcache.yarn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapTask;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.common.protocolPB.LocalizedGrant;
import org.mpcache.common.protocolPB.LocalizedJob;
import org.mpcache.common.protocolPB.LocalizedProtocol;

/**
 * A localized write that meets a full SSD after the free-space check: the SSD dir is a real 2 MB
 * tmpfs (mounting needs root; skipped otherwise) that a ballast file fills between the grant and
 * the write, as another process would. The write moves to the HDD dir within the attempt.
 */
class RelocatingLocalFileSystemTest {
  private static final int MB = 1024 * 1024;
  private static final String APP = "application_1_0001";
  private static final String ATTEMPT = "attempt_1_0001_m_000000_0";

  @TempDir
  File root;
  private File ssd;
  private File hdd;
  private File appDir;
  private JobConf conf;
  private SsdLocalDirAllocator allocator;
  private boolean mounted;

  @BeforeEach
  void setUp() throws Exception {
    ssd = new File(root, "ssd-tmpfs");
    hdd = new File(root, "hdd");
    assertTrue(ssd.mkdirs() && hdd.mkdirs());
    mounted = SsdLocalDirAllocatorTest.run("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs",
        ssd.getAbsolutePath());
    assumeTrue(mounted, "needs root to mount a 2 MB tmpfs as the SSD dir");
    appDir = new File(ssd, "usercache/u/appcache/" + APP);
    assertTrue(appDir.mkdirs());
    conf = new JobConf(false);
    conf.set(YarnIntegrationConfigKeys.HDD_LOCAL_DIRS_KEY, hdd.getAbsolutePath());
    conf.set(MRJobConfig.TASK_ATTEMPT_ID, ATTEMPT);
    conf.setNumReduceTasks(1);
    LocalizedProtocol slave = mock(LocalizedProtocol.class);
    when(slave.requestSpace(anyString(), anyString(), anyString(), anyLong(),
        any(LocalizedJob.class))).thenReturn(LocalizedGrant.granted(ssd.getAbsolutePath()));
    allocator = new SsdLocalDirAllocator(new LocalizedSpaceClient(slave, APP,
        "container_1_0001_01_000002", ATTEMPT, 1.0, List.of(ssd.getAbsolutePath()),
        List.of(appDir.getAbsolutePath()), conf, 0, LocalizedSpaceClient.UsableSpace.REAL));
  }

  @AfterEach
  void tearDown() throws Exception {
    if (mounted) {
      SsdLocalDirAllocatorTest.run("umount", ssd.getAbsolutePath());
    }
  }

  /** Fills the SSD's filesystem but for about 256 KB, as another process would. */
  private void fillSsd() throws IOException {
    Files.write(new File(ssd, "ballast").toPath(), new byte[2 * MB - 256 * 1024]);
  }

  private static byte[] data(int length) {
    byte[] b = new byte[length];
    new Random(3).nextBytes(b);
    return b;
  }

  private static byte[] read(FileSystem fs, Path p) throws IOException {
    try (FSDataInputStream in = fs.open(p)) {
      byte[] b = new byte[(int) fs.getFileStatus(p).getLen()];
      IOUtils.readFully(in, b, 0, b.length);
      return b;
    }
  }

  @Test
  void create_ssdFillsAfterTheCheck_fileMovesToHddWithEveryByte() throws Exception {
    String relative = ATTEMPT + "_spill_0.out";
    Path onSsd = allocator.getLocalPathForWrite(relative, MB, conf);
    assertEquals(new Path(appDir.getAbsolutePath(), relative), onSsd, "granted and checked");
    List<Path> moves = new ArrayList<>();
    RelocatingLocalFileSystem fs = new RelocatingLocalFileSystem(allocator, conf,
        (from, to) -> moves.add(to));
    fillSsd();

    byte[] content = data(MB);
    // What MapTask does with a spill path: create it and write the whole spill, in pieces.
    try (FSDataOutputStream out = fs.create(onSsd)) {
      for (int off = 0; off < content.length; off += 4096) {
        out.write(content, off, 4096);
      }
    }

    File onHdd = new File(hdd, relative);
    assertEquals(List.of(new Path(onHdd.getAbsolutePath())), moves);
    assertFalse(new File(onSsd.toUri().getPath()).exists(), "the partial SSD file is deleted");
    assertArrayEquals(content, Files.readAllBytes(onHdd.toPath()), "every byte on the HDD");
    assertArrayEquals(content, read(fs, onSsd), "the SSD path still reads the file");
    assertTrue(fs.delete(onSsd, false));
    assertFalse(onHdd.exists(), "deleting the SSD path deletes the moved file");
  }

  @Test
  void create_reduceMergeThroughLocalFileSystem_movesAndKeepsChecksumsReadable()
      throws Exception {
    // The reduce's mergers write through a LocalFileSystem (with .crc files) over this one.
    org.apache.hadoop.fs.LocalFileSystem local = new org.apache.hadoop.fs.LocalFileSystem(
        new RelocatingLocalFileSystem(allocator, conf, (from, to) -> { }));
    local.initialize(java.net.URI.create("file:///"), conf);
    Path onSsd = allocator.getLocalPathForWrite("output/" + ATTEMPT + "/map_0.out.merged", MB,
        conf);
    fillSsd();
    byte[] content = data(MB);
    try (FSDataOutputStream out = local.getRaw().create(onSsd)) {
      out.write(content);
    }
    assertEquals(MB, local.getFileStatus(onSsd).getLen());
    assertArrayEquals(content, read(local.getRaw(), onSsd));
  }

  @Test
  void followMoved_finalOutputMoved_indexWrittenBesideItOnTheHdd() throws Exception {
    SsdMapOutputFile names = new SsdMapOutputFile(allocator);
    names.setConf(conf);
    Path out = names.getOutputFileForWrite(MB);
    Path index = names.getOutputIndexFileForWrite(32);
    RelocatingLocalFileSystem fs = new RelocatingLocalFileSystem(allocator, conf,
        names::followMoved);
    fillSsd();
    try (FSDataOutputStream o = fs.create(out)) {
      o.write(data(MB));
    }
    // Hadoop writes the index through the JVM's own local file system, at the path it got first.
    byte[] indexBytes = data(32);
    try (FSDataOutputStream o = FileSystem.getLocal(conf).getRaw().create(index)) {
      o.write(indexBytes);
    }
    names.settleMovedIndex();

    File hddOutput = new File(hdd, "output/" + ATTEMPT);
    assertTrue(new File(hddOutput, "file.out").isFile());
    assertArrayEquals(indexBytes, Files.readAllBytes(new File(hddOutput, "file.out.index")
        .toPath()), "the index beside the moved output");
    assertFalse(Files.exists(new File(index.toUri().getPath()).toPath(),
        java.nio.file.LinkOption.NOFOLLOW_LINKS), "nothing left on the SSD");
  }

  /** Pins the map output buffer's private file system field the collector replaces. */
  @Test
  void writeThrough_setsTheMapOutputBuffersFileSystem() throws Exception {
    SsdMapOutputCollector<Object, Object> collector = new SsdMapOutputCollector<>();
    RelocatingLocalFileSystem fs = new RelocatingLocalFileSystem(allocator, conf,
        (from, to) -> { });
    collector.writeThrough(fs);
    Field f = MapTask.MapOutputBuffer.class.getDeclaredField(
        SsdMapOutputCollector.FILE_SYSTEM_FIELD);
    f.setAccessible(true);
    assertNotNull(f);
    assertSame(fs, f.get(collector));
  }

  @Test
  void isNoSpace_wrappedCause_recognized() {
    assertTrue(RelocatingLocalFileSystem.isNoSpace(new RuntimeException(
        new IOException("No space left on device"))));
    assertFalse(RelocatingLocalFileSystem.isNoSpace(new IOException("Input/output error")));
  }
}
