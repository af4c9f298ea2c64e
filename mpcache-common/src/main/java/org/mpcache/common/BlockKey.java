package org.mpcache.common;

import java.util.Objects;

/**
 * The identity of one cached HDFS block: block pool, block id and generation stamp.
 *
 * <p>The generation stamp is part of the key on purpose: HDFS bumps it whenever a block's contents
 * can change (append, pipeline recovery), and an overwritten file gets new block ids, so a key never
 * names two different contents and a stale copy can never be served. Immutable and thread-safe.
 */
public final class BlockKey implements Comparable<BlockKey> {
  /**
   * The longest block pool id accepted. HDFS's are about 40 characters ({@code BP-<random>-<ip>-
   * <time>}); the id names a directory and, with the block's file name, a file on the SSD, which
   * must stay under the file system's 255-byte name limit.
   */
  public static final int MAX_POOL_ID_CHARS = 128;

  private final String blockPoolId;
  private final long blockId;
  private final long generationStamp;

  public BlockKey(String blockPoolId, long blockId, long generationStamp) {
    this.blockPoolId = Objects.requireNonNull(blockPoolId, "blockPoolId");
    if (blockPoolId.isEmpty() || blockPoolId.length() > MAX_POOL_ID_CHARS
        || blockPoolId.indexOf('/') >= 0 || blockPoolId.contains("..")
        || hasControlCharacter(blockPoolId)) {
      throw new IllegalArgumentException("Invalid block pool id '"
          + blockPoolId.replaceAll("\\p{Cntrl}", "?") + "': it must be 1 to " + MAX_POOL_ID_CHARS
          + " characters without '/', '..' or control characters");
    }
    if (generationStamp < 0) {
      throw new IllegalArgumentException("Negative generation stamp " + generationStamp);
    }
    this.blockId = blockId;
    this.generationStamp = generationStamp;
  }

  /** A plain loop, not a stream: every block key built is checked (the simulator builds many). */
  private static boolean hasControlCharacter(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (Character.isISOControl(s.charAt(i))) {
        return true;
      }
    }
    return false;
  }

  public String getBlockPoolId() {
    return blockPoolId;
  }

  public long getBlockId() {
    return blockId;
  }

  public long getGenerationStamp() {
    return generationStamp;
  }

  /** A file-name-safe rendering, {@code blk_<id>_<genstamp>}, unique within one block pool. */
  public String fileName() {
    return "blk_" + blockId + "_" + generationStamp;
  }

  @Override
  public int compareTo(BlockKey o) {
    int c = blockPoolId.compareTo(o.blockPoolId);
    if (c != 0) {
      return c;
    }
    c = Long.compare(blockId, o.blockId);
    return c != 0 ? c : Long.compare(generationStamp, o.generationStamp);
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof BlockKey)) {
      return false;
    }
    BlockKey k = (BlockKey) o;
    return blockId == k.blockId && generationStamp == k.generationStamp
        && blockPoolId.equals(k.blockPoolId);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(blockId) * 31 + Long.hashCode(generationStamp);
  }

  @Override
  public String toString() {
    return blockPoolId + ":" + fileName();
  }
}
