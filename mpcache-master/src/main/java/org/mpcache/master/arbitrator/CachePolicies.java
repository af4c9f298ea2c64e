package org.mpcache.master.arbitrator;

import java.util.List;

/**
 * The cache policies by the names {@code mpcache.master.policy} accepts. Stateless.
 */
public final class CachePolicies {
  /** The paper's admission control and priority-queue replacement (the default). */
  public static final String MPCACHE = "mpcache";
  /** Never caches anything: mpCache's daemons run, every read goes to HDFS. */
  public static final String NONE = "none";

  private CachePolicies() {
  }

  /** Every accepted name. */
  public static List<String> names() {
    return List.of(MPCACHE, NONE);
  }

  /**
   * A new policy.
   *
   * @throws IllegalArgumentException for an unknown name, listing the known ones
   */
  public static CachePolicy create(String name, PolicyParameters parameters) {
    switch (name) {
      case MPCACHE:
        return new MpCachePolicy(parameters);
      case NONE:
        return new NullPolicy();
      default:
        throw new IllegalArgumentException("Unknown cache policy '" + name + "'; known policies: "
            + String.join(", ", names()));
    }
  }
}
