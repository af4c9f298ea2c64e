package org.mpcache.hdfs;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.mpcache.common.SlaveRendezvous;
import org.mpcache.common.proto.MpCacheProtos.SlaveInfoProto;

/**
 * Chooses which slave a client asks for a block. The cache sits beside the DataNodes: a slave that
 * declared the DataNode it sits beside is a candidate for the blocks that DataNode holds; a slave
 * that did not is matched by host. Among candidates, one on the reader's own host is preferred
 * (the data-local case of the paper), and ties are broken by rendezvous hashing of the block id,
 * so every reader of a block asks the same slave and finds what an earlier reader cached there.
 * With no candidate beside a replica, a slave on the reader's host is used.
 *
 * <p>Pure and stateless; thread-safe.
 */
public final class SlaveSelector {

  /**
   * Where one replica of a block lives.
   *
   * @param xferAddress the DataNode's {@code ip:xferPort}
   * @param hostXferAddress the DataNode's {@code hostname:xferPort}
   */
  public record Replica(String xferAddress, String hostXferAddress, String hostName,
      String ipAddress) {
  }

  private SlaveSelector() {
  }

  /**
   * @param slaves the live slaves
   * @param replicas the block's replicas
   * @param localHosts the names and addresses of the reader's host
   * @param blockId the block, for the tie-break
   * @param excluded slave ids not to choose (recently faulty)
   */
  public static Optional<SlaveInfoProto> choose(List<SlaveInfoProto> slaves,
      Collection<Replica> replicas, Set<String> localHosts, long blockId, Set<String> excluded) {
    SlaveInfoProto best = null;
    int bestRank = 0;
    long bestHash = 0;
    for (SlaveInfoProto s : slaves) {
      if (excluded.contains(s.getSlaveId())) {
        continue;
      }
      boolean local = localHosts.contains(s.getHost());
      boolean beside = besideReplica(s, replicas);
      int rank = beside ? (local ? 3 : 2) : (local ? 1 : 0);
      if (rank == 0) {
        continue;
      }
      long hash = SlaveRendezvous.score(blockId, s.getSlaveId());
      if (best == null || rank > bestRank || rank == bestRank && hash > bestHash) {
        best = s;
        bestRank = rank;
        bestHash = hash;
      }
    }
    return Optional.ofNullable(best);
  }

  private static boolean besideReplica(SlaveInfoProto s, Collection<Replica> replicas) {
    for (Replica r : replicas) {
      if (s.hasDatanodeAddress() && !s.getDatanodeAddress().isEmpty()) {
        if (s.getDatanodeAddress().equals(r.xferAddress())
            || s.getDatanodeAddress().equals(r.hostXferAddress())) {
          return true;
        }
      } else if (s.getHost().equals(r.hostName()) || s.getHost().equals(r.ipAddress())) {
        return true;
      }
    }
    return false;
  }
}
