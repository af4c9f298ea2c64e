package org.mpcache.benchmarks.puma;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The text form of a cluster's members in classification and k-means output: movie ids in
 * increasing order, comma-separated, so that output does not depend on the order in which the
 * shuffle delivered them.
 *
 * <p>Stateless and thread-safe.
 */
public final class MovieIdList {
  private MovieIdList() {
  }

  /** Formats {@code ids}, which may be in any order. */
  public static String format(List<Integer> ids) {
    return ids.stream().sorted().map(String::valueOf).collect(Collectors.joining(","));
  }
}
