package org.mpcache.master.arbitrator;

import java.util.Objects;

/**
 * The tunable numbers of the cache policies, as one immutable value: the daemon maps its
 * configuration keys onto it and the simulator its command-line flags. Every parameter has a
 * default; {@link Builder#build()} validates them all and names the offending parameter, its value
 * and the accepted range.
 *
 * <ul>
 *   <li>{@code fullBonus} (default {@value #DEFAULT_FULL_BONUS}): the {@code Full} term of the
 *       paper's Equation 2, added to the priority of a dataset whose every block is cached. One unit
 *       equals the frequency term {@code Fr/Size} of a one-block dataset read once; the frequency
 *       terms of the PUMA datasets lie between about 1e-3 and 1. The default is small on purpose:
 *       larger bonuses make every complete dataset outrank the frequency order, and measured on
 *       the paper's mix they lower the effective hit ratio (docs/policy.md). Used by "mpcache".
 *   <li>{@code auxiliaryCacheDatasets} (default {@value #DEFAULT_AUXILIARY_CACHE_DATASETS}): how
 *       many dataset identities the auxiliary cache of the admission control remembers (LRU). Every
 *       dataset policy uses it to recognise repeated dataset accesses; "mpcache" also admits by it.
 *   <li>{@code auxiliaryMaxAgeMillis} (default 0 = no limit): an auxiliary-cache entry whose last
 *       access is older than this no longer counts as present for admission.
 *   <li>{@code frequencyHalfLifeAccesses} (default {@value #DEFAULT_FREQUENCY_HALF_LIFE}): after
 *       this many dataset accesses, an access counts half as much in "lfu-f"'s aged frequency.
 * </ul>
 *
 * <p>Immutable and thread-safe.
 */
public final class PolicyParameters {
  public static final double DEFAULT_FULL_BONUS = 0.001;
  public static final int DEFAULT_AUXILIARY_CACHE_DATASETS = 1024;
  public static final long DEFAULT_AUXILIARY_MAX_AGE_MILLIS = 0;
  public static final int DEFAULT_FREQUENCY_HALF_LIFE = 1000;

  private final double fullBonus;
  private final int auxiliaryCacheDatasets;
  private final long auxiliaryMaxAgeMillis;
  private final int frequencyHalfLifeAccesses;

  private PolicyParameters(Builder b) {
    this.fullBonus = b.fullBonus;
    this.auxiliaryCacheDatasets = b.auxiliaryCacheDatasets;
    this.auxiliaryMaxAgeMillis = b.auxiliaryMaxAgeMillis;
    this.frequencyHalfLifeAccesses = b.frequencyHalfLifeAccesses;
  }

  /** All parameters at their defaults. */
  public static PolicyParameters defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder preset to this value's parameters. */
  public Builder toBuilder() {
    return builder().fullBonus(fullBonus).auxiliaryCacheDatasets(auxiliaryCacheDatasets)
        .auxiliaryMaxAgeMillis(auxiliaryMaxAgeMillis)
        .frequencyHalfLifeAccesses(frequencyHalfLifeAccesses);
  }

  public double fullBonus() {
    return fullBonus;
  }

  public int auxiliaryCacheDatasets() {
    return auxiliaryCacheDatasets;
  }

  public long auxiliaryMaxAgeMillis() {
    return auxiliaryMaxAgeMillis;
  }

  public int frequencyHalfLifeAccesses() {
    return frequencyHalfLifeAccesses;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof PolicyParameters)) {
      return false;
    }
    PolicyParameters p = (PolicyParameters) o;
    return Double.compare(fullBonus, p.fullBonus) == 0
        && auxiliaryCacheDatasets == p.auxiliaryCacheDatasets
        && auxiliaryMaxAgeMillis == p.auxiliaryMaxAgeMillis
        && frequencyHalfLifeAccesses == p.frequencyHalfLifeAccesses;
  }

  @Override
  public int hashCode() {
    return Objects.hash(fullBonus, auxiliaryCacheDatasets, auxiliaryMaxAgeMillis,
        frequencyHalfLifeAccesses);
  }

  @Override
  public String toString() {
    return "PolicyParameters{fullBonus=" + fullBonus + ", auxiliaryCacheDatasets="
        + auxiliaryCacheDatasets + ", auxiliaryMaxAgeMillis=" + auxiliaryMaxAgeMillis
        + ", frequencyHalfLifeAccesses=" + frequencyHalfLifeAccesses + "}";
  }

  /** Collects parameters; {@link #build()} validates them. Not thread-safe. */
  public static final class Builder {
    private double fullBonus = DEFAULT_FULL_BONUS;
    private int auxiliaryCacheDatasets = DEFAULT_AUXILIARY_CACHE_DATASETS;
    private long auxiliaryMaxAgeMillis = DEFAULT_AUXILIARY_MAX_AGE_MILLIS;
    private int frequencyHalfLifeAccesses = DEFAULT_FREQUENCY_HALF_LIFE;

    private Builder() {
    }

    public Builder fullBonus(double v) {
      this.fullBonus = v;
      return this;
    }

    public Builder auxiliaryCacheDatasets(int v) {
      this.auxiliaryCacheDatasets = v;
      return this;
    }

    public Builder auxiliaryMaxAgeMillis(long v) {
      this.auxiliaryMaxAgeMillis = v;
      return this;
    }

    public Builder frequencyHalfLifeAccesses(int v) {
      this.frequencyHalfLifeAccesses = v;
      return this;
    }

    /**
     * @throws IllegalArgumentException naming the first invalid parameter, its value and the range
     */
    public PolicyParameters build() {
      if (!Double.isFinite(fullBonus) || fullBonus < 0) {
        throw new IllegalArgumentException("fullBonus must be a finite number >= 0, was "
            + fullBonus + "; use 0 to disable the all-or-nothing bonus");
      }
      if (auxiliaryCacheDatasets < 1) {
        throw new IllegalArgumentException("auxiliaryCacheDatasets must be at least 1, was "
            + auxiliaryCacheDatasets + "; it counts dataset identities, not bytes");
      }
      if (auxiliaryMaxAgeMillis < 0) {
        throw new IllegalArgumentException("auxiliaryMaxAgeMillis must be >= 0, was "
            + auxiliaryMaxAgeMillis + "; use 0 for no age limit");
      }
      if (frequencyHalfLifeAccesses < 1) {
        throw new IllegalArgumentException("frequencyHalfLifeAccesses must be at least 1, was "
            + frequencyHalfLifeAccesses);
      }
      return new PolicyParameters(this);
    }
  }
}
