package org.mpcache.master.arbitrator;

import java.util.Comparator;

/**
 * PACMan's LIFE (Ananthanarayanan et al., "PACMan: Coordinated Memory Caching for Parallel Jobs",
 * NSDI 2012) at dataset granularity: victims are taken first from incomplete datasets (not every
 * block cached), the one with the largest wave-width first, and only then from complete datasets by
 * the same rule; ties go to the least recently accessed. A dataset's wave-width is its number of
 * blocks (one map task per block): a narrow job's tasks all run in one wave, so a complete cache
 * shortens it most, while a wide dataset takes the most space for the least gain in completion
 * time. Datasets are evicted whole from every slave.
 * Pure and deterministic; not thread-safe.
 */
final class LifePolicy extends DatasetEvictionPolicy {

  LifePolicy(PlacementIndex placement) {
    super(placement);
  }

  @Override
  public String name() {
    return CachePolicies.LIFE;
  }

  @Override
  Comparator<DatasetRecord> victimOrder() {
    return (x, y) -> {
      int c = Boolean.compare(x.completeWhenOrdered, y.completeWhenOrdered);
      if (c == 0) {
        c = Integer.compare(y.size, x.size);
      }
      return c != 0 ? c : Long.compare(x.lastAccessSeq, y.lastAccessSeq);
    };
  }
}
