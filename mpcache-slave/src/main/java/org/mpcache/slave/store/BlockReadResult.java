package org.mpcache.slave.store;

/**
 * Bytes read from a cached block: they start at {@code offset}, a multiple of {@code chunkSize} at
 * or before the offset asked for, and {@code checksums[i]} is the stored CRC32C of the i-th chunk
 * of {@code data}. The last chunk may be short only at the end of the block. Immutable by
 * convention: callers do not modify the arrays.
 */
public final class BlockReadResult {
  private final long offset;
  private final byte[] data;
  private final int chunkSize;
  private final int[] checksums;

  BlockReadResult(long offset, byte[] data, int chunkSize, int[] checksums) {
    this.offset = offset;
    this.data = data;
    this.chunkSize = chunkSize;
    this.checksums = checksums;
  }

  public long offset() {
    return offset;
  }

  public byte[] data() {
    return data;
  }

  public int chunkSize() {
    return chunkSize;
  }

  public int[] checksums() {
    return checksums;
  }
}
