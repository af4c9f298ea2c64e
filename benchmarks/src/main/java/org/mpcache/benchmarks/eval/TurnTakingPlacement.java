package org.mpcache.benchmarks.eval;

import java.util.Comparator;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.AddBlockFlag;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicyDefault;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.net.Node;
import org.apache.hadoop.net.NodeBase;

/**
 * The evaluation cluster's block placement: HDFS's default policy, with each new block's first
 * replica on the DataNodes in turn. Every DataNode of the embedded cluster shares one address, so
 * HDFS can neither place a block beside its writer nor send a reader to the replica on its own
 * node; it picks among equals at random, and a dataset's blocks, or a job's reads, often land on
 * one node's HDD while the other's idles. On a real cluster the blocks of a file spread over many
 * nodes and map tasks read the replica on their own disk. With one replica per block (the
 * evaluation's setting) placed in turn, each node's HDD holds an equal share of every dataset
 * and every read of a block, the map's and the fill's after it, goes to the one disk that holds
 * it.
 */
public final class TurnTakingPlacement extends BlockPlacementPolicyDefault {
  private final AtomicLong next = new AtomicLong();

  @Override
  public DatanodeStorageInfo[] chooseTarget(String srcPath, int numOfReplicas, Node writer,
      List<DatanodeStorageInfo> chosen, boolean returnChosenNodes, Set<Node> excludedNodes,
      long blocksize, BlockStoragePolicy storagePolicy, EnumSet<AddBlockFlag> flags) {
    return super.chooseTarget(srcPath, numOfReplicas, turn(writer, chosen), chosen,
        returnChosenNodes, excludedNodes, blocksize, storagePolicy, flags);
  }

  @Override
  public DatanodeStorageInfo[] chooseTarget(String srcPath, int numOfReplicas, Node writer,
      List<DatanodeStorageInfo> chosen, boolean returnChosenNodes, Set<Node> excludedNodes,
      long blocksize, BlockStoragePolicy storagePolicy, EnumSet<AddBlockFlag> flags,
      EnumMap<StorageType, Integer> storageTypes) {
    return super.chooseTarget(srcPath, numOfReplicas, turn(writer, chosen), chosen,
        returnChosenNodes, excludedNodes, blocksize, storagePolicy, flags, storageTypes);
  }

  /**
   * The DataNode whose turn it is, as the writer HDFS places a new block's first replica beside;
   * the given writer when replicas are already chosen (a pipeline's recovery or re-replication).
   */
  private Node turn(Node writer, List<DatanodeStorageInfo> chosen) {
    if (chosen != null && !chosen.isEmpty()) {
      return writer;
    }
    List<Node> nodes = clusterMap.getLeaves(NodeBase.ROOT);
    if (nodes.isEmpty()) {
      return writer;
    }
    nodes.sort(Comparator.comparing(Node::getName));
    return nodes.get((int) (next.getAndIncrement() % nodes.size()));
  }
}
