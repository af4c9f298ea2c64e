package org.mpcache.benchmarks.sim;

/**
 * One job of a simulated trace: its id, what it reads (a dataset of some blocks) and the Map and
 * Reduce times it takes on Hadoop without a cache. Immutable.
 */
public final class SimJob {
  final String id;
  final String benchmark;
  final String dataset;
  final int blocks;
  final double mapSeconds;
  final double reduceSeconds;

  public SimJob(String id, String benchmark, String dataset, int blocks, double mapSeconds,
      double reduceSeconds) {
    if (blocks < 1) {
      throw new IllegalArgumentException("A job reads at least one block: " + id);
    }
    this.id = id;
    this.benchmark = benchmark;
    this.dataset = dataset;
    this.blocks = blocks;
    this.mapSeconds = mapSeconds;
    this.reduceSeconds = reduceSeconds;
  }
}
