package org.mpcache.benchmarks.datagen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The vocabulary is a bijection on ranks with short frequent words; hosts have stable topics. */
class WikiCorpusModelTest {
  private final WikiCorpusModel model = new WikiCorpusModel();

  @Test
  void word_everyRank_isDistinct() {
    Set<String> words = new HashSet<>();
    for (int rank = 0; rank < WikiCorpusModel.VOCABULARY_SIZE; rank++) {
      words.add(new String(model.word(rank), StandardCharsets.US_ASCII));
    }
    assertEquals(WikiCorpusModel.VOCABULARY_SIZE, words.size());
  }

  @Test
  void word_frequentRanks_areShorter() {
    assertEquals(2, model.word(0).length);
    assertEquals(2, model.word(79).length);
    assertEquals(4, model.word(80).length);
    assertEquals(6, model.word(WikiCorpusModel.VOCABULARY_SIZE - 1).length);
  }

  @Test
  void topicWords_sameHostAndSeed_areStable() {
    assertArrayEquals(model.topicWords(12, 5), model.topicWords(12, 5));
    int[] topics = model.topicWords(12, 5);
    for (int rank : topics) {
      assertTrue(rank >= 100 && rank < WikiCorpusModel.VOCABULARY_SIZE);
    }
  }
}
