package org.mpcache.master.arbitrator;

/**
 * What the policies remember about one dataset's accesses: the job that last read it, the stamps of
 * its last two dataset accesses counted in dataset accesses and in time (the paper's auxiliary-cache
 * time-stamps, Section 2.2), and an aged access count. A dataset access is the first block read by a
 * job that did not read the dataset just before, or every block read whose job is unknown.
 *
 * <p>Mutable; owned by one policy and confined to its caller's thread.
 */
public final class AccessStamp {
  /** Stamp value meaning "no earlier access remembered". */
  public static final long NONE = -1;

  private String lastJobId;
  private long lastStamp = NONE;
  private long previousStamp = NONE;
  private long lastTimeMillis;
  private long previousTimeMillis;
  private double logAgedCount = Double.NEGATIVE_INFINITY;
  private long verdictStamp = NONE;
  private CacheDecision.Reason verdict;

  AccessStamp() {
  }

  /** Whether a read by {@code jobId} starts a new dataset access. */
  boolean isNewAccess(String jobId) {
    return jobId.isEmpty() || !jobId.equals(lastJobId);
  }

  void record(String jobId, long stamp, long timeMillis) {
    previousStamp = lastStamp;
    previousTimeMillis = lastTimeMillis;
    lastJobId = jobId;
    lastStamp = stamp;
    lastTimeMillis = timeMillis;
  }

  /** Whether an admission verdict was reached for the latest access (decided once per access). */
  boolean hasVerdict() {
    return verdictStamp == lastStamp;
  }

  /** The verdict for the latest access: null to admit, else the reason to refuse. */
  CacheDecision.Reason verdict() {
    return verdict;
  }

  void verdict(CacheDecision.Reason reason) {
    verdictStamp = lastStamp;
    verdict = reason;
  }

  /** The dataset-access counter value of the latest access. */
  public long lastStamp() {
    return lastStamp;
  }

  /** The counter value of the access before the latest one, or {@link #NONE}. */
  public long previousStamp() {
    return previousStamp;
  }

  public long lastTimeMillis() {
    return lastTimeMillis;
  }

  /** The time of the access before the latest one; meaningless when previousStamp is NONE. */
  public long previousTimeMillis() {
    return previousTimeMillis;
  }

  /**
   * The natural logarithm of the aged access count. Kept as a logarithm so that aging by growing
   * weights (instead of decaying every count) never overflows and never re-sorts other datasets.
   */
  public double logAgedCount() {
    return logAgedCount;
  }

  /** Adds {@code exp(logWeight)} to the aged count. */
  void addLogWeight(double logWeight) {
    if (logAgedCount == Double.NEGATIVE_INFINITY) {
      logAgedCount = logWeight;
    } else {
      double hi = Math.max(logAgedCount, logWeight);
      double lo = Math.min(logAgedCount, logWeight);
      logAgedCount = hi + Math.log1p(Math.exp(lo - hi));
    }
  }
}
