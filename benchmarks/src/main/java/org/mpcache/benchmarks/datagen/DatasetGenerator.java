package org.mpcache.benchmarks.datagen;

import java.io.IOException;

/**
 * Writes one synthetic dataset: whole records until at least {@code targetBytes} have been written,
 * so the output exceeds the target by less than one record. Implementations draw every random
 * choice from a {@link SeededRandom} built from {@code seed}, so equal seeds and targets give
 * byte-identical output.
 */
public interface DatasetGenerator {

  /** Writes the dataset to {@code sink}. */
  void generate(ByteSink sink, long targetBytes, long seed) throws IOException;
}
