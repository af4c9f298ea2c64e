package org.mpcache.sim;

/**
 * One job of a simulated trace: its id, the dataset it reads, the blocks and bytes it reads (the
 * first {@code blocks} of the dataset's {@code datasetBlocks}: the whole dataset, or a prefix of it
 * for a trace job that read part of its path), its shuffle and output bytes, and, for a job of the
 * paper's mix, the Table 1 benchmark and size class k it was drawn as (null and 0 for a job read
 * from a trace file). The cost model turns these into seconds. Immutable.
 */
public final class SimJob {
  final String id;
  final String benchmark;
  final String dataset;
  /** The blocks this job reads, the dataset's first ones. */
  final int blocks;
  /** The dataset's blocks, at least {@code blocks}. */
  final int datasetBlocks;
  final long inputBytes;
  final long shuffleBytes;
  final long outputBytes;
  /** The Table 1 row, or null for a trace job. */
  final Benchmark puma;
  /** The size class k of a paper-mix job; 0 for a trace job. */
  final int sizeClass;

  /** A job reading the whole of its dataset, {@code blocks} blocks. */
  SimJob(String id, String benchmark, String dataset, int blocks, long inputBytes,
      long shuffleBytes, long outputBytes, Benchmark puma, int sizeClass) {
    this(id, benchmark, dataset, blocks, blocks, inputBytes, shuffleBytes, outputBytes, puma,
        sizeClass);
  }

  /** A job reading the first {@code blocks} of its dataset's {@code datasetBlocks}. */
  SimJob(String id, String benchmark, String dataset, int blocks, int datasetBlocks,
      long inputBytes, long shuffleBytes, long outputBytes, Benchmark puma, int sizeClass) {
    if (blocks < 1 || datasetBlocks < blocks || inputBytes < 1 || shuffleBytes < 0
        || outputBytes < 0) {
      throw new IllegalArgumentException("A job reads at least one byte in at least one block "
          + "of its dataset and has no negative shuffle or output: " + id + " (blocks " + blocks
          + " of " + datasetBlocks + ", input " + inputBytes + ", shuffle " + shuffleBytes
          + ", output " + outputBytes + ")");
    }
    this.id = id;
    this.benchmark = benchmark;
    this.dataset = dataset;
    this.blocks = blocks;
    this.datasetBlocks = datasetBlocks;
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
