package org.mpcache.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.e2e.ClusterFiles.SMALL_BLOCK;
import static org.mpcache.e2e.ClusterFiles.data;

import java.io.File;
import java.io.IOException;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.mpcache.common.Waits;
import org.mpcache.minicluster.MiniMpCacheCluster;

/**
 * An embedded cluster built over the directory of an earlier one starts with empty caches, as a
 * MiniDFSCluster starts with an empty file system: blocks the earlier slaves cached would name a
 * NameNode that is gone, and would fill the caches and the counters of the new cluster's tests.
 */
class MiniClusterFormatTest {
  private static final File DIR = new File("target/e2e/format");

  private static MiniMpCacheCluster build() throws IOException {
    return new MiniMpCacheCluster.Builder(DIR).dataNodes(1).blockSize(SMALL_BLOCK).build();
  }

  @Test
  void build_overAnEarlierClustersDirectory_startsWithEmptyCaches() throws Exception {
    FileUtil.fullyDelete(DIR);
    Path p = new Path("/format/data");
    try (MiniMpCacheCluster first = build()) {
      ClusterFiles.write(first, p, data(31, 2 * SMALL_BLOCK));
      ClusterFiles.readAll(first, p);
      Waits.waitFor(() -> first.slaves().get(0).cachedBlocks().size() == 2,
          "the first cluster's slave to cache both blocks");
    }
    try (MiniMpCacheCluster fresh = build()) {
      assertTrue(fresh.slaves().get(0).cachedBlocks().isEmpty(),
          "the earlier cluster's blocks: " + fresh.slaves().get(0).cachedBlocks());
    }
  }
}
