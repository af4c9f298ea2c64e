package org.mpcache.benchmarks.puma;

/**
 * How much data a benchmark moves through the shuffle relative to its input, the three categories
 * of the mpCache paper (Section 3.2, Table 1). The class decides how much a job gains from caching
 * localized (intermediate) data as opposed to input data.
 */
public enum ShuffleClass {
  /** Almost nothing is shuffled (Table 1: grep, histograms, classification). */
  LIGHT,
  /** Some shuffle, well below the input (word-count, inverted-index, term-vector, sequence-count). */
  MEDIUM,
  /** About as much shuffle as input (k-means, self-join, adjacency-list, ranked-inverted-index, tera-sort). */
  HEAVY
}
