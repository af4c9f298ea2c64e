package org.mpcache.slave.store;

import java.io.IOException;
import org.mpcache.common.BlockKey;

/**
 * A read or verification named a block the store does not hold (never cached, evicted, or still
 * being filled). The client falls back to HDFS; retrying the same slave will not help.
 */
public final class BlockNotCachedException extends IOException {
  private static final long serialVersionUID = 1L;

  public BlockNotCachedException(BlockKey key) {
    super("Block " + key + " is not cached on this slave");
  }
}
