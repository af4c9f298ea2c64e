package org.mpcache.slave.store;

import java.util.Objects;
import org.mpcache.common.BlockKey;

/**
 * A block the store holds, as its sidecar records it: what the master needs to adopt the block
 * into its dataset when the slave registers (after a restart of either side), and check it against
 * its file.
 *
 * <p>Immutable.
 *
 * @param key the block
 * @param length its bytes
 * @param datasetId the dataset it was cached for (the replace request's)
 * @param datasetBlocks that dataset's blocks, as the reader that caused the fill counted them
 * @param file the HDFS file the block is of, as the slave found it at the NameNode before the
 *     fill (as the reader named it when fills are not verified); empty when unknown (a block
 *     cached before the sidecar recorded it)
 */
public record CachedBlock(BlockKey key, long length, String datasetId, int datasetBlocks,
    String file) {
  public CachedBlock {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(datasetId, "datasetId");
    Objects.requireNonNull(file, "file");
  }
}
