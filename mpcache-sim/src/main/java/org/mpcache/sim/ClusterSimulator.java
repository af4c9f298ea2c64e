package org.mpcache.sim;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.mpcache.common.BlockKey;
import org.mpcache.master.arbitrator.BlockAccess;
import org.mpcache.master.arbitrator.CacheDecision;
import org.mpcache.master.arbitrator.CachePolicy;
import org.mpcache.master.arbitrator.WriteRateMeter;

/**
 * Replays a job trace on a simulated cluster of slaves through a real {@link CachePolicy}, the way
 * the daemons drive it: every block a job reads is looked up on the slave beside one of its
 * replicas (chosen by rendezvous hashing, as clients choose); a hit is reported, a miss asks the
 * policy and the slave carries out the decision (evict, then cache); after each job the evictions
 * queued for every slave are delivered, as heartbeats would. Each dataset's blocks get
 * consecutive ids the first time it is read, as the NameNode hands them out; every block has the
 * configured size. A job reads the first {@link SimJob#blocks} of its dataset; the policy is told
 * the dataset's size, as a reader tells it the file's.
 *
 * <p>Measures block hits, jobs whose whole input was cached (all-or-nothing), bytes read from HDD
 * and SSD, bytes written to the SSDs (every block a slave stores), and the estimated job times of
 * {@link CostModel} with the cache and without.
 *
 * <p>Simulated time, for a write budget, is the estimated job times with the cache run back to
 * back: jobs of the paper's mix carry no submit times, and a job on the simulated cluster uses
 * every node. A budget is cluster-wide, as the master applies it ({@link WriteRateMeter} over
 * every slave against the budget times the nodes). Not thread-safe.
 */
public final class ClusterSimulator {

  /** The simulated cluster. Immutable. */
  public static final class Config {
    final int nodes;
    final long capacityBytesPerNode;
    final long blockBytes;
    final int replicas;
    final CostModel cost;
    /** The SSD write budget, bytes per hour per node; 0 for none. */
    final long writeBudgetPerNode;

    public Config(int nodes, long capacityBytesPerNode, long blockBytes, int replicas,
        CostModel cost) {
      this(nodes, capacityBytesPerNode, blockBytes, replicas, cost, 0);
    }

    private Config(int nodes, long capacityBytesPerNode, long blockBytes, int replicas,
        CostModel cost, long writeBudgetPerNode) {
      if (nodes < 1 || capacityBytesPerNode < 0 || blockBytes < 1 || replicas < 1) {
        throw new IllegalArgumentException("Invalid simulated cluster: nodes " + nodes
            + " (>= 1), capacity " + capacityBytesPerNode + " (>= 0), block " + blockBytes
            + " (>= 1), replicas " + replicas + " (>= 1)");
      }
      this.nodes = nodes;
      this.capacityBytesPerNode = capacityBytesPerNode;
      this.blockBytes = blockBytes;
      this.replicas = Math.min(replicas, nodes);
      this.cost = cost;
      if (writeBudgetPerNode < 0) {
        throw new IllegalArgumentException("Invalid write budget: " + writeBudgetPerNode
            + " bytes per hour per node (>= 0)");
      }
      this.writeBudgetPerNode = writeBudgetPerNode;
    }

    /**
     * This cluster with an SSD write budget of {@code bytesPerHourPerNode} (0 for none): the
     * blocks its slaves store go into a {@link WriteRateMeter} draining at the budget times the
     * nodes, and the policy is told the cluster is over budget while the meter says so.
     */
    public Config withWriteBudget(long bytesPerHourPerNode) {
      return new Config(nodes, capacityBytesPerNode, blockBytes, replicas, cost,
          bytesPerHourPerNode);
    }

    /** The paper's platform: 7 nodes, 128 MB blocks, 3 replicas, the default cost model. */
    public static Config paper(long capacityBytesPerNode) {
      return new Config(7, capacityBytesPerNode, 128L << 20, 3, CostModel.defaults(7));
    }
  }

  private static final String BLOCK_POOL = "BP-sim";
  private static final long FIRST_BLOCK_ID = 1L << 30;

  private final Config config;

  public ClusterSimulator(Config config) {
    this.config = config;
  }

