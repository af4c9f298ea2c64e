package org.mpcache.master.space;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The Dynamic Space Manager's memory (paper Section 2): per job type and input-size bucket, how
 * much Localized Cache space the jobs used, and the prediction of the initial split for a new job.
 *
 * <p>Buckets are powers of two of 128 MiB: bucket 0 holds inputs under 128 MiB, bucket b >= 1 holds
 * [2^(b-1), 2^b) * 128 MiB. Per bucket it keeps the job count, the summed input and localized
 * bytes, and the peak localized bytes.
 *
 * <p>Prediction rule for a job of type t and input size s on a cache of capacity c:
 * <ol>
 *   <li>if jobs of type t ran in s's bucket: their peak localized bytes (peak, not mean, because a
 *       Localized Cache that is too small spills the job's intermediate data to disk, while one too
 *       large only lends blocks the Dynamic pool will withdraw when usage drops below the guard);
 *   <li>else if jobs of type t ran in other buckets: the nearest bucket's peak (ties: the larger
 *       bucket), scaled by s over that bucket's mean input size;
 *   <li>else {@code defaultLocalizedFraction * c}.
 * </ol>
 * The result is clamped to [0, c]; the Input Cache gets the rest.
 *
 * <p>Pure (no I/O; {@link SpaceHistoryFile} persists it). Not thread-safe: {@link
 * DynamicSpaceManager} serializes access.
 */
public final class SpaceHistory {
  static final int BLOCK_SHIFT = 27; // 128 MiB

  /** What the history holds for one (job type, bucket). Mutable, owned by the history. */
  public static final class Usage {
    private long jobs;
    private long inputBytes;
    private long localizedBytes;
    private long peakLocalizedBytes;

    Usage() {
    }

    Usage(long jobs, long inputBytes, long localizedBytes, long peakLocalizedBytes) {
      this.jobs = jobs;
      this.inputBytes = inputBytes;
      this.localizedBytes = localizedBytes;
      this.peakLocalizedBytes = peakLocalizedBytes;
    }

    void add(long input, long localized) {
      jobs++;
      inputBytes += input;
      localizedBytes += localized;
      peakLocalizedBytes = Math.max(peakLocalizedBytes, localized);
    }

    public long jobs() {
      return jobs;
    }

    /** Summed input bytes of the recorded jobs. */
    public long inputBytes() {
      return inputBytes;
    }

    /** Summed localized bytes of the recorded jobs. */
    public long localizedBytes() {
      return localizedBytes;
    }

    public long peakLocalizedBytes() {
      return peakLocalizedBytes;
    }
  }

  private final double defaultLocalizedFraction;
  private final Map<String, NavigableMap<Integer, Usage>> byType = new HashMap<>();

  /**
   * @param defaultLocalizedFraction the share of the cache a job of unknown type starts with as
   *     Localized Cache, in [0, 1]
   */
  public SpaceHistory(double defaultLocalizedFraction) {
    if (!(defaultLocalizedFraction >= 0 && defaultLocalizedFraction <= 1)) {
      throw new IllegalArgumentException("defaultLocalizedFraction must be in [0, 1], was "
          + defaultLocalizedFraction);
    }
    this.defaultLocalizedFraction = defaultLocalizedFraction;
  }

  /** The bucket of an input size. */
  public static int bucketOf(long inputBytes) {
    return 64 - Long.numberOfLeadingZeros(Math.max(0, inputBytes) >> BLOCK_SHIFT);
  }

  /** Records that a finished job of this type and input size used {@code localizedBytes}. */
  public void record(String jobType, long inputBytes, long localizedBytes) {
    if (inputBytes < 0 || localizedBytes < 0) {
      throw new IllegalArgumentException("byte counts must not be negative: input=" + inputBytes
          + ", localized=" + localizedBytes);
    }
    byType.computeIfAbsent(jobType, t -> new TreeMap<>())
        .computeIfAbsent(bucketOf(inputBytes), b -> new Usage()).add(inputBytes, localizedBytes);
  }

  /** Restores one (type, bucket) line of a persisted history, replacing what was there. */
  void restore(String jobType, int bucket, Usage usage) {
    byType.computeIfAbsent(jobType, t -> new TreeMap<>()).put(bucket, usage);
  }

  /** The predicted initial split for a new job; see the class comment for the rule. */
  public SpaceSplit predict(String jobType, long inputBytes, long cacheCapacityBytes) {
    NavigableMap<Integer, Usage> buckets =
        byType.getOrDefault(jobType, Collections.emptyNavigableMap());
    int bucket = bucketOf(inputBytes);
    Usage same = buckets.get(bucket);
    if (same != null) {
      return split(same.peakLocalizedBytes(), cacheCapacityBytes, SpaceSplit.Basis.SAME_BUCKET);
    }
    Map.Entry<Integer, Usage> below = buckets.lowerEntry(bucket);
    Map.Entry<Integer, Usage> above = buckets.higherEntry(bucket);
    Map.Entry<Integer, Usage> nearest = below == null ? above
        : above == null ? below
        : bucket - below.getKey() < above.getKey() - bucket ? below : above;
    if (nearest != null) {
      Usage u = nearest.getValue();
      double meanInput = Math.max(1.0, (double) u.inputBytes() / u.jobs());
      double scaled = u.peakLocalizedBytes() * (inputBytes / meanInput);
      return split((long) Math.min(Long.MAX_VALUE, scaled), cacheCapacityBytes,
          SpaceSplit.Basis.SCALED_FROM_NEAREST_BUCKET);
    }
    return split((long) (defaultLocalizedFraction * cacheCapacityBytes), cacheCapacityBytes,
        SpaceSplit.Basis.DEFAULT_FRACTION);
  }

  /** Visits every (type, bucket, usage), types and buckets in a stable order. */
  void forEach(Visitor visitor) {
    new TreeMap<>(byType).forEach((type, buckets) -> buckets.forEach(
        (bucket, usage) -> visitor.visit(type, bucket, usage)));
  }

  /** How many (type, bucket) entries the history holds. */
  public int size() {
    int n = 0;
    for (NavigableMap<Integer, Usage> b : byType.values()) {
      n += b.size();
    }
    return n;
  }

  /** Receives the entries of {@link #forEach}. */
  interface Visitor {
    void visit(String jobType, int bucket, Usage usage);
  }

  private static SpaceSplit split(long localized, long capacity, SpaceSplit.Basis basis) {
    long l = Math.max(0, Math.min(localized, capacity));
    return new SpaceSplit(l, capacity - l, basis);
  }
}
