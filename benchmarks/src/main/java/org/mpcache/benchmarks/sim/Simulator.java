package org.mpcache.benchmarks.sim;

import java.util.List;
import org.mpcache.common.BlockKey;
import org.mpcache.master.arbitrator.BlockAccess;
import org.mpcache.master.arbitrator.CacheDecision;
import org.mpcache.master.arbitrator.CachePolicy;

/**
 * Replays a job trace on a {@link SimulatedCluster} through a {@link CachePolicy}, playing the
 * slaves' part exactly as the daemons do: a map task reads each input block at one node; a cached
 * copy is a hit reported to the policy, otherwise the slave asks the policy, carries out the
 * returned eviction plan, stores the block and reports it cached. Before a node serves a read it
 * takes its pending evictions (the To_Del list), as a heartbeat would deliver them.
 *
 * <p>Jobs run one after another, their blocks in order. A block is read at a replica that holds
 * it in cache if there is one (the scheduler's cache locality, as with HDFS caching), otherwise at
 * a replica picked by a hash of the seed, the job and the block, so runs are reproducible.
 *
 * <p>Not thread-safe: one run per instance.
 */
public final class Simulator {
  private final SimulatedCluster cluster;
  private final CachePolicy policy;
  private final CostModel cost;
  private final long seed;
  private final long capacityBytes;
  private final int[] replicaBuffer;

  /**
   * @param capacityBytes Input Cache bytes per node
   */
  public Simulator(int nodes, int replicas, long blockBytes, long capacityBytes, CachePolicy policy,
      CostModel cost, long seed) {
    this.cluster = new SimulatedCluster(nodes, replicas, blockBytes, capacityBytes, seed);
    this.policy = policy;
    this.cost = cost;
    this.seed = seed;
    this.capacityBytes = capacityBytes;
    this.replicaBuffer = new int[replicas];
  }

  /** Replays every job; the first {@code warmupJobs} fill the cache but are not measured. */
  public SimResult run(List<SimJob> jobs, int warmupJobs) {
    long accesses = 0;
    long hits = 0;
    long measuredJobs = 0;
    long fullJobs = 0;
    long hddTotal = 0;
    long ssdTotal = 0;
    double seconds = 0;
    double uncachedSeconds = 0;
    double speedupSum = 0;
    for (int j = 0; j < jobs.size(); j++) {
      SimJob job = jobs.get(j);
      SimulatedCluster.Layout layout = cluster.layout(job.datasetId(), job.inputBytes());
      long hdd = 0;
      long ssd = 0;
      int jobHits = 0;
      for (int i = 0; i < layout.blocks(); i++) {
        long blockId = SimulatedCluster.blockId(layout, i);
        long bytes = layout.bytesOf(i);
        if (read(job, j, layout, i, blockId, bytes)) {
          ssd += bytes;
          jobHits++;
        } else {
          hdd += bytes;
        }
      }
      if (j >= warmupJobs) {
        measuredJobs++;
        accesses += layout.blocks();
        hits += jobHits;
        fullJobs += jobHits == layout.blocks() ? 1 : 0;
        hddTotal += hdd;
        ssdTotal += ssd;
        double t = cost.jobSeconds(job, hdd, ssd);
        double uncached = cost.jobSeconds(job, hdd + ssd, 0);
        seconds += t;
        uncachedSeconds += uncached;
        speedupSum += uncached / t;
      }
    }
    return new SimResult(policy.name(), capacityBytes, accesses, hits, measuredJobs, fullJobs,
        hddTotal, ssdTotal, seconds, uncachedSeconds, speedupSum);
  }

  /** One map task's read; true on a cache hit. */
  private boolean read(SimJob job, int ordinal, SimulatedCluster.Layout layout, int index,
      long blockId, long bytes) {
    cluster.replicaNodes(blockId, replicaBuffer);
    int node = -1;
    for (int r = 0; r < replicaBuffer.length && node < 0; r++) {
      drainPending(replicaBuffer[r]);
      if (cluster.holds(replicaBuffer[r], blockId)) {
        node = replicaBuffer[r];
      }
    }
    boolean hit = node >= 0;
    if (!hit) {
      long h = SimulatedCluster.mix(seed * 31 + ((long) ordinal << 24) + index);
      node = replicaBuffer[(int) Long.remainderUnsigned(h, replicaBuffer.length)];
    }
    BlockKey key = SimulatedCluster.key(blockId);
    BlockAccess access = new BlockAccess(cluster.slaveId(node), key, bytes, layout.datasetId(),
        layout.blocks(), job.jobId(), job.submitMillis());
    if (hit) {
      policy.onHit(access);
      return true;
    }
    CacheDecision d = policy.onMiss(access, cluster.free(node));
    if (d.admitted()) {
      for (BlockKey victim : d.evict()) {
        cluster.drop(node, victim.getBlockId());
        policy.onRemoved(access.slaveId(), victim);
      }
      cluster.store(node, blockId);
      policy.onCached(access.slaveId(), key);
    }
    return false;
  }

  private void drainPending(int node) {
    List<BlockKey> pending = policy.pendingEvictions(cluster.slaveId(node));
    for (BlockKey k : pending) {
      cluster.drop(node, k.getBlockId());
      policy.onRemoved(cluster.slaveId(node), k);
    }
  }
}
