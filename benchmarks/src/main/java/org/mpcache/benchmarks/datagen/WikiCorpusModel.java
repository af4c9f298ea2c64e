package org.mpcache.benchmarks.datagen;

import java.nio.charset.StandardCharsets;

/**
 * The statistical model behind the Wikipedia-like datasets: a vocabulary of pronounceable words
 * whose use follows a Zipf law, and hosts that each favour a few topic words.
 *
 * <p>Word {@code r} (its popularity rank) is spelled in a bijective base of 80 consonant-vowel
 * syllables, so frequent words are short (two letters for the 80 most frequent, four for the next
 * 6,400, six beyond), as in natural language; within each length, ranks are scrambled onto
 * spellings so that popular words do not all share their first letters. A word is drawn from the host's topic list with
 * probability {@link #TOPIC_PROBABILITY}, otherwise from the global Zipf law; topic words give each
 * host its own frequent terms, which is what term-vector looks for. Hosts are named
 * {@code h<number>.wiki.example}.
 *
 * <p>Immutable and thread-safe.
 */
public final class WikiCorpusModel {
  /** Distinct words in the vocabulary. */
  public static final int VOCABULARY_SIZE = 100_000;
  /** Exponent of the word-frequency law; about 1 in natural-language corpora. */
  public static final double ZIPF_EXPONENT = 1.0;
  /** Topic words per host. */
  public static final int TOPIC_WORDS = 32;
  /** Probability that a word is one of its host's topic words. */
  public static final double TOPIC_PROBABILITY = 0.15;

  private static final byte[] CONSONANTS = "bcdfghjklmnprstv".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] VOWELS = "aeiou".getBytes(StandardCharsets.US_ASCII);
  private static final int SYLLABLES = CONSONANTS.length * VOWELS.length;

  private final byte[][] words = new byte[VOCABULARY_SIZE][];
  private final ZipfDistribution frequency = new ZipfDistribution(VOCABULARY_SIZE, ZIPF_EXPONENT);

  /** Builds the vocabulary (about 100,000 short byte arrays). */
  public WikiCorpusModel() {
    for (int rank = 0; rank < VOCABULARY_SIZE; rank++) {
      words[rank] = spell(rank);
    }
  }

  /** The ASCII spelling of the word of popularity {@code rank}. */
  public byte[] word(int rank) {
    return words[rank];
  }

  /** The ASCII name of host {@code host}. */
  public static byte[] hostName(int host) {
    return String.format("h%06d.wiki.example", host).getBytes(StandardCharsets.US_ASCII);
  }

  /** The popularity ranks of the topic words of {@code host}, drawn from the mid-frequency band. */
  public int[] topicWords(int host, long seed) {
    SeededRandom random = new SeededRandom(SeededRandom.mix(seed ^ SeededRandom.mix(host)));
    int[] topics = new int[TOPIC_WORDS];
    for (int i = 0; i < TOPIC_WORDS; i++) {
      topics[i] = 100 + random.nextInt(VOCABULARY_SIZE - 100);
    }
    return topics;
  }

  /** Draws the rank of the next word of a document on a host with the given topic words. */
  public int nextWord(SeededRandom random, int[] topics) {
    if (random.nextBoolean(TOPIC_PROBABILITY)) {
      return topics[random.nextInt(topics.length)];
    }
    return frequency.sample(random);
  }

  private static byte[] spell(int rank) {
    int length = 1;
    long remaining = rank;
    long block = SYLLABLES;
    while (remaining >= block) {
      remaining -= block;
      block *= SYLLABLES;
      length++;
    }
    remaining = new IdScrambler((int) block, length).id((int) remaining);
    byte[] word = new byte[2 * length];
    for (int i = length - 1; i >= 0; i--) {
      int syllable = (int) (remaining % SYLLABLES);
      remaining /= SYLLABLES;
      word[2 * i] = CONSONANTS[syllable / VOWELS.length];
      word[2 * i + 1] = VOWELS[syllable % VOWELS.length];
    }
    return word;
  }
}
