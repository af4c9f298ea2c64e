package org.mpcache.slave.space;

import java.util.List;
import java.util.Objects;
import org.mpcache.common.BlockKey;

/**
 * The outcome of asking the {@link DynamicSpaceTuner} for space: whether the bytes were reserved, in
 * which SSD directory, and which cached input blocks were excluded from the Dynamic Pool to make room
 * (the caller deletes those before anyone writes into the space). A denied reservation may still list
 * excluded blocks: the exclusion happened and its space is free, it just did not suffice. Immutable
 * and thread-safe.
 *
 * @param reserved whether the bytes are now reserved
 * @param dir the SSD directory holding the reservation; {@code null} when not reserved
 * @param excluded cached input blocks the tuner no longer accounts and the caller must delete
 */
public record Reservation(boolean reserved, String dir, List<BlockKey> excluded) {

  public Reservation {
    excluded = List.copyOf(Objects.requireNonNull(excluded, "excluded"));
    if (reserved == (dir == null)) {
      throw new IllegalArgumentException("A reservation has a directory exactly when it is granted");
    }
  }

  static Reservation granted(String dir, List<BlockKey> excluded) {
    return new Reservation(true, Objects.requireNonNull(dir, "dir"), excluded);
  }

  static Reservation denied(List<BlockKey> excluded) {
    return new Reservation(false, null, excluded);
  }
}
