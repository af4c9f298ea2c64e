package org.mpcache.slave.master;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.mpcache.common.BlockKey;
import org.mpcache.slave.space.EvictionPlan;
import org.mpcache.slave.space.InputExcluder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Excludes cached input from the Dynamic Pool the way the paper prescribes (Section 2.1, by the
 * replacement scheme of Section 2.2): it asks the master's Replace Arbitrator, which chooses whole
 * datasets by Algorithm 1, evicts nothing itself, and returns this slave's blocks of those datasets
 * as the plan (the other slaves' blocks wait in their To_Del lists). The master reasons about the
 * whole slave, so when the chosen blocks lie in other SSD directories than the one that needs room,
 * it asks again for the rest, at most once per directory of the node. A master that cannot be
 * reached frees nothing: the localized data then goes to the HDDs.
 *
 * <p>Called by the Localized Cache between two calls to the
 * {@link org.mpcache.slave.space.DynamicSpaceTuner}, with no lock held, so the reclaim RPC (bounded
 * by the RPC timeout) holds none; thread-safe as long as the two functions it is given are (the
 * slave's {@code dirOf} takes the space lock).
 */
public final class MasterInputExcluder implements InputExcluder {
  private static final Logger LOG = LoggerFactory.getLogger(MasterInputExcluder.class);

  /** The reclaim request to the master ({@link MasterLink#requestReclaim}). */
  @FunctionalInterface
  public interface Reclaimer {
    /** This slave's blocks to evict so that {@code bytes} of its Input Cache are freed. */
    List<BlockKey> reclaim(long bytes) throws IOException;
  }

  private final Reclaimer master;
  private final Function<BlockKey, String> dirOf;
  private final ToLongFunction<BlockKey> lengthOf;
  private final int maxRounds;

  /**
   * @param master carries the reclaim request (the slave's {@code MasterLink::requestReclaim})
   * @param dirOf the SSD directory a cached block is in ({@code null} if none)
   * @param lengthOf a cached block's length (negative if it is not cached)
   * @param dirs how many SSD directories the node has: the most reclaim requests per plan
   */
  public MasterInputExcluder(Reclaimer master, Function<BlockKey, String> dirOf,
      ToLongFunction<BlockKey> lengthOf, int dirs) {
    this.master = Objects.requireNonNull(master, "master");
    this.dirOf = Objects.requireNonNull(dirOf, "dirOf");
    this.lengthOf = Objects.requireNonNull(lengthOf, "lengthOf");
    if (dirs < 1) {
      throw new IllegalArgumentException("dirs must be positive: " + dirs);
    }
    this.maxRounds = dirs;
  }

  @Override
  public EvictionPlan planExclusion(String dir, long bytesWanted) {
    List<BlockKey> plan = new ArrayList<>();
    long freedHere = 0;
    for (int round = 0; round < maxRounds && freedHere < bytesWanted; round++) {
      List<BlockKey> blocks;
      try {
        blocks = master.reclaim(bytesWanted - freedHere);
      } catch (IOException e) {
        LOG.warn("Cannot ask the master which cached input to exclude: {}", e.getMessage());
        break;
      }
      if (blocks.isEmpty()) {
        break;
      }
      for (BlockKey b : blocks) {
        if (dir.equals(dirOf.apply(b))) {
          freedHere += Math.max(0, lengthOf.applyAsLong(b));
        }
        plan.add(b);
      }
    }
    return new EvictionPlan(plan);
  }
}
