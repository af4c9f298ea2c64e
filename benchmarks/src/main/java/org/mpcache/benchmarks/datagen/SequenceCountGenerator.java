package org.mpcache.benchmarks.datagen;

import java.io.IOException;
import java.util.HashSet;
import java.util.Set;

/**
 * Output of sequence-count, the input of ranked-inverted-index: lines
 * {@code word1 word2 word3 TAB host TAB count}, each three-word sequence at most once per host.
 * Words follow {@link WikiCorpusModel}; hosts come in order, each with between 1 and
 * {@code 2 * mean} sequences (the mean grows with the target, so there are always about 16 hosts or
 * more); counts follow a Zipf law over {@code 1..1000}, most sequences occurring once, as they do
 * in text.
 *
 * <p>Stateless and thread-safe.
 */
public final class SequenceCountGenerator implements DatasetGenerator {
  private static final int MAX_COUNT = 1_000;
  /** Rough size of one line, used only to choose how many sequences a host gets. */
  private static final long APPROX_LINE_BYTES = 40;
  private static final long MAX_MEAN_SEQUENCES_PER_HOST = 100_000;

  @Override
  public void generate(ByteSink sink, long targetBytes, long seed) throws IOException {
    WikiCorpusModel model = new WikiCorpusModel();
    ZipfDistribution counts = new ZipfDistribution(MAX_COUNT, 1.5);
    SeededRandom random = new SeededRandom(seed);
    long mean = Math.max(1, Math.min(MAX_MEAN_SEQUENCES_PER_HOST,
        targetBytes / (APPROX_LINE_BYTES * 16)));
    Set<Long> seen = new HashSet<>();
    for (int host = 0; sink.written() < targetBytes; host++) {
      byte[] hostName = WikiCorpusModel.hostName(host);
      int[] topics = model.topicWords(host, seed);
      long sequences = 1 + random.nextInt((int) (2 * mean));
      seen.clear();
      for (long s = 0; s < sequences && sink.written() < targetBytes; s++) {
        int w1 = model.nextWord(random, topics);
        int w2 = model.nextWord(random, topics);
        int w3 = model.nextWord(random, topics);
        int count = 1 + counts.sample(random);
        long key = ((long) w1 * WikiCorpusModel.VOCABULARY_SIZE + w2)
            * WikiCorpusModel.VOCABULARY_SIZE + w3;
        if (!seen.add(key)) {
          continue;
        }
        sink.put(model.word(w1));
        sink.put(' ');
        sink.put(model.word(w2));
        sink.put(' ');
        sink.put(model.word(w3));
        sink.put('\t');
        sink.put(hostName);
        sink.put('\t');
        sink.putDecimal(count);
        sink.put('\n');
      }
    }
  }
}
