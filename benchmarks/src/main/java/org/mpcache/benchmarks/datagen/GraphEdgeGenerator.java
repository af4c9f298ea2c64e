package org.mpcache.benchmarks.datagen;

import java.io.IOException;

/**
 * Directed edges of a power-law graph, one per line: {@code source TAB target}. There are about
 * {@code targetBytes / (14 * 8)} nodes, so the mean out-degree is about 8. Sources follow a Zipf law
 * with exponent 0.9 and targets one with exponent 1.1 (in-degrees of web graphs are more skewed than
 * out-degrees), each over node ranks scrambled onto ids. Self-loops are left out; repeated edges may
 * occur, as in crawled link data.
 *
 * <p>Stateless and thread-safe.
 */
public final class GraphEdgeGenerator implements DatasetGenerator {
  private static final long APPROX_EDGE_BYTES = 14;
  private static final long MEAN_DEGREE = 8;

  @Override
  public void generate(ByteSink sink, long targetBytes, long seed) throws IOException {
    SeededRandom random = new SeededRandom(seed);
    int nodes = (int) Math.max(2, Math.min(50_000_000,
        targetBytes / (APPROX_EDGE_BYTES * MEAN_DEGREE)));
    ZipfDistribution outDegree = new ZipfDistribution(nodes, 0.9);
    ZipfDistribution inDegree = new ZipfDistribution(nodes, 1.1);
    IdScrambler sources = new IdScrambler(nodes, seed);
    IdScrambler targets = new IdScrambler(nodes, seed + 1);
    while (sink.written() < targetBytes) {
      int source = sources.id(outDegree.sample(random));
      int target = targets.id(inDegree.sample(random));
      if (source == target) {
        continue;
      }
      sink.putDecimal(source);
      sink.put('\t');
      sink.putDecimal(target);
      sink.put('\n');
    }
  }
}
