package org.mpcache.e2e;

import java.io.File;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.mpcache.benchmarks.cluster.MiniMpCacheCluster;
import org.mpcache.hdfs.ClientConfigKeys;
import org.mpcache.hdfs.MpCacheFileSystem;

/**
 * Hadoop's FileSystem contract bound to mpCache's hdfs:// FileSystem on an embedded cluster
 * (HDFS, a master, two slaves), so Hadoop's own open and seek contract tests run through the
 * cache. Small blocks make the contract's files span several cached blocks.
 */
final class MpCacheContract extends AbstractFSContract {
  private static MiniMpCacheCluster cluster;
  private final boolean warm;

  /**
   * @param warm whether every file is read once before a test opens it, so the test's reads are
   *     served from the cache rather than filling it
   */
  MpCacheContract(Configuration conf, boolean warm) {
    super(conf);
    this.warm = warm;
    addConfResource("contract/mpcache.xml");
  }

  static synchronized void createCluster() throws IOException {
    cluster = new MiniMpCacheCluster.Builder(new File("target/e2e/contract"))
        .blockSize(64 * 1024).set(ClientConfigKeys.FILL_MIN_BYTES_KEY, "0")
        .set("dfs.namenode.fs-limits.min-block-size", "1024").build();
  }

  static synchronized void destroyCluster() {
    if (cluster != null) {
      cluster.close();
      cluster = null;
    }
  }

  @Override
  public FileSystem getTestFileSystem() throws IOException {
    Configuration conf = cluster.conf();
    if (warm) {
      conf.setClass("fs.hdfs.impl", WarmingMpCacheFileSystem.class, FileSystem.class);
    }
    FileSystem fs = FileSystem.get(cluster.dfs().getURI(), conf);
    if (!(fs instanceof MpCacheFileSystem)) {
      throw new IllegalStateException("Expected the mpCache FileSystem, got " + fs.getClass());
    }
    return fs;
  }

  @Override
  public String getScheme() {
    return "hdfs";
  }

  @Override
  public Path getTestPath() {
    return new Path("/test");
  }

  /** The bytes slaves served from their caches so far. */
  static long bytesFromCache() {
    return cluster.totals().getBytesFromCache();
  }
}
