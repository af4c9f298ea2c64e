package org.mpcache.master.registry;

import java.util.List;
import org.mpcache.common.BlockKey;

/**
 * What each slave stores, as the Replace Arbitrator's placement index knows it: the registry's
 * read-only view of it, for its report and {@link SlaveRegistry#blocksOf}. Implementations are
 * thread-safe; the registry calls them without holding its own monitor.
 */
public interface SlaveHoldings {
  /** Holds nothing: the view before the arbitrator is wired in. */
  SlaveHoldings NONE = new SlaveHoldings() {
    @Override
    public int storedCount(String slaveId) {
      return 0;
    }

    @Override
    public List<BlockKey> storedOn(String slaveId) {
      return List.of();
    }
  };

  /** How many blocks a slave stores. */
  int storedCount(String slaveId);

  /** The blocks a slave stores. */
  List<BlockKey> storedOn(String slaveId);
}