  public SimResult run(CachePolicy policy, List<SimJob> jobs) {
    String[] slaveIds = new String[config.nodes];
    Map<String, Integer> nodeOf = new HashMap<>();
    int[] everyNode = new int[config.nodes];
    for (int i = 0; i < config.nodes; i++) {
      slaveIds[i] = "n" + i;
      nodeOf.put(slaveIds[i], i);
      everyNode[i] = i;
    }
    long perNodeBlocks = config.capacityBytesPerNode / config.blockBytes;
    for (String slave : slaveIds) {
      // As each slave registers with the master: empty, its whole Input Cache free.
      policy.onSlaveRoom(slave, perNodeBlocks * config.blockBytes);
    }
    Map<String, Long> firstBlockIds = firstBlockIds(jobs);
    // What the slaves hold, by block: a block is only ever read, so only ever cached, on its home
    // node, so a flag per block and a count per node say it all, where sets of keys were hashed
    // at every access. Each block's key and home are made at its first read and kept:
    // making a key checks its block pool name, and a home hashes every replica.
    int blocks = (int) (jobs.stream().mapToLong(j -> firstBlockIds.get(j.dataset) + j.datasetBlocks)
        .max().orElse(FIRST_BLOCK_ID) - FIRST_BLOCK_ID);
    BlockKey[] keys = new BlockKey[blocks];
    int[] homes = new int[blocks];
    boolean[] held = new boolean[blocks];
    long[] heldOn = new long[config.nodes];
    long accesses = 0;
    long hits = 0;
    long whole = 0;
    long hddBytes = 0;
    long ssdBytes = 0;
    double hadoop = 0;
    double cached = 0;
    double speedups = 0;
    long written = 0;
    long[] clockMs = new long[1];
    WriteRateMeter meter = new WriteRateMeter();
    long clusterBudget = config.writeBudgetPerNode * config.nodes;
    if (clusterBudget > 0) {
      long capacity = config.capacityBytesPerNode * config.nodes;
      policy.setOverWriteBudget(() -> meter.over(clockMs[0], clusterBudget, capacity));
    }
    for (SimJob job : jobs) {
      int first = (int) (firstBlockIds.get(job.dataset) - FIRST_BLOCK_ID);
      int jobHits = 0;
      for (int b = first; b < first + job.blocks; b++) {
        BlockKey key = keys[b];
        if (key == null) {
          // Made at the block's first read, not its dataset's: a job reading the first block of
          // a path of 100,000 blocks makes one key, not 100,000.
          key = new BlockKey(BLOCK_POOL, FIRST_BLOCK_ID + b, 1);
          keys[b] = key;
          homes[b] = home(FIRST_BLOCK_ID + b);
        }
        int node = homes[b];
        String slaveId = slaveIds[node];
        BlockAccess a = new BlockAccess(slaveId, key, config.blockBytes, job.dataset,
            job.datasetBlocks, job.id, clockMs[0]);
        accesses++;
        if (held[b]) {
          jobHits++;
          policy.onHit(a);
          continue;
        }
        CacheDecision d = policy.onMiss(a, (perNodeBlocks - heldOn[node]) * config.blockBytes);
        for (BlockKey e : d.evict()) {
          drop(e, node, held, homes, heldOn);
          policy.onRemoved(slaveId, e);
        }
        if (d.admitted() && heldOn[node] < perNodeBlocks) {
          held[b] = true;
          heldOn[node]++;
          written += config.blockBytes;
          meter.add(clockMs[0], config.blockBytes, clusterBudget);
          policy.onCached(slaveId, key);
        }
      }
      // Only the slaves with a To_Del list, in node order: asking the others changes nothing,
      // and on hundreds of nodes asking each after every job was most of the replay's time.
      int[] delivered = nodesWithPendingEvictions(policy, nodeOf, everyNode);
      for (int i : delivered) {
        for (BlockKey e : policy.pendingEvictions(slaveIds[i])) {
          drop(e, i, held, homes, heldOn);
          policy.onRemoved(slaveIds[i], e);
        }
      }
      hits += jobHits;
      if (jobHits == job.blocks) {
        whole++;
      }
      long ssd = Math.min(job.inputBytes, jobHits * config.blockBytes);
      hddBytes += job.inputBytes - ssd;
      ssdBytes += ssd;
      double plain = config.cost.jobSeconds(job, job.inputBytes, 0);
      double withCache = config.cost.jobSeconds(job, job.inputBytes - ssd, ssd);
      hadoop += plain;
      cached += withCache;
      speedups += plain / withCache;
      clockMs[0] += (long) (withCache * 1000);
    }
    String name = clusterBudget > 0
        ? policy.name() + SimResult.budgetSuffix(config.writeBudgetPerNode) : policy.name();
    return new SimResult(name, config.capacityBytesPerNode, accesses, hits, jobs.size(),
        whole, hddBytes, ssdBytes, written, hadoop, cached, speedups, clockMs[0]);
  }

  /** The nodes whose slave has a To_Del list, in node order ({@code everyNode} when unknown). */
  private static int[] nodesWithPendingEvictions(CachePolicy policy, Map<String, Integer> nodeOf,
      int[] everyNode) {
    Set<String> pending = policy.slavesWithPendingEvictions();
    if (pending == null) {
      return everyNode;
    }
    int[] nodes = new int[pending.size()];
    int n = 0;
    for (String slave : pending) {
      nodes[n++] = nodeOf.get(slave);
    }
    Arrays.sort(nodes);
    return nodes;
  }

  /** A slave drops a block, if it holds it (it holds only blocks whose home it is). */
  private static void drop(BlockKey block, int node, boolean[] held, int[] homes, long[] heldOn) {
    long b = block.getBlockId() - FIRST_BLOCK_ID;
    if (b >= 0 && b < held.length && held[(int) b] && homes[(int) b] == node) {
      held[(int) b] = false;
      heldOn[node]--;
    }
  }

  /**
   * The id of each dataset's first block: consecutive ids in the order datasets are first read,
   * as the NameNode hands them out.
   */
  static Map<String, Long> firstBlockIds(List<SimJob> jobs) {
    Map<String, Long> first = new HashMap<>();
    long next = FIRST_BLOCK_ID;
    for (SimJob job : jobs) {
      if (!first.containsKey(job.dataset)) {
        first.put(job.dataset, next);
        next += job.datasetBlocks;
      }
    }
    return first;
  }

  /** The cluster's capacity in whole blocks, over every node. */
  long capacityBlocks() {
    return config.nodes * (config.capacityBytesPerNode / config.blockBytes);
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
