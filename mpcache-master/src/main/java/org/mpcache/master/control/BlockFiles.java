package org.mpcache.master.control;

import java.io.IOException;
import org.mpcache.common.BlockKey;

/**
 * Tells which file a block is of, so that the operators' controls judge a block by where it lies
 * rather than by the dataset a reader names for it (docs/security.md, "Operator controls").
 * Implementations must be thread-safe: RPC handlers ask it outside the arbitrator's lock.
 */
public interface BlockFiles {
  /**
   * The file {@code path}, qualified, when its block at {@code offset} is {@code block}; null
   * when it is not, or when that cannot be told (another file system, a file the master may not
   * read, a file that is gone).
   */
  String fileOf(BlockKey block, String path, long offset) throws IOException;
}
