package org.mpcache.tiers;

import java.util.Locale;

/**
 * What the configuration asks for in {@link TierConfigKeys#MECHANISM_KEY}; {@link
 * MechanismDecision} turns it into the {@link TierMechanism} actually used on this machine.
 */
public enum MechanismChoice {
  /** The kernel mechanism where the machine allows it, else the user-space one. */
  AUTO,
  /** The kernel mechanism or an error. */
  KERNEL,
  /** The user-space mechanism even where the kernel one would work. */
  USERSPACE,
  /** Plain directories on the machine's own disk, no emulation. */
  NONE;

  /** Parses a configuration value (case-insensitive); the error names the key and the choices. */
  public static MechanismChoice parse(String value) {
    String v = value == null ? "" : value.trim().toUpperCase(Locale.ROOT);
    for (MechanismChoice c : values()) {
      if (c.name().equals(v)) {
        return c;
      }
    }
    throw new IllegalArgumentException(TierConfigKeys.MECHANISM_KEY + " = '" + value
        + "' is not a tier mechanism: use auto, kernel, userspace or none");
  }

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}
