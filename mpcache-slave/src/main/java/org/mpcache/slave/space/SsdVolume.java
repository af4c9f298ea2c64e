package org.mpcache.slave.space;

import java.util.Objects;

/**
 * The fixed layout of one SSD directory (one disk of a JBOD node): its capacity and how that capacity
 * is split into the Input Cache, the Dynamic Pool and the Localized Cache (mpCache paper, Section
 * 2.1). The pool is a whole number of block-sized units; whatever the three parts do not cover of the
 * capacity (less than one unit) belongs to the Input Cache, so the three parts always add up to the
 * capacity exactly. Immutable and thread-safe.
 */
public final class SsdVolume {
  private final String dir;
  private final long capacity;
  private final long inputCacheCapacity;
  private final int poolUnits;
  private final long unitBytes;
  private final long localizedCacheCapacity;

  private SsdVolume(String dir, long capacity, long inputCacheCapacity, int poolUnits,
      long unitBytes, long localizedCacheCapacity) {
    this.dir = dir;
    this.capacity = capacity;
    this.inputCacheCapacity = inputCacheCapacity;
    this.poolUnits = poolUnits;
    this.unitBytes = unitBytes;
    this.localizedCacheCapacity = localizedCacheCapacity;
  }

  /**
   * Splits {@code capacity} bytes of {@code dir}: {@code localizedFraction} of it is the Localized
   * Cache, at least {@code inputFraction} of it the Input Cache, and the rest the Dynamic Pool in
   * units of {@code unitBytes}.
   *
   * @throws IllegalArgumentException naming the bad value when a size or fraction is out of range
   */
  public static SsdVolume split(String dir, long capacity, long unitBytes, double inputFraction,
      double localizedFraction) {
    Objects.requireNonNull(dir, "dir");
    if (dir.isEmpty()) {
      throw new IllegalArgumentException("SSD directory must not be empty");
    }
    if (capacity <= 0) {
      throw new IllegalArgumentException("Capacity of SSD directory " + dir
          + " must be positive: " + capacity);
    }
    if (unitBytes <= 0) {
      throw new IllegalArgumentException("Dynamic Pool unit size must be positive: " + unitBytes);
    }
    if (!(inputFraction >= 0 && localizedFraction >= 0
        && inputFraction + localizedFraction <= 1.0)) {
      throw new IllegalArgumentException("Input Cache fraction " + inputFraction
          + " and Localized Cache fraction " + localizedFraction
          + " must be non-negative and add up to at most 1");
    }
    long localized = (long) Math.floor(capacity * localizedFraction);
    long input = (long) Math.floor(capacity * inputFraction);
    long poolUnits = (capacity - localized - input) / unitBytes;
    if (poolUnits > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("Dynamic Pool of " + dir + " would have " + poolUnits
          + " units; raise the unit size " + unitBytes);
    }
    long inputCapacity = capacity - localized - poolUnits * unitBytes;
    return new SsdVolume(dir, capacity, inputCapacity, (int) poolUnits, unitBytes, localized);
  }

  /** The directory on the SSD; for localized data it is one of the NodeManager's local dirs. */
  public String dir() {
    return dir;
  }

  public long capacity() {
    return capacity;
  }

  /** The Input Cache's own bytes, not counting pool units lent to it. */
  public long inputCacheCapacity() {
    return inputCacheCapacity;
  }

  public int poolUnits() {
    return poolUnits;
  }

  /** The size of one Dynamic Pool unit: the HDFS block size. */
  public long unitBytes() {
    return unitBytes;
  }

  /** The Localized Cache's own bytes, not counting pool units lent to it. */
  public long localizedCacheCapacity() {
    return localizedCacheCapacity;
  }

  @Override
  public String toString() {
    return "SsdVolume{" + dir + ", capacity=" + capacity + ", input=" + inputCacheCapacity
        + ", pool=" + poolUnits + "x" + unitBytes + ", localized=" + localizedCacheCapacity + "}";
  }
}
