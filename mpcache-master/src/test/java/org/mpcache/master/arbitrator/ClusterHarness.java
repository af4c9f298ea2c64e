package org.mpcache.master.arbitrator;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.mpcache.common.BlockKey;

/**
 * Slaves that obey a policy's plans, driven by a random trace from a seed: every slave holds
 * blocks up to a byte capacity, evicts what a decision or its pending evictions name, and reports
 * back. It checks, at every step, that an admitted block fits after the planned evictions and that
 * each planned eviction names a block the slave holds; it logs every decision so that two runs can
 * be compared.
 */
final class ClusterHarness {
  private final CachePolicy policy;
  private final long capacity;
  private final boolean drainEveryStep;
  private final boolean wholeDatasets;
  private final List<String> slaveIds = new ArrayList<>();
  private final Map<String, Map<BlockKey, Long>> held = new HashMap<>();
  private final Map<BlockKey, String> datasetOf = new HashMap<>();
  private final List<String> log = new ArrayList<>();

  /**
   * @param drainEveryStep whether every slave takes its pending evictions after every event (as
   *     with immediate heartbeats); otherwise only the slave about to read does
   * @param wholeDatasets whether to fail when, after every slave took its pending evictions, a
   *     slave keeps a block of a dataset that lost a block to eviction in the same step (needs
   *     {@code drainEveryStep})
   */
  ClusterHarness(CachePolicy policy, int slaves, long capacity, boolean drainEveryStep,
      boolean wholeDatasets) {
    if (wholeDatasets && !drainEveryStep) {
      throw new IllegalArgumentException("whole-dataset checks need drainEveryStep");
    }
    this.policy = policy;
    this.capacity = capacity;
    this.drainEveryStep = drainEveryStep;
    this.wholeDatasets = wholeDatasets;
    for (int i = 0; i < slaves; i++) {
      slaveIds.add("s" + i);
      held.put("s" + i, new LinkedHashMap<>());
    }
  }

  /** Replays a random trace of {@code jobs} jobs; returns the decision log. */
  List<String> run(long seed, int jobs) {
    Random r = new Random(seed);
    int datasets = 1 + r.nextInt(6);
    int[] sizes = new int[datasets];
    long[] blockBytes = new long[datasets];
    for (int d = 0; d < datasets; d++) {
      sizes[d] = 1 + r.nextInt(4);
      blockBytes[d] = 1 + r.nextInt(2);
    }
    for (int j = 0; j < jobs; j++) {
      int d = Math.min(r.nextInt(datasets), r.nextInt(datasets)); // skewed popularity
      String job = r.nextInt(8) == 0 ? "" : "job" + j;
      for (int b = 0; b < sizes[d]; b++) {
        String slave = slaveIds.get(r.nextInt(slaveIds.size()));
        BlockKey key = new BlockKey("BP-1", d * 100L + b, 1);
        datasetOf.put(key, "d" + d);
        read(new BlockAccess(slave, key, blockBytes[d], "d" + d, sizes[d], job, j * 10L + b));
        if (r.nextInt(40) == 0) {
          dropRandomBlock(r);
        }
      }
      if (r.nextInt(150) == 0) {
        String lost = slaveIds.get(r.nextInt(slaveIds.size()));
        policy.onSlaveLost(lost);
        held.get(lost).clear();
        log.add("lost " + lost);
      }
    }
    return log;
  }

  private void read(BlockAccess a) {
    Set<String> evictedDatasets = new HashSet<>();
    drain(a.slaveId(), evictedDatasets);
    Map<BlockKey, Long> blocks = held.get(a.slaveId());
    if (blocks.containsKey(a.block())) {
      policy.onHit(a);
      log.add("hit " + a.slaveId() + " " + a.block());
    } else {
      CacheDecision d = policy.onMiss(a, capacity - used(blocks));
      log.add(a.slaveId() + " " + a.block() + " " + d);
      if (d.admitted()) {
        for (BlockKey k : d.evict()) {
          evict(a.slaveId(), k, evictedDatasets);
        }
        if (used(blocks) + a.blockBytes() > capacity) {
          fail(policy.name() + " overfilled " + a.slaveId() + ": " + blocks + " + " + a);
        }
        blocks.put(a.block(), a.blockBytes());
        policy.onCached(a.slaveId(), a.block());
      }
    }
    if (drainEveryStep) {
      for (String s : slaveIds) {
        drain(s, evictedDatasets);
      }
    }
    if (wholeDatasets) {
      for (String dataset : evictedDatasets) {
        for (String s : slaveIds) {
          for (BlockKey k : held.get(s).keySet()) {
            if (dataset.equals(datasetOf.get(k))) {
              fail(policy.name() + " evicted part of " + dataset + " but " + s + " keeps " + k);
            }
          }
        }
      }
    }
  }

  private void drain(String slave, Set<String> evictedDatasets) {
    List<BlockKey> pending = policy.pendingEvictions(slave);
    if (!pending.isEmpty()) {
      log.add("pending " + slave + " " + pending);
    }
    for (BlockKey k : pending) {
      evict(slave, k, evictedDatasets);
    }
  }

  private void evict(String slave, BlockKey k, Set<String> evictedDatasets) {
    assertTrue(held.get(slave).remove(k) != null,
        policy.name() + " planned eviction of " + k + " which " + slave + " does not hold");
    evictedDatasets.add(datasetOf.get(k));
    policy.onRemoved(slave, k);
  }

  private void dropRandomBlock(Random r) {
    String slave = slaveIds.get(r.nextInt(slaveIds.size()));
    Map<BlockKey, Long> blocks = held.get(slave);
    if (!blocks.isEmpty()) {
      BlockKey k = blocks.keySet().iterator().next();
      blocks.remove(k);
      policy.onRemoved(slave, k);
      log.add("dropped " + slave + " " + k);
    }
  }

  private static long used(Map<BlockKey, Long> blocks) {
    long sum = 0;
    for (long b : blocks.values()) {
      sum += b;
    }
    return sum;
  }
}
