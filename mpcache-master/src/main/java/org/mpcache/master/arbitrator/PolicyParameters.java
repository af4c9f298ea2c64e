package org.mpcache.master.arbitrator;

/**
 * The tunable numbers of the cache policies, validated at construction. Immutable.
 *
 * <ul>
 *   <li>{@code fullBonus}: the {@code Full} term of Equation 2, added to a dataset's priority while
 *       every one of its blocks is cached (the all-or-nothing bonus).</li>
 *   <li>{@code auxiliaryCapacity}: how many dataset identities the admission control's auxiliary
 *       cache remembers (LRU).</li>
 * </ul>
 */
public final class PolicyParameters {
  /**
   * The default {@code Full} bonus: small beside the frequency terms {@code Fr/Size}, so that it
   * breaks near-ties in favour of complete datasets without overriding frequency (the simulator's
   * sweep in docs/policy.md).
   */
  public static final double DEFAULT_FULL_BONUS = 0.001;
  /** The default size of the auxiliary cache, in dataset identities. */
  public static final int DEFAULT_AUXILIARY_CAPACITY = 1024;

  private final double fullBonus;
  private final int auxiliaryCapacity;

  public PolicyParameters(double fullBonus, int auxiliaryCapacity) {
    if (!(fullBonus >= 0) || Double.isInfinite(fullBonus)) {
      throw new IllegalArgumentException("full bonus must be a finite number >= 0, got "
          + fullBonus);
    }
    if (auxiliaryCapacity < 1) {
      throw new IllegalArgumentException("auxiliary cache capacity must be at least 1, got "
          + auxiliaryCapacity);
    }
    this.fullBonus = fullBonus;
    this.auxiliaryCapacity = auxiliaryCapacity;
  }

  public static PolicyParameters defaults() {
    return new PolicyParameters(DEFAULT_FULL_BONUS, DEFAULT_AUXILIARY_CAPACITY);
  }

  public double fullBonus() {
    return fullBonus;
  }

  public int auxiliaryCapacity() {
    return auxiliaryCapacity;
  }
}
