package org.mpcache.e2e;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.mpcache.minicluster.MiniMpCacheCluster;
import org.mpcache.hdfs.MpCacheFileSystem;

/**
 * Hadoop's FileSystem contract bound to mpCache's hdfs:// FileSystem on an embedded cluster
 * ({@link MpCacheContractCluster}), so Hadoop's own create, open, seek and unbuffer contract tests
 * run through the cache.
 */
final class MpCacheContract extends AbstractFSContract {
  private final MiniMpCacheCluster cluster;
  private final boolean warm;

  /**
   * @param cluster the running cluster whose hdfs:// FileSystem the tests use
   * @param warm whether every file is read once before a test opens it, so the test's reads are
   *     served from the cache rather than filling it
   */
  MpCacheContract(Configuration conf, MiniMpCacheCluster cluster, boolean warm) {
    super(conf);
    this.cluster = cluster;
    this.warm = warm;
    addConfResource("contract/mpcache.xml");
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
}
