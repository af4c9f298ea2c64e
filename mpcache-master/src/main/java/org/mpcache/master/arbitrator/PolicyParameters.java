package org.mpcache.master.arbitrator;

/**
 * The tunable numbers of the cache policies, validated at construction. Immutable.
 *
 * <ul>
 *   <li>{@code fullBonus}: the {@code Full} term of Equation 2, added to a dataset's priority while
 *       every one of its blocks is cached (the all-or-nothing bonus).</li>
 *   <li>{@code auxiliaryCapacity}: how many dataset identities the admission control's auxiliary
 *       cache remembers (LRU).</li>
 *   <li>{@code sizeExponent}: the exponent {@code b} of {@code Size} where the mpcache policy
 *       weighs a dataset by its frequency per size, {@code Fr/Size^b}, in its priority and its
 *       admission test alike: 1, the paper's rule, values the jobs a dataset speeds up per byte
 *       held; lower values favour large, often-read datasets, and so the bytes served from SSD
 *       (docs/policy.md, "The size exponent").</li>
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
  /** The default size exponent: the paper's {@code Fr/Size}. */
  public static final double DEFAULT_SIZE_EXPONENT = 1.0;

  private final double fullBonus;
  private final int auxiliaryCapacity;
  private final double sizeExponent;

  /** These parameters with the paper's size exponent, 1. */
  public PolicyParameters(double fullBonus, int auxiliaryCapacity) {
    this(fullBonus, auxiliaryCapacity, DEFAULT_SIZE_EXPONENT);
  }

  public PolicyParameters(double fullBonus, int auxiliaryCapacity, double sizeExponent) {
    if (!(fullBonus >= 0) || Double.isInfinite(fullBonus)) {
      throw new IllegalArgumentException("full bonus must be a finite number >= 0, got "
          + fullBonus);
    }
    if (auxiliaryCapacity < 1) {
      throw new IllegalArgumentException("auxiliary cache capacity must be at least 1, got "
          + auxiliaryCapacity);
    }
    if (!(sizeExponent >= 0 && sizeExponent <= 1)) {
      throw new IllegalArgumentException("size exponent must be a number from 0 to 1 (1: the "
          + "paper's Fr/Size), got " + sizeExponent);
    }
    this.fullBonus = fullBonus;
    this.auxiliaryCapacity = auxiliaryCapacity;
    this.sizeExponent = sizeExponent;
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

  public double sizeExponent() {
    return sizeExponent;
  }

  /**
   * {@code Size^b}, what a dataset's frequency is divided by; exactly {@code size} at the default
   * {@code b = 1}, without a call to {@code Math.pow} on the policy's hot path.
   */
  double sizeWeight(int size) {
    return sizeExponent == 1 ? size : Math.pow(size, sizeExponent);
  }
}
