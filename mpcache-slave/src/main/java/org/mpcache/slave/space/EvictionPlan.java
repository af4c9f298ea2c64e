package org.mpcache.slave.space;

import java.util.List;
import java.util.Objects;
import org.mpcache.common.BlockKey;

/**
 * Which cached input blocks to drop from a slave's SSD so that the Dynamic Pool units they occupy can
 * go to the Localized Cache. Whole datasets are dropped at once, as the master's Replace Arbitrator
 * decides (mpCache paper, Algorithm 1); the plan lists this slave's blocks of those datasets. Immutable
 * and thread-safe.
 */
public record EvictionPlan(List<BlockKey> blocks) {

  /** The plan that drops nothing. */
  public static final EvictionPlan NONE = new EvictionPlan(List.of());

  public EvictionPlan {
    blocks = List.copyOf(Objects.requireNonNull(blocks, "blocks"));
  }
}
