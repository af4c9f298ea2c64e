package org.mpcache.benchmarks.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The evaluation's placement spreads a dataset's single replicas over the DataNodes in turn,
 * where HDFS's default, with every DataNode on one address, puts them wherever its random pick
 * of the writer's node falls.
 */
class TurnTakingPlacementTest {
  private static final int BLOCK = 1 << 20;

  @Test
  void write_eightBlocksOnTwoDataNodes_fourOnEach(@TempDir Path dir) throws Exception {
    Configuration conf = new Configuration();
    conf.setLong(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, BLOCK);
    conf.setInt(DFSConfigKeys.DFS_REPLICATION_KEY, 1);
    conf.set(DFSConfigKeys.DFS_BLOCK_REPLICATOR_CLASSNAME_KEY,
        TurnTakingPlacement.class.getName());
    MiniDFSCluster dfs = new MiniDFSCluster.Builder(conf, new File(dir.toFile(), "dfs"))
        .numDataNodes(2).build();
    try {
      dfs.waitActive();
      FileSystem fs = dfs.getFileSystem();
      Map<String, Integer> blocksPerNode = new HashMap<>();
      for (String name : List.of("/data/a", "/data/b")) {
        org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(name);
        try (FSDataOutputStream out = fs.create(p)) {
          out.write(new byte[4 * BLOCK]);
        }
        for (BlockLocation l : fs.getFileBlockLocations(p, 0, 4L * BLOCK)) {
          assertEquals(1, l.getNames().length, "replicas of a block at " + l.getOffset());
          blocksPerNode.merge(l.getNames()[0], 1, Integer::sum);
        }
      }
      assertEquals(2, blocksPerNode.size(), "DataNodes holding blocks: " + blocksPerNode);
      for (int n : blocksPerNode.values()) {
        assertEquals(4, n, "blocks per DataNode: " + blocksPerNode);
      }
    } finally {
      dfs.shutdown();
    }
  }
}
