package org.mpcache.master.arbitrator;

import java.util.Comparator;

/**
 * PACMan's LFU-F (Ananthanarayanan et al., "PACMan: Coordinated Memory Caching for Parallel Jobs",
 * NSDI 2012) at dataset granularity: victims are taken first from incomplete datasets (not every
 * block cached), the least frequently accessed first, and only then from complete datasets by the
 * same rule; ties go to the least recently accessed. Frequencies are dataset accesses, remembered
 * across evictions and aged: every {@link #AGING_PERIOD} dataset accesses, cluster-wide, every
 * count is halved (rounding down), and a dataset with no blocks cached and a count of 0 is
 * forgotten. Datasets are evicted whole from every slave. Pure and deterministic; not thread-safe.
 */
final class LfuFPolicy extends DatasetEvictionPolicy {
  /** Dataset accesses between two halvings of every access count. */
  static final int AGING_PERIOD = 100;

  LfuFPolicy(PlacementIndex placement) {
    super(placement);
  }

  @Override
  public String name() {
    return CachePolicies.LFU_F;
  }

  @Override
  Comparator<DatasetRecord> victimOrder() {
    return (x, y) -> {
      int c = Boolean.compare(x.completeWhenOrdered, y.completeWhenOrdered);
      if (c == 0) {
        c = Long.compare(x.accesses, y.accesses);
      }
      return c != 0 ? c : Long.compare(x.lastAccessSeq, y.lastAccessSeq);
    };
  }

  @Override
  void afterAccess(DatasetRecord d, BlockAccess a) {
    if (accessSeq % AGING_PERIOD == 0) {
      ageAndForgetIdle(d, each -> each.accesses /= 2);
    }
  }

  @Override
  boolean remembers(DatasetRecord d) {
    return d.accesses > 0;
  }
}
