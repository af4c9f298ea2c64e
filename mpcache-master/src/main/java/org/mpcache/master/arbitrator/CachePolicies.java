package org.mpcache.master.arbitrator;

import java.util.List;
import java.util.Objects;

/**
 * Creates cache policies by the name that selects them in configuration. mpCache's own policy,
 * {@value #DEFAULT}, is the default; the others are the baselines it is compared with (the
 * simulator adds a clairvoyant bound that needs the future and so cannot run in the master).
 *
 * <p>Stateless and thread-safe; every call returns a new, independent policy.
 */
public final class CachePolicies {
  /** The default policy's name. */
  public static final String DEFAULT = MpCachePolicy.NAME;

  private static final List<String> NAMES = List.of(MpCachePolicy.NAME, MpCachePolicy.GDSF_NAME,
      PacManPolicy.LIFE_NAME, PacManPolicy.LFU_F_NAME, BlockCachePolicy.LRU_NAME,
      BlockCachePolicy.LFU_NAME, NullCachePolicy.NAME);

  private CachePolicies() {
  }

  /** Every valid policy name, mpCache's first. */
  public static List<String> names() {
    return NAMES;
  }

  /**
   * A new policy.
   *
   * @throws IllegalArgumentException if the name is not one of {@link #names()}
   */
  public static CachePolicy create(String name, PolicyParameters parameters) {
    Objects.requireNonNull(parameters, "parameters");
    switch (Objects.requireNonNull(name, "name")) {
      case MpCachePolicy.NAME:
        return MpCachePolicy.mpCache(parameters);
      case MpCachePolicy.GDSF_NAME:
        return MpCachePolicy.gdsf(parameters);
      case PacManPolicy.LIFE_NAME:
        return PacManPolicy.life(parameters);
      case PacManPolicy.LFU_F_NAME:
        return PacManPolicy.lfuF(parameters);
      case BlockCachePolicy.LRU_NAME:
        return BlockCachePolicy.lru();
      case BlockCachePolicy.LFU_NAME:
        return BlockCachePolicy.lfu();
      case NullCachePolicy.NAME:
        return new NullCachePolicy();
      default:
        throw new IllegalArgumentException("Unknown cache policy '" + name
            + "'; valid names are " + String.join(", ", NAMES));
    }
  }
}
