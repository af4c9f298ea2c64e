package org.mpcache.hdfs;

/**
 * The dataset a read belongs to, as the Replace Arbitrator counts datasets: its identity and its
 * size in blocks (an estimate that errs high by at most one block per file). Immutable.
 */
final class Dataset {
  final String id;
  final int blocks;

  Dataset(String id, int blocks) {
    this.id = id;
    this.blocks = Math.max(1, blocks);
  }

  @Override
  public String toString() {
    return id + " (" + blocks + " blocks)";
  }
}
