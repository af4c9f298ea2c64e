package org.mpcache.master.arbitrator;

import java.util.Objects;
import org.mpcache.common.BlockKey;

/**
 * One read of one input block by a job, as a slave reports it to the master: which slave, which
 * block and how large, which dataset it belongs to and how many blocks and bytes that dataset has
 * (as far as the reader knows), which job read it, and when. Immutable.
 */
public final class BlockAccess {
  private final String slaveId;
  private final BlockKey block;
  private final long blockBytes;
  private final String datasetId;
  private final int datasetBlocks;
  private final long datasetBytes;
  private final String jobId;
  private final long timeMillis;

  /** An access whose reader did not measure the dataset's bytes. */
  public BlockAccess(String slaveId, BlockKey block, long blockBytes, String datasetId,
      int datasetBlocks, String jobId, long timeMillis) {
    this(slaveId, block, blockBytes, datasetId, datasetBlocks, 0, jobId, timeMillis);
  }

  /**
   * @param datasetBlocks the number of blocks in the dataset, at least 1
   * @param datasetBytes the dataset's bytes (its paths' lengths), 0 when not known
   * @param jobId the reading job, or the empty string when unknown
   */
  public BlockAccess(String slaveId, BlockKey block, long blockBytes, String datasetId,
      int datasetBlocks, long datasetBytes, String jobId, long timeMillis) {
    this.slaveId = Objects.requireNonNull(slaveId, "slaveId");
    this.block = Objects.requireNonNull(block, "block");
    this.datasetId = Objects.requireNonNull(datasetId, "datasetId");
    this.jobId = Objects.requireNonNull(jobId, "jobId");
    if (blockBytes < 0) {
      throw new IllegalArgumentException("blockBytes must not be negative: " + blockBytes);
    }
    if (datasetBlocks < 1) {
      throw new IllegalArgumentException("datasetBlocks must be at least 1: " + datasetBlocks);
    }
    if (datasetBytes < 0) {
      throw new IllegalArgumentException("datasetBytes must not be negative: " + datasetBytes);
    }
    this.datasetBytes = datasetBytes;
    this.blockBytes = blockBytes;
    this.datasetBlocks = datasetBlocks;
    this.timeMillis = timeMillis;
  }

  public String slaveId() {
    return slaveId;
  }

  public BlockKey block() {
    return block;
  }

  public long blockBytes() {
    return blockBytes;
  }

  public String datasetId() {
    return datasetId;
  }

  public int datasetBlocks() {
    return datasetBlocks;
  }

  /** The dataset's bytes as the reader measured them; 0 when not known. */
  public long datasetBytes() {
    return datasetBytes;
  }

  public String jobId() {
    return jobId;
  }

  public long timeMillis() {
    return timeMillis;
  }

  @Override
  public String toString() {
    return "BlockAccess{" + slaveId + ", " + block + ", " + blockBytes + "B, dataset=" + datasetId
        + "/" + datasetBlocks + "/" + datasetBytes + "B, job=" + jobId + ", t=" + timeMillis + "}";
  }
}
