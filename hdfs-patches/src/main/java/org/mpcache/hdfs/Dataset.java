package org.mpcache.hdfs;

/**
 * The dataset a read belongs to, as the Replace Arbitrator counts datasets: its identity, its
 * size in blocks (an estimate that errs high by at most one block per file) and in bytes (its
 * paths' lengths, 0 when not measured). Immutable.
 */
record Dataset(String id, int blocks, long bytes) {
  Dataset {
    blocks = Math.max(1, blocks);
    bytes = Math.max(0, bytes);
  }

  @Override
  public String toString() {
    return id + " (" + blocks + " blocks, " + bytes + " bytes)";
  }
}
