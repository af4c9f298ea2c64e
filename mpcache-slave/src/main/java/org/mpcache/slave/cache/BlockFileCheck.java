package org.mpcache.slave.cache;

import java.io.IOException;
import org.mpcache.common.BlockKey;

/**
 * Tells whether a block is the one a file of the cluster's own HDFS holds at an offset, with the
 * length claimed for it, as the NameNode says. The slave checks a reader's or a prefetch's claim so
 * before it asks the master to admit the block, so that the master judges the block by the file it
 * lies in,
 * never by the dataset the reader names (docs/security.md, "Operator controls"). Implementations
 * are thread-safe.
 */
@FunctionalInterface
public interface BlockFileCheck {
  /**
   * @return whether {@code key} is the block of {@code path} at {@code offset} and
   *     {@code length} bytes long; false also when the path is off the cluster's HDFS, the file
   *     is gone or the slave may not read it
   * @throws IOException when the NameNode cannot be asked
   */
  boolean isBlockOf(BlockKey key, String path, long offset, long length) throws IOException;
}
