package org.mpcache.benchmarks.datagen;

import java.io.IOException;

/**
 * Records for self-join: {@code k}-field associations, one per line as {@code f1,f2,f3,f4}
 * ({@code k = 4}). The first three fields are a prefix drawn uniformly from about
 * {@code targetBytes / (18 * 6)} prefixes, so a prefix recurs about six times at random positions
 * in the file; the last field is uniform in {@code 0..9999}. Self-join joins records that share
 * their first {@code k - 1} fields, so every prefix group meets only in the shuffle.
 *
 * <p>Stateless and thread-safe.
 */
public final class SelfJoinGenerator implements DatasetGenerator {
  private static final long APPROX_RECORD_BYTES = 18;
  private static final long MEAN_GROUP_SIZE = 6;
  private static final int LAST_FIELD_VALUES = 10_000;

  @Override
  public void generate(ByteSink sink, long targetBytes, long seed) throws IOException {
    SeededRandom random = new SeededRandom(seed);
    int prefixes = (int) Math.max(1, Math.min(Integer.MAX_VALUE,
        targetBytes / (APPROX_RECORD_BYTES * MEAN_GROUP_SIZE)));
    while (sink.written() < targetBytes) {
      int prefix = random.nextInt(prefixes);
      sink.putDecimal(prefix / 10_000);
      sink.put(',');
      sink.putDecimal(prefix / 100 % 100);
      sink.put(',');
      sink.putDecimal(prefix % 100);
      sink.put(',');
      sink.putDecimal(random.nextInt(LAST_FIELD_VALUES));
      sink.put('\n');
    }
  }
}
