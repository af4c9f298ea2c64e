package org.mpcache.tiers;

import java.util.List;
import java.util.Objects;

/**
 * The tier mechanism a run uses and why: a pure function of the configured {@link
 * MechanismChoice} and the {@link HostProbe}'s facts. Immutable and thread-safe.
 */
public final class MechanismDecision {
  private final TierMechanism mechanism;
  private final String reason;

  MechanismDecision(TierMechanism mechanism, String reason) {
    this.mechanism = Objects.requireNonNull(mechanism);
    this.reason = Objects.requireNonNull(reason);
  }

  /**
   * Decides. {@code auto} takes the kernel mechanism when nothing stands in its way and the user
   * space one otherwise, saying what was missing.
   *
   * @throws IllegalArgumentException when {@code kernel} is asked for and the machine does not
   *     allow it; the message lists the obstacles and the key to change
   */
  public static MechanismDecision decide(MechanismChoice choice, HostProbe host) {
    List<String> obstacles = host.kernelObstacles();
    switch (choice) {
      case NONE:
        return new MechanismDecision(TierMechanism.NONE,
            TierConfigKeys.MECHANISM_KEY + " = none");
      case USERSPACE:
        return new MechanismDecision(TierMechanism.USERSPACE,
            TierConfigKeys.MECHANISM_KEY + " = userspace");
      case KERNEL:
        if (!obstacles.isEmpty()) {
          throw new IllegalArgumentException(TierConfigKeys.MECHANISM_KEY + " = kernel, but this "
              + "machine does not allow it: " + String.join("; ", obstacles)
              + ". Run as root with loop devices and cgroup v1 blkio, or set "
              + TierConfigKeys.MECHANISM_KEY + " to auto or userspace.");
        }
        return new MechanismDecision(TierMechanism.KERNEL,
            TierConfigKeys.MECHANISM_KEY + " = kernel");
      case AUTO:
        if (obstacles.isEmpty()) {
          return new MechanismDecision(TierMechanism.KERNEL,
              "auto: root, loop devices and blkio throttling available");
        }
        return fallback("auto: kernel mechanism unavailable (" + String.join("; ", obstacles)
            + ")");
      default:
        throw new AssertionError(choice);
    }
  }

  /** The user-space mechanism, because the kernel one is unavailable or failed for {@code why}. */
  static MechanismDecision fallback(String why) {
    return new MechanismDecision(TierMechanism.USERSPACE, why + "; falling back to user space");
  }

  public TierMechanism mechanism() {
    return mechanism;
  }

  /** Why this mechanism, for the report printed with every result. */
  public String reason() {
    return reason;
  }

  @Override
  public String toString() {
    return mechanism.description() + " [" + reason + "]";
  }
}
