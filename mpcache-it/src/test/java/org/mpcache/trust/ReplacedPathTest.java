package org.mpcache.trust;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.io.IOException;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.test.MetricsAsserts;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mpcache.hdfs.ClientConfigKeys;
import org.mpcache.hdfs.MpCacheFileSystem;
import org.mpcache.minicluster.MiniMpCacheCluster;

/**
 * A path replaced (renamed over) while a reader opens it never gets one file's bytes cached under
 * the other file's block: the reader gets the bytes of the file it opened, and every later
 * reader of the new file gets the new file's bytes, from HDFS or from the cache. An open asks the
 * NameNode for the file's blocks once, as plain HDFS's does: the caching stream keys its blocks by
 * those the open fetched.
 */
class ReplacedPathTest {
  private static final int BLOCK = 1 << 20;
  private static MiniMpCacheCluster cluster;

  /**
   * Replaces {@link #target} with {@link #replacement} once, right after {@code super.open} has
   * opened the original file and before the stream is first read: the caching stream must key
   * its blocks by the file it opened, not by what the path names by then.
   */
  public static final class ReplacingFileSystem extends MpCacheFileSystem {
    static volatile Path target;
    static volatile Path replacement;

    @Override
    public FSDataInputStream open(Path f, int bufferSize) throws IOException {
      FSDataInputStream in = super.open(f, bufferSize);
      Path t = target;
      if (t != null) {
        target = null;
        ((DistributedFileSystem) cluster.plainFileSystem()).rename(replacement, t,
            Options.Rename.OVERWRITE);
      }
      return in;
    }
  }

  @BeforeAll
  static void start() throws IOException {
    cluster = new MiniMpCacheCluster.Builder(new File("target/e2e/replaced-path"))
        .blockSize(BLOCK).build();
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static byte[] data(long seed) {
    byte[] b = new byte[2 * BLOCK];
    new Random(seed).nextBytes(b);
    return b;
  }

  private static void write(Path p, byte[] content) throws IOException {
    try (FSDataOutputStream out = cluster.plainFileSystem().create(p, true)) {
      out.write(content);
    }
  }

  private static byte[] readAll(FileSystem fs, Path p, int length) throws IOException {
    try (FSDataInputStream in = fs.open(p)) {
      byte[] b = new byte[length];
      IOUtils.readFully(in, b, 0, length);
      return b;
    }
  }

  @Test
  void open_pathRenamedOverWhileOpening_neverCachesOldBytesUnderTheNewBlock() throws Exception {
    Path p = new Path("/replaced/data");
    Path next = new Path("/replaced/next");
    byte[] old = data(1);
    byte[] fresh = data(2);
    write(p, old);
    write(next, fresh);

    Configuration conf = cluster.conf();
    conf.setClass("fs.hdfs.impl", ReplacingFileSystem.class, FileSystem.class);
    ReplacingFileSystem.replacement = next;
    ReplacingFileSystem.target = p;
    try (FileSystem racing = FileSystem.newInstance(cluster.plainFileSystem().getUri(), conf)) {
      assertArrayEquals(old, readAll(racing, p, old.length),
          "the reader gets the bytes of the file it opened");
    }
    assertEquals(null, ReplacingFileSystem.target, "the path was replaced after the open");
    try (FileSystem fs = cluster.fileSystem()) {
      for (int i = 0; i < 2; i++) {
        assertArrayEquals(fresh, readAll(fs, p, fresh.length),
            "read " + (i + 1) + " of the new file gets the new file's bytes");
      }
    }
  }

  /** Calls to the NameNode's getBlockLocations since it started. */
  private static long blockLocationCalls() {
    return MetricsAsserts.getLongCounter("GetBlockLocations",
        MetricsAsserts.getMetrics("NameNodeActivity"));
  }

  /** The fewest getBlockLocations calls one open of {@code p} made, over three opens. */
  private static long callsPerOpen(FileSystem fs, Path p) throws IOException {
    long fewest = Long.MAX_VALUE;
    for (int i = 0; i < 3; i++) {
      long before = blockLocationCalls();
      fs.open(p).close();
      fewest = Math.min(fewest, blockLocationCalls() - before);
    }
    return fewest;
  }

  @Test
  void open_asksTheNameNodeForTheBlocksOnceAsPlainHdfsDoes() throws Exception {
    Path p = new Path("/replaced/once");
    write(p, data(3));
    long plain = callsPerOpen(cluster.plainFileSystem(), p);
    try (FileSystem fs = cluster.fileSystem()) {
      assertEquals(1, plain, "plain HDFS's open");
      assertEquals(plain, callsPerOpen(fs, p), "the caching FileSystem's open");
    }
  }
}
