package org.mpcache.master.arbitrator;

import java.util.Objects;
import org.mpcache.common.BlockKey;

/**
 * A block a registering slave already holds on its SSD (cached before a restart of the slave or of
 * the master, or before the slave lost touch), with the dataset its SSD records it was cached for:
 * what the Replace Arbitrator adopts instead of evicting. Immutable.
 *
 * @param bytes the block's length
 * @param datasetId the dataset the block was cached for; null when the slave's record of it is
 *     unusable (the block is then evicted)
 * @param datasetBlocks that dataset's blocks, at least 1 when {@code datasetId} is given
 * @param file the HDFS file the block is of, as the slave found it at the NameNode before the
 *     fill: what the adoption check asks HDFS about; null when the slave has no record of it
 */
public record HeldBlock(BlockKey block, long bytes, String datasetId, int datasetBlocks,
    String file) {
  public HeldBlock {
    Objects.requireNonNull(block, "block");
  }

  /** Whether the block comes with a dataset the master can place it in. */
  public boolean hasDataset() {
    return datasetId != null && datasetBlocks >= 1 && bytes >= 0;
  }
}
