package org.mpcache.master.arbitrator;

/**
 * mpCache's Replace Arbitrator policy (paper Section 2.2): admission control through the auxiliary
 * cache, and a Greedy-Dual priority queue of datasets with
 * {@code Fr = Blocks_Access / Size} (Eq. 1) and {@code Pr = Full + Clock + Fr / Size} (Eq. 2).
 * {@code Clock} starts at 0 and rises to the priority of each evicted dataset (Algorithm 1 line 16);
 * {@code Full} is {@link PolicyParameters#fullBonus()} while every block of the dataset is cached
 * (lines 26-30).
 *
 * <p>Admission, for a dataset not yet in the main cache: if the cluster has room for the whole
 * dataset ({@code Size * blockBytes <= }{@link #reclaimableBytes()}) it is admitted. Otherwise the
 * dataset must have been accessed before and still be in the auxiliary cache (and, if
 * {@link PolicyParameters#auxiliaryMaxAgeMillis()} is set, that earlier access must be recent
 * enough), and {@code 1 / (Size_i * Delta_i)} must exceed the sum of {@code 1 / (Size_j * Delta_j)}
 * over the candidate victims: the lowest-priority datasets that together hold the missing room
 * ({@link #lowestCovering}). {@code Delta_i} is the number of dataset accesses between the
 * incoming dataset's previous and current access; {@code Delta_j} the number since victim j's
 * last access (at least 1).
 *
 * <p>The same class, built by {@link #gdsf}, is the GDSF baseline: no Full bonus and no admission
 * control, so that the comparison isolates exactly those two additions.
 *
 * <p>Not thread-safe: the caller serializes every call.
 */
public final class MpCachePolicy extends DatasetCachePolicy {
  /** The name mpCache's policy is selected by. */
  public static final String NAME = "mpcache";
  /** The name of the GDSF baseline. */
  public static final String GDSF_NAME = "gdsf";

  private final double fullBonus;
  private final boolean admissionControl;
  private final long maxAgeMillis;
  private double clock;

  private MpCachePolicy(String name, PolicyParameters p, double fullBonus,
      boolean admissionControl) {
    super(name, p);
    this.fullBonus = fullBonus;
    this.admissionControl = admissionControl;
    this.maxAgeMillis = p.auxiliaryMaxAgeMillis();
  }

  /** mpCache's policy with the given parameters. */
  public static MpCachePolicy mpCache(PolicyParameters p) {
    return new MpCachePolicy(NAME, p, p.fullBonus(), true);
  }

  /** The GDSF baseline: Equation 2 without Full, and no admission control. */
  public static MpCachePolicy gdsf(PolicyParameters p) {
    return new MpCachePolicy(GDSF_NAME, p, 0, false);
  }

  /** The running queue clock: the priority of the last evicted dataset (0 before any eviction). */
  public double clock() {
    return clock;
  }

  @Override
  protected double rank(DatasetEntry d) {
    double size = d.size();
    double fr = d.blocksAccess() / size;
    double full = d.complete() ? fullBonus : 0;
    return full + clock + fr / size;
  }

  @Override
  protected void onEvicted(DatasetEntry victim) {
    clock = victim.rank();
  }

  @Override
  protected CacheDecision.Reason refuseAdmission(BlockAccess access, AccessStamp stamp) {
    if (!admissionControl) {
      return null;
    }
    long deficit = (long) access.datasetBlocks() * access.blockBytes() - reclaimableBytes();
    if (deficit <= 0) {
      return null;
    }
    boolean remembered = stamp.previousStamp() != AccessStamp.NONE
        && (maxAgeMillis == 0 || access.timeMillis() - stamp.previousTimeMillis() <= maxAgeMillis);
    if (!remembered) {
      return CacheDecision.Reason.REJECTED_NOT_IN_AUXILIARY_CACHE;
    }
    double gain = 1.0 / ((double) access.datasetBlocks()
        * (stamp.lastStamp() - stamp.previousStamp()));
    double loss = 0;
    for (DatasetEntry v : lowestCovering(deficit)) {
      long delta = Math.max(1, datasetAccesses() - v.stamp().lastStamp());
      loss += 1.0 / ((double) v.size() * delta);
    }
    return gain > loss ? null : CacheDecision.Reason.REJECTED_NOT_PROFITABLE;
  }
}
