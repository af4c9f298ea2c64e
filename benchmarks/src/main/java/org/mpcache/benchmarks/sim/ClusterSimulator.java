package org.mpcache.benchmarks.sim;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.mpcache.common.BlockKey;
import org.mpcache.master.arbitrator.BlockAccess;
import org.mpcache.master.arbitrator.CacheDecision;
import org.mpcache.master.arbitrator.CachePolicy;

/**
 * Replays a job trace on a simulated cluster of slaves through a real {@link CachePolicy}, the way
 * the daemons drive it: every block a job reads is looked up on the slave beside one of its
 * replicas (chosen by rendezvous hashing, as clients choose); a hit is reported, a miss asks the
 * policy and the slave carries out the decision (evict, then cache); after each job the evictions
 * queued for every slave are delivered, as heartbeats would.
 *
 * <p>Cost model (docs/simulator.md): a block from SSD costs {@code ssd/hdd} of what it costs from
 * HDD in the I/O share of the Map phase; the rest of the Map phase and the Reduce phase are
 * unchanged (the simulator models the Input Cache only). Not thread-safe.
 */
public final class ClusterSimulator {

  /** The simulated cluster. */
  public static final class Config {
    final int nodes;
    final long capacityBytesPerNode;
    final long blockBytes;
    final int replicas;
    final double hddBytesPerSecond;
    final double ssdBytesPerSecond;
    final double ioShare;

    /**
     * @param ioShare the share of a job's Map phase spent reading input on Hadoop
     */
    public Config(int nodes, long capacityBytesPerNode, long blockBytes, int replicas,
        double hddBytesPerSecond, double ssdBytesPerSecond, double ioShare) {
      if (nodes < 1 || capacityBytesPerNode < 0 || blockBytes < 1 || replicas < 1
          || !(hddBytesPerSecond > 0) || !(ssdBytesPerSecond > 0) || !(ioShare >= 0)
          || ioShare > 1) {
        throw new IllegalArgumentException("Invalid simulated cluster: nodes " + nodes
            + ", capacity " + capacityBytesPerNode + ", block " + blockBytes + ", replicas "
            + replicas + ", HDD " + hddBytesPerSecond + " B/s, SSD " + ssdBytesPerSecond
            + " B/s, I/O share " + ioShare);
      }
      this.nodes = nodes;
      this.capacityBytesPerNode = capacityBytesPerNode;
      this.blockBytes = blockBytes;
      this.replicas = Math.min(replicas, nodes);
      this.hddBytesPerSecond = hddBytesPerSecond;
      this.ssdBytesPerSecond = ssdBytesPerSecond;
      this.ioShare = ioShare;
    }

    /** The paper's platform: 7 nodes, 128 MB blocks, 3 replicas, HDD 150 MB/s, SSD 500 MB/s. */
    public static Config paper(long capacityBytesPerNode) {
      return new Config(7, capacityBytesPerNode, 128L << 20, 3, 150e6, 500e6, 0.79);
    }
  }

  private final Config config;

  public ClusterSimulator(Config config) {
    this.config = config;
  }

  public SimResult run(CachePolicy policy, List<SimJob> jobs) {
    List<Set<BlockKey>> slaves = new ArrayList<>(config.nodes);
    for (int i = 0; i < config.nodes; i++) {
      slaves.add(new HashSet<>());
    }
    long perNodeBlocks = config.capacityBytesPerNode / config.blockBytes;
    Map<String, Long> datasetIds = new HashMap<>();
    long accesses = 0;
    long hits = 0;
    long whole = 0;
    double hadoop = 0;
    double cached = 0;
    long time = 0;
    for (SimJob job : jobs) {
      long base = datasetIds.computeIfAbsent(job.dataset, d -> (long) datasetIds.size() << 24);
      int jobHits = 0;
      for (int b = 0; b < job.blocks; b++) {
        BlockKey key = new BlockKey("sim", base + b, 1);
        int node = home(key.getBlockId());
        Set<BlockKey> slave = slaves.get(node);
        String slaveId = "n" + node;
        BlockAccess a = new BlockAccess(slaveId, key, config.blockBytes, job.dataset, job.blocks,
            job.id, time++);
        accesses++;
        if (slave.contains(key)) {
          hits++;
          jobHits++;
          policy.onHit(a);
          continue;
        }
        CacheDecision d = policy.onMiss(a, (perNodeBlocks - slave.size()) * config.blockBytes);
        for (BlockKey e : d.evict()) {
          slave.remove(e);
          policy.onRemoved(slaveId, e);
        }
        if (d.admitted() && slave.size() < perNodeBlocks) {
          slave.add(key);
          policy.onCached(slaveId, key);
        }
      }
      for (int i = 0; i < config.nodes; i++) {
        for (BlockKey e : policy.pendingEvictions("n" + i)) {
          slaves.get(i).remove(e);
          policy.onRemoved("n" + i, e);
        }
      }
      if (jobHits == job.blocks) {
        whole++;
      }
      double f = jobHits / (double) job.blocks;
      double ssdFactor = config.hddBytesPerSecond / config.ssdBytesPerSecond;
      hadoop += job.mapSeconds + job.reduceSeconds;
      cached += job.mapSeconds * (config.ioShare * ((1 - f) + f * ssdFactor)
          + (1 - config.ioShare)) + job.reduceSeconds;
    }
    return new SimResult(policy.name(), config.capacityBytesPerNode, accesses, hits, jobs.size(),
        whole, (accesses - hits) * config.blockBytes, hits * config.blockBytes, hadoop, cached);
  }

  /**
   * The node whose slave serves a block: the replica with the highest rendezvous hash, as the
   * intercepting FileSystem picks among equally distant replicas. Replicas sit on consecutive
   * nodes from a hashed start, as HDFS spreads them.
   */
  int home(long blockId) {
    int first = (int) Math.floorMod(mix(blockId, 0x5bd1e995), (long) config.nodes);
    int best = first;
    long bestHash = Long.MIN_VALUE;
    for (int r = 0; r < config.replicas; r++) {
      int node = (first + r) % config.nodes;
      long h = mix(blockId, node);
      if (h > bestHash) {
        bestHash = h;
        best = node;
      }
    }
    return best;
  }

  private static long mix(long a, long b) {
    long z = a * 0x9E3779B97F4A7C15L + b;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
