package org.mpcache.master.space;

/**
 * The Dynamic Space Manager's answer for a new job: how many bytes of a slave's cache to start the
 * Localized Cache with, how many the Input Cache keeps, and what the prediction rests on. The
 * slave's Dynamic Space Tuner adjusts the split as the job runs (paper Section 2.1). Immutable.
 *
 * @param localizedBytes initial Localized Cache size
 * @param inputBytes the rest of the cache, for the Input Cache and the Dynamic pool
 * @param basis where the prediction comes from
 */
public record SpaceSplit(long localizedBytes, long inputBytes, Basis basis) {

  /** What a prediction is based on, best first. */
  public enum Basis {
    /** Jobs of the same type and input-size bucket ran before: their peak use. */
    SAME_BUCKET,
    /** Jobs of the same type ran with other input sizes: the nearest bucket, scaled. */
    SCALED_FROM_NEAREST_BUCKET,
    /** Nothing is known of the job type: the configured default fraction. */
    DEFAULT_FRACTION
  }
}
