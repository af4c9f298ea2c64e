package org.mpcache.benchmarks.datagen;

import java.io.IOException;

/**
 * Wikipedia-like text, one document per line: {@code host TAB docId TAB text}. Documents of a host
 * are contiguous, as pages of one site are in a crawl, and each host holds between 1 and
 * {@code 2 * meanDocsPerHost} documents, where the mean grows with the target so that any dataset
 * has at least about 16 hosts and large ones have hosts of a few megabytes. A document has 50 to
 * 749 words drawn from {@link WikiCorpusModel}, separated by spaces, with a full stop after about one
 * word in twelve. Document ids are {@code d<n>}, numbered from 0 across the dataset.
 *
 * <p>Stateless and thread-safe.
 */
public final class WikipediaTextGenerator implements DatasetGenerator {
  private static final int MIN_WORDS = 50;
  private static final int WORD_SPREAD = 700;
  private static final double FULL_STOP_PROBABILITY = 1.0 / 12;
  /** Rough size of a document, used only to choose how many documents a host gets. */
  private static final long APPROX_DOC_BYTES = 2_500;
  private static final long MAX_MEAN_DOCS_PER_HOST = 2_000;

  @Override
  public void generate(ByteSink sink, long targetBytes, long seed) throws IOException {
    WikiCorpusModel model = new WikiCorpusModel();
    SeededRandom random = new SeededRandom(seed);
    int meanDocs = meanDocsPerHost(targetBytes);
    long docId = 0;
    for (int host = 0; sink.written() < targetBytes; host++) {
      byte[] hostName = WikiCorpusModel.hostName(host);
      int[] topics = model.topicWords(host, seed);
      int docs = 1 + random.nextInt(2 * meanDocs);
      for (int d = 0; d < docs && sink.written() < targetBytes; d++) {
        sink.put(hostName);
        sink.put('\t');
        sink.put('d');
        sink.putDecimal(docId++);
        sink.put('\t');
        int words = MIN_WORDS + random.nextInt(WORD_SPREAD);
        for (int w = 0; w < words; w++) {
          if (w > 0) {
            sink.put(' ');
          }
          sink.put(model.word(model.nextWord(random, topics)));
          if (random.nextBoolean(FULL_STOP_PROBABILITY)) {
            sink.put('.');
          }
        }
        sink.put('\n');
      }
    }
  }

  static int meanDocsPerHost(long targetBytes) {
    long mean = targetBytes / (APPROX_DOC_BYTES * 16);
    return (int) Math.max(1, Math.min(MAX_MEAN_DOCS_PER_HOST, mean));
  }
}
