package org.mpcache.sim;

/**
 * One job of a simulated trace: its id, the dataset it reads (and that dataset's blocks and
 * bytes), its shuffle and output bytes, and, for a job of the paper's mix, the Table 1 benchmark
 * and size class k it was drawn as (null and 0 for a job read from a trace file). The cost model
 * turns these into seconds. Immutable.
 */
public final class SimJob {
  final String id;
  final String benchmark;
  final String dataset;
  final int blocks;
  final long inputBytes;
  final long shuffleBytes;
  final long outputBytes;
  /** The Table 1 row, or null for a trace job. */
  final Benchmark puma;
  /** The size class k of a paper-mix job; 0 for a trace job. */
  final int sizeClass;

  SimJob(String id, String benchmark, String dataset, int blocks, long inputBytes,
      long shuffleBytes, long outputBytes, Benchmark puma, int sizeClass) {
    if (blocks < 1 || inputBytes < 1 || shuffleBytes < 0 || outputBytes < 0) {
      throw new IllegalArgumentException("A job reads at least one byte in at least one block "
          + "and has no negative shuffle or output: " + id + " (blocks " + blocks + ", input "
          + inputBytes + ", shuffle " + shuffleBytes + ", output " + outputBytes + ")");
    }
    this.id = id;
    this.benchmark = benchmark;
    this.dataset = dataset;
    this.blocks = blocks;
    this.inputBytes = inputBytes;
    this.shuffleBytes = shuffleBytes;
    this.outputBytes = outputBytes;
    this.puma = puma;
    this.sizeClass = sizeClass;
  }

  /** The number of blocks of {@code bytes} bytes in blocks of {@code blockBytes}, at least 1. */
  static int blocksOf(long bytes, long blockBytes) {
    return (int) Math.max(1, (bytes + blockBytes - 1) / blockBytes);
  }
}
