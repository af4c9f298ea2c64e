package org.mpcache.slave.store;

/**
 * Bytes read from a cached block: they start at {@code offset}, a multiple of {@code chunkSize} at
 * or before the offset asked for, and {@code checksums[i]} is the stored CRC32C of the i-th chunk
 * of {@code data}. The last chunk may be short only at the end of the block. Immutable by
 * convention: callers do not modify the arrays.
 */
public record BlockReadResult(long offset, byte[] data, int chunkSize, int[] checksums) {
}
