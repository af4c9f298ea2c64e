package org.mpcache.master.arbitrator;

import org.mpcache.common.BlockKey;

/**
 * One block admitted to one slave's Input Cache, as the master remembers it. The fields of the
 * block key are inlined and the entry is threaded on two intrusive lists (its hash bucket in
 * {@link CachedBlockIndex} and its dataset's block list), which keeps the master's metadata near
 * 64 bytes per cached block (measured in docs/simulator.md).
 *
 * <p>Not thread-safe: owned by one {@link CachedBlockIndex}.
 */
final class CachedBlock {
  final String blockPoolId;
  final long blockId;
  final long generationStamp;
  final long bytes;
  final int slave;
  final DatasetEntry dataset;
  CachedBlock prevInDataset;
  CachedBlock nextInDataset;
  CachedBlock nextInBucket;

  CachedBlock(BlockKey key, long bytes, int slave, DatasetEntry dataset) {
    this.blockPoolId = key.getBlockPoolId();
    this.blockId = key.getBlockId();
    this.generationStamp = key.getGenerationStamp();
    this.bytes = bytes;
    this.slave = slave;
    this.dataset = dataset;
  }

  boolean sameBlock(BlockKey key) {
    return blockId == key.getBlockId() && generationStamp == key.getGenerationStamp()
        && blockPoolId.equals(key.getBlockPoolId());
  }

  boolean sameBlock(CachedBlock o) {
    return blockId == o.blockId && generationStamp == o.generationStamp
        && blockPoolId.equals(o.blockPoolId);
  }

  BlockKey key() {
    return new BlockKey(blockPoolId, blockId, generationStamp);
  }
}
