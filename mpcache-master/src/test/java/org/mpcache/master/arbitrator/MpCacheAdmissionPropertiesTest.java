package org.mpcache.master.arbitrator;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;
import org.mpcache.common.BlockKey;

/**
 * mpCache's admission control does not starve a dataset that is read often enough, whatever the
 * cache holds. The bound (docs/policy.md, "Admission without starvation"): a dataset {@code jd}
 * of {@code Size(jd)} blocks that the auxiliary cache remembers and that fits in the cache is
 * admitted, whole, at its {@code k}-th access (counted while the auxiliary cache remembers it) once
 * {@code k / Size(jd) > max Fr(d) / Size(d)} over the datasets {@code d} in the main cache, that
 * is once {@code k > Size(jd) * max Fr(d) / Size(d)}: its frequency per block beats that of every
 * dataset it could displace. Random cache contents come from random skewed reads of small
 * datasets on 1-3 slaves; then {@code jd}, which rarely fits in the free room, is read round
 * after round between random reads of the others, and at the first access where the bound holds
 * it must end up cached whole.
 */
class MpCacheAdmissionPropertiesTest {
  private static final long BLOCK_BYTES = 100;
  private static final int ROUNDS = 120;

  /** A slave of the model: its capacity in blocks and the blocks it holds. */
  private static final class ModelSlave {
    final int capacity;
    final Map<BlockKey, String> blocks = new LinkedHashMap<>();

    ModelSlave(int capacity) {
      this.capacity = capacity;
    }

    long free() {
      return (capacity - blocks.size()) * BLOCK_BYTES;
    }
  }

  /** The model cluster driving the policy as the daemons do. */
  private static final class Model {
    final MpCachePolicy policy = new MpCachePolicy(PolicyParameters.defaults(),
        new PlacementIndex());
    final List<ModelSlave> slaves = new ArrayList<>();
    int jobs;

    Model(int slaveCount, int capacity) {
      for (int i = 0; i < slaveCount; i++) {
        slaves.add(new ModelSlave(capacity));
      }
    }

    /** One job reads a whole dataset whose block b lives on {@code slaveOf[b]}; the decisions. */
    List<CacheDecision> read(String dataset, long firstBlock, int[] slaveOf) {
      return read(dataset, firstBlock, slaveOf, slaveOf.length);
    }

    /**
     * One job reads the first {@code slaveOf.length} blocks of a path of {@code pathBlocks}
     * blocks, block b on {@code slaveOf[b]}; the decisions.
     */
    List<CacheDecision> read(String dataset, long firstBlock, int[] slaveOf, int pathBlocks) {
      String job = "job" + (++jobs);
      List<CacheDecision> decisions = new ArrayList<>();
      for (int b = 0; b < slaveOf.length; b++) {
        BlockKey key = new BlockKey("BP", firstBlock + b, 1);
        String slaveId = "s" + slaveOf[b];
        ModelSlave slave = slaves.get(slaveOf[b]);
        BlockAccess a = new BlockAccess(slaveId, key, BLOCK_BYTES, dataset, pathBlocks, job,
            jobs);
        if (slave.blocks.containsKey(key)) {
          policy.onHit(a);
          continue;
        }
        CacheDecision d = policy.onMiss(a, slave.free());
        decisions.add(d);
        for (BlockKey e : d.evict()) {
          slave.blocks.remove(e);
          policy.onRemoved(slaveId, e);
        }
        if (d.admitted() && slave.free() >= BLOCK_BYTES) {
          slave.blocks.put(key, dataset);
          policy.onCached(slaveId, key);
        }
      }
      for (int i = 0; i < slaves.size(); i++) {
        for (BlockKey e : policy.pendingEvictions("s" + i)) {
          slaves.get(i).blocks.remove(e);
          policy.onRemoved("s" + i, e);
        }
      }
      return decisions;
    }

    int cachedBlocks(String dataset) {
      int n = 0;
      for (ModelSlave s : slaves) {
        n += (int) s.blocks.values().stream().filter(dataset::equals).count();
      }
      return n;
    }
  }

