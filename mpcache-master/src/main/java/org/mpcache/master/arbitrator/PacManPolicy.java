package org.mpcache.master.arbitrator;

/**
 * PACMan's two eviction policies (Ananthanarayanan et al., NSDI 2012), at dataset granularity,
 * as baselines: both evict from incomplete datasets first, because a partly cached input speeds up
 * no job. Among datasets of the same completeness, LIFE evicts the one with the largest wave-width
 * (here its number of blocks, one map task each) and LFU-F the least frequently accessed one, by an
 * access count aged with a half-life of {@link PolicyParameters#frequencyHalfLifeAccesses()} dataset
 * accesses. Neither has admission control: every miss is cached if victims exist.
 *
 * <p>The aged count adds a weight {@code 2^(t / halfLife)} at dataset access number t instead of
 * halving every count each half-life; the order is the same and no other entry needs re-sorting.
 *
 * <p>Not thread-safe: the caller serializes every call.
 */
public final class PacManPolicy extends DatasetCachePolicy {
  /** The name of the LIFE baseline. */
  public static final String LIFE_NAME = "life";
  /** The name of the LFU-F baseline. */
  public static final String LFU_F_NAME = "lfu-f";

  private final boolean byFrequency;
  private final double logWeightPerAccess;

  private PacManPolicy(String name, PolicyParameters p, boolean byFrequency) {
    super(name, p);
    this.byFrequency = byFrequency;
    this.logWeightPerAccess = Math.log(2) / p.frequencyHalfLifeAccesses();
  }

  /** LIFE: incomplete first, then the largest wave-width. */
  public static PacManPolicy life(PolicyParameters p) {
    return new PacManPolicy(LIFE_NAME, p, false);
  }

  /** LFU-F: incomplete first, then the least (aged) frequently accessed. */
  public static PacManPolicy lfuF(PolicyParameters p) {
    return new PacManPolicy(LFU_F_NAME, p, true);
  }

  @Override
  protected int tier(DatasetEntry d) {
    return d.complete() ? 1 : 0;
  }

  @Override
  protected double rank(DatasetEntry d) {
    return byFrequency ? d.stamp().logAgedCount() : -d.size();
  }

  @Override
  protected void onDatasetAccess(AccessStamp stamp, BlockAccess access) {
    if (byFrequency) {
      stamp.addLogWeight(datasetAccesses() * logWeightPerAccess);
    }
  }
}
