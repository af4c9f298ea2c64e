package org.mpcache.master.adoption;

import java.io.IOException;
import java.util.Collection;
import java.util.Set;
import org.mpcache.common.BlockKey;

/**
 * Tells which cached copies HDFS no longer has: a copy names its block by pool, id and generation
 * stamp, and a file deleted or replaced, or a block appended to (a new generation stamp), while
 * the copy sat on a slave's SSD leaves it naming a block HDFS does not serve. Implementations ask
 * the NameNode a file at a time, never a block at a time, and are thread-safe.
 */
public interface GenerationStamps {

  /** Checks nothing: every block is taken as current. */
  GenerationStamps NONE = (file, blocks) -> Set.of();

  /**
   * Of {@code blocks}, cached from HDFS file {@code file}, those the file no longer has with that
   * generation stamp (all of them when the file is gone). A file HDFS cannot be asked about (not
   * on the cluster's own HDFS, or not readable by the master) has none.
   *
   * @throws IOException when HDFS cannot answer now (the caller asks again later)
   */
  Set<BlockKey> stale(String file, Collection<BlockKey> blocks) throws IOException;
}
