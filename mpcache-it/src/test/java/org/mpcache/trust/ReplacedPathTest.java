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
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.io.IOUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mpcache.hdfs.ClientConfigKeys;
import org.mpcache.hdfs.MpCacheFileSystem;
import org.mpcache.minicluster.MiniMpCacheCluster;

/**
 * A path replaced (renamed over) while a reader opens it never gets one file's bytes cached under
 * the other file's block: the reader gets the bytes of the file it opened, and every later
 * reader of the new file gets the new file's bytes, from HDFS or from the cache.
 */
class ReplacedPathTest {
  private static final int BLOCK = 1 << 20;
  private static MiniMpCacheCluster cluster;

  /**
   * Replaces {@link #target} with {@link #replacement} the first time this client's
   * {@link DFSClient} is asked for, once {@code super.open} has opened the original file: the
   * window between opening a stream and reading the file's metadata again by path.
   */
  public static final class ReplacingFileSystem extends MpCacheFileSystem {
    static volatile Path target;
    static volatile Path replacement;
    private boolean opening;

    @Override
    public FSDataInputStream open(Path f, int bufferSize) throws IOException {
      opening = true;
      try {
        return super.open(f, bufferSize);
      } finally {
        opening = false;
      }
    }

    @Override
    public DFSClient getClient() {
      if (opening && target != null) {
        Path t = target;
        target = null;
        try {
          ((DistributedFileSystem) cluster.plainFileSystem()).rename(replacement, t,
              Options.Rename.OVERWRITE);
        } catch (IOException e) {
          throw new IllegalStateException("could not replace " + t, e);
        }
      }
      return super.getClient();
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
    assertEquals(null, ReplacingFileSystem.target, "the path was replaced during open");
    try (FileSystem fs = cluster.fileSystem()) {
      for (int i = 0; i < 2; i++) {
        assertArrayEquals(fresh, readAll(fs, p, fresh.length),
            "read " + (i + 1) + " of the new file gets the new file's bytes");
      }
    }
  }
}
