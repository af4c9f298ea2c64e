package org.mpcache.benchmarks.eval;

import org.mpcache.benchmarks.datagen.DatasetKind;
import org.mpcache.benchmarks.puma.PumaBenchmark;

/**
 * One job of an evaluation mix: the {@code index}-th job runs {@code benchmark} on the dataset of
 * its input kind and size class {@code k}, {@code bytes} long. Jobs of equal kind and class share
 * one dataset, as the paper's jobs over one Wikipedia dump do.
 *
 * @param index position in the mix, from 0
 * @param benchmark the PUMA benchmark
 * @param k the input size class of Equation 3, from 1
 * @param bytes the dataset's target size
 */
public record MixJob(int index, PumaBenchmark benchmark, int k, long bytes) {

  /** The dataset's name, such as {@code wikipedia-k3}, which is also its directory name. */
  public String dataset() {
    return kind().kindName() + "-k" + k;
  }

  /** The kind of input the benchmark reads. */
  public DatasetKind kind() {
    return benchmark.inputKind();
  }
}
