package org.mpcache.master.arbitrator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.constraints.IntRange;
import org.mpcache.common.BlockKey;

/**
 * Properties every cache policy must keep over random traces, checked by driving it as the
 * daemons do: slaves of fixed capacity carry out each decision (evict, then cache) and the
 * evictions queued for them, and report back.
 */
class CachePolicyPropertiesTest {
  private static final long BLOCK_BYTES = 100;
  /** Policies that evict single blocks on the requesting slave, not whole datasets. */
  private static final Set<String> BLOCK_GRANULARITY = Set.of(CachePolicies.LRU, CachePolicies.LFU);

  @Provide
  Arbitrary<String> policies() {
    return Arbitraries.of(CachePolicies.names());
  }

  @Provide
  Arbitrary<String> baselines() {
    return Arbitraries.of(CachePolicies.LRU, CachePolicies.LFU, CachePolicies.GDSF,
        CachePolicies.LFU_F, CachePolicies.LIFE);
  }

  /** A slave of the model: its capacity and the blocks it holds. */
  private static final class ModelSlave {
    final long capacity;
    final Map<BlockKey, String> blocks = new LinkedHashMap<>();

    ModelSlave(long capacity) {
      this.capacity = capacity;
    }

    long used() {
      return blocks.size() * BLOCK_BYTES;
    }
  }

  /** Replays a seeded random trace; returns the decisions, checking the invariants as it goes. */
  private static List<String> replay(String policyName, long seed, int slaves, int capacityBlocks,
      int steps) {
    CachePolicy policy = CachePolicies.create(policyName, new PolicyParameters(1.0, 8));
    Random r = new Random(seed);
    List<ModelSlave> model = new ArrayList<>();
    for (int i = 0; i < slaves; i++) {
      model.add(new ModelSlave(capacityBlocks * BLOCK_BYTES));
    }
    int datasets = 12;
    int[] sizes = new int[datasets];
    for (int d = 0; d < datasets; d++) {
      sizes[d] = 1 + r.nextInt(6);
    }
    List<String> decisions = new ArrayList<>();
    int job = 0;
    for (int step = 0; step < steps; step++) {
      // Skewed dataset choice, as job inputs are (a rough Zipf).
      int d = (int) (datasets * Math.pow(r.nextDouble(), 2));
      job++;
      Set<String> evictedDatasets = new HashSet<>();
      for (int b = 0; b < sizes[d]; b++) {
        BlockKey key = new BlockKey("BP", d * 100L + b, 1);
        String slaveId = "s" + Math.floorMod(Long.hashCode(key.getBlockId() * 31 + d), slaves);
        ModelSlave slave = model.get(Integer.parseInt(slaveId.substring(1)));
        BlockAccess a = new BlockAccess(slaveId, key, BLOCK_BYTES, "d" + d, sizes[d],
            "job" + job, step);
        if (slave.blocks.containsKey(key)) {
          policy.onHit(a);
          decisions.add("hit " + key);
          continue;
        }
        CacheDecision dec = policy.onMiss(a, slave.capacity - slave.used());
        decisions.add(key + " " + dec);
        for (BlockKey e : dec.evict()) {
          String ds = slave.blocks.remove(e);
          if (ds != null) {
            evictedDatasets.add(ds);
          }
          policy.onRemoved(slaveId, e);
        }
        if (dec.admitted()) {
          assertTrue(slave.used() + BLOCK_BYTES <= slave.capacity,
              policyName + " admitted " + key + " into a full slave: " + dec);
          slave.blocks.put(key, "d" + d);
          policy.onCached(slaveId, key);
        }
        assertTrue(slave.used() <= slave.capacity, "capacity exceeded");
      }
      // Heartbeats deliver the queued evictions (To_Del) to every slave.
      for (int i = 0; i < slaves; i++) {
        ModelSlave s = model.get(i);
        List<BlockKey> pending = policy.pendingEvictions("s" + i);
        if (!pending.isEmpty()) {
          decisions.add("s" + i + " heartbeat evict=" + pending);
        }
        assertTrue(pending.isEmpty() || !BLOCK_GRANULARITY.contains(policyName),
            policyName + " queued evictions for another slave: " + pending);
        for (BlockKey e : pending) {
          String ds = s.blocks.remove(e);
          if (ds != null) {
            evictedDatasets.add(ds);
          }
          policy.onRemoved("s" + i, e);
        }
      }
      if (BLOCK_GRANULARITY.contains(policyName)) {
        continue;
      }
      for (String ds : evictedDatasets) {
        for (ModelSlave s : model) {
          assertTrue(!s.blocks.containsValue(ds) || ds.equals("d" + d),
              "dataset " + ds + " was evicted but a slave still holds part of it");
        }
      }
    }
    return decisions;
  }

  @Property(tries = 140)
  void capacityNeverExceededAndEvictionsAreWholeDatasets(@ForAll("policies") String policy,
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 4) int slaves,
      @ForAll @IntRange(min = 1, max = 12) int capacityBlocks) {
    replay(policy, seed, slaves, capacityBlocks, 200);
  }

  /**
   * The replays exercise what the invariants are about: over 100 seeds, most replays evict and
   * most refuse. A single seed may do neither (the first datasets cached can be the most read
   * ones, which mpCache then rightly keeps for good), so the figure is counted over many.
   */
  @Example
  void smallCachesExerciseReplacementAndRejection() {
    int evicting = 0;
    int rejecting = 0;
    for (long seed = 0; seed < 100; seed++) {
      String all = String.join("\n", replay(CachePolicies.MPCACHE, seed, 2, 4, 300));
      evicting += all.contains("evict=") ? 1 : 0;
      rejecting += all.contains("REJECTED_") ? 1 : 0;
    }
    System.out.println("replays of 100 seeds: " + evicting + " evicted, " + rejecting
        + " refused");
    assertTrue(evicting >= 50, evicting + " of 100 replays evicted anything");
    assertTrue(rejecting >= 50, rejecting + " of 100 replays refused anything");
  }

  @Property(tries = 20)
  void smallCachesExerciseReplacementInEveryBaseline(@ForAll("baselines") String policy,
      @ForAll long seed) {
    String all = String.join("\n", replay(policy, seed, 2, 4, 300));
    assertTrue(all.contains("ADMITTED_BY_REPLACEMENT") && all.contains("evict="),
        policy + " never replaced anything, so the invariants were not tested");
  }

  @Property(tries = 20)
  void sameSeedSameDecisions(@ForAll("policies") String policy, @ForAll long seed) {
    assertEquals(replay(policy, seed, 3, 6, 150), replay(policy, seed, 3, 6, 150));
  }
}