  @Property(tries = 300)
  void judge_datasetReReadOftenEnoughIsAdmitted(@ForAll long seed,
      @ForAll @IntRange(min = 1, max = 3) int slaveCount,
      @ForAll @IntRange(min = 4, max = 12) int capacity) {
    Random r = new Random(seed);
    Model m = new Model(slaveCount, capacity);
    int others = 6 + r.nextInt(9);
    int[][] placement = new int[others][];
    for (int d = 0; d < others; d++) {
      placement[d] = new int[1 + r.nextInt(4)];
      for (int b = 0; b < placement[d].length; b++) {
        placement[d][b] = r.nextInt(slaveCount);
      }
    }
    // jd is spread round-robin, so that no slave holds more of it than it can.
    int jdSize = 2 + r.nextInt(slaveCount * capacity - 1);
    int[] jdPlacement = new int[jdSize];
    for (int b = 0; b < jdSize; b++) {
      jdPlacement[b] = b % slaveCount;
    }
    for (int i = 0; i < 40; i++) {
      readOther(m, r, placement);
    }
    int jdReads = 0;
    boolean reached = false;
    StringBuilder trail = new StringBuilder();
    for (int round = 0; round < ROUNDS && !reached; round++) {
      int k = jdReads + 1;
      double maxValue = maxFrequencyPerBlock(m, placement);
      reached = jdReads >= 1 && (double) k / jdSize > maxValue + 1e-9;
      List<CacheDecision> decisions = m.read("jd", 1_000_000, jdPlacement);
      jdReads++;
      trail.append("\n  access ").append(k).append(": bound ").append(jdSize * maxValue)
          .append(", first decision ").append(decisions.isEmpty() ? "none" : decisions.get(0));
      if (reached) {
        assertTrue(m.cachedBlocks("jd") == jdSize, "jd (" + jdSize + " blocks) read " + k
            + " times, more than Size(jd) * max Fr/Size = " + jdSize * maxValue
            + ", but only " + m.cachedBlocks("jd") + " of its blocks are cached:" + trail);
      }
      if (r.nextBoolean()) {
        readOther(m, r, placement);
      }
    }
    Statistics.label("bound reached").collect(reached);
    // Not vacuous: in most cases jd is read often enough, within the rounds, to reach the bound.
    Statistics.label("bound reached").coverage(c -> c.check(true).percentage(p -> p > 50));
  }

  /**
   * The same bound for a slice: jobs read only the first {@code w} blocks of a path far larger
   * than the cache, and the dataset they need whole is those {@code w} blocks. Once the slice's
   * accesses per block, {@code k / w}, beat every cached dataset's {@code Fr/Size}, the slice is
   * cached whole, however large the path it lies in.
   */
  @Property(tries = 300)
  void judge_smallSliceOfAHugePathReReadOftenIsAdmitted(@ForAll long seed,
      @ForAll @IntRange(min = 1, max = 3) int slaveCount,
      @ForAll @IntRange(min = 4, max = 12) int capacity,
      @ForAll @IntRange(min = 100, max = 1_000_000) int pathBlocks) {
    Random r = new Random(seed);
    Model m = new Model(slaveCount, capacity);
    int others = 6 + r.nextInt(9);
    int[][] placement = new int[others][];
    for (int d = 0; d < others; d++) {
      placement[d] = new int[1 + r.nextInt(4)];
      for (int b = 0; b < placement[d].length; b++) {
        placement[d][b] = r.nextInt(slaveCount);
      }
    }
    int w = 1 + r.nextInt(Math.max(1, slaveCount * capacity / 2));
    int[] slice = new int[w];
    for (int b = 0; b < w; b++) {
      slice[b] = b % slaveCount;
    }
    for (int i = 0; i < 40; i++) {
      readOther(m, r, placement);
    }
    int reads = 0;
    boolean reached = false;
    StringBuilder trail = new StringBuilder();
    for (int round = 0; round < ROUNDS && !reached; round++) {
      int k = reads + 1;
      double maxValue = maxFrequencyPerBlock(m, placement);
      reached = reads >= 1 && (double) k / w > maxValue + 1e-9;
      List<CacheDecision> decisions = m.read("huge", 1_000_000, slice, pathBlocks);
      reads++;
      trail.append("\n  access ").append(k).append(": bound ").append(w * maxValue)
          .append(", first decision ").append(decisions.isEmpty() ? "none" : decisions.get(0));
      if (reached) {
        assertTrue(m.cachedBlocks("huge") == w, "a slice of " + w + " blocks of a "
            + pathBlocks + "-block path read " + k + " times, more than w * max Fr/Size = "
            + w * maxValue + ", but only " + m.cachedBlocks("huge") + " of its blocks are "
            + "cached:" + trail);
      }
      if (r.nextBoolean()) {
        readOther(m, r, placement);
      }
    }
    Statistics.label("bound reached").collect(reached);
    Statistics.label("bound reached").coverage(c -> c.check(true).percentage(p -> p > 50));
  }

  /** A skewed random read of one of the other datasets. */
  private static void readOther(Model m, Random r, int[][] placement) {
    int d = (int) (placement.length * Math.pow(r.nextDouble(), 2));
    m.read("d" + d, d * 100L, placement[d]);
  }

  /** The highest Fr/Size among the other datasets {@code d0..} the policy keeps terms for. */
  private static double maxFrequencyPerBlock(Model m, int[][] placement) {
    double max = 0;
    for (int d = 0; d < placement.length; d++) {
      DatasetStanding st = m.policy.standing("d" + d);
      if (st != null && !Double.isNaN(st.priority())) {
        max = Math.max(max, st.frequency() / placement[d].length);
      }
    }
    return max;
  }
}
