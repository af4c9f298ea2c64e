package org.mpcache.master.arbitrator;

import java.util.List;

/**
 * The cache policies by the names {@code mpcache.master.policy} accepts. Stateless.
 */
public final class CachePolicies {
  /** The paper's admission control and priority-queue replacement (the default). */
  public static final String MPCACHE = "mpcache";
  /** Never caches anything: mpCache's daemons run, every read goes to HDFS. */
  public static final String NONE = "none";
  /** Block-granularity least recently used, per slave; no admission control. */
  public static final String LRU = "lru";
  /** Block-granularity least frequently used, per slave; no admission control. */
  public static final String LFU = "lfu";
  /** GreedyDual-Size-Frequency over whole datasets: mpCache's queue without the Full bonus. */
  public static final String GDSF = "gdsf";
  /** PACMan's LFU-F: incomplete datasets first, least (aged) frequency first. */
  public static final String LFU_F = "lfu-f";
  /** PACMan's LIFE: incomplete datasets first, largest wave-width first. */
  public static final String LIFE = "life";

  private CachePolicies() {
  }

  /** Every accepted name. */
  public static List<String> names() {
    return List.of(MPCACHE, NONE, LRU, LFU, GDSF, LFU_F, LIFE);
  }

  /**
   * The policies with a write-budget mode ({@link CachePolicy#setOverWriteBudget}): the others
   * ignore the budget.
   */
  public static List<String> withWriteBudgetMode() {
    return List.of(MPCACHE, LRU, LFU);
  }

  /**
   * A new policy with a placement index of its own (the simulator's case: nothing else reads it).
   *
   * @throws IllegalArgumentException for an unknown name, listing the known ones
   */
  public static CachePolicy create(String name, PolicyParameters parameters) {
    return create(name, parameters, new PlacementIndex());
  }

  /**
   * A new policy that keeps {@code placement} in step with slaves' reports and plans against it.
   *
   * @throws IllegalArgumentException for an unknown name, listing the known ones
   */
  public static CachePolicy create(String name, PolicyParameters parameters,
      PlacementIndex placement) {
    switch (name) {
      case MPCACHE:
        return new MpCachePolicy(parameters, placement);
      case NONE:
        return new NullPolicy(placement);
      case LRU:
        return new LruPolicy(placement, parameters);
      case LFU:
        return new LfuPolicy(placement, parameters);
      case GDSF:
        return new GdsfPolicy(placement);
      case LFU_F:
        return new LfuFPolicy(placement);
      case LIFE:
        return new LifePolicy(placement);
      default:
        throw new IllegalArgumentException("Unknown cache policy '" + name + "'; known policies: "
            + String.join(", ", names()));
    }
  }
}
