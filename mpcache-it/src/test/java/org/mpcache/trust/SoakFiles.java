package org.mpcache.trust;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.hadoop.fs.Path;

/**
 * The soak's files and what each held when: every version of a file has bytes that are a pure
 * function of (file, generation, offset), so a reader can check any byte it gets without keeping
 * copies. A generation starts when a file is written and renamed over the path; appends keep the
 * generation and extend its bytes, so every length of one generation is a prefix of the longer
 * ones, and "the file as it was at open, or longer" has exactly one right byte per offset.
 *
 * <p>Thread-safe: readers look versions up while one writer at a time (holding {@link
 * SoakFile#writer}) appends to or replaces a file.
 */
final class SoakFiles {
  private SoakFiles() {
  }

  private static final long GOLDEN = 0x9E3779B97F4A7C15L;

  /** SplitMix64's finalizer: a well-mixed 64-bit value of {@code z}. */
  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** The seed of the bytes of one generation of one file. */
  static long seed(int file, int generation) {
    return mix(((long) file << 32) ^ generation ^ GOLDEN);
  }

  /** The byte at {@code offset} of the generation with {@code seed}. */
  static byte byteAt(long seed, long offset) {
    return (byte) (mix(seed + (offset >>> 3) * GOLDEN) >>> ((offset & 7) << 3));
  }

  /** Fills {@code b[pos, pos + len)} with the bytes at {@code offset..} of {@code seed}. */
  static void bytes(long seed, long offset, byte[] b, int pos, int len) {
    for (int i = 0; i < len; i++) {
      b[pos + i] = byteAt(seed, offset + i);
    }
  }

  /** How many of {@code b[pos, pos + len)} differ from the bytes at {@code offset..}. */
  static int mismatches(long seed, long offset, byte[] b, int pos, int len) {
    int wrong = 0;
    for (int i = 0; i < len; i++) {
      if (b[pos + i] != byteAt(seed, offset + i)) {
        wrong++;
      }
    }
    return wrong;
  }

  /** A generation of a file and the length its last finished write left. */
  record Version(int generation, long length) {
  }

  /** One file of the working set. */
  static final class SoakFile {
    final int id;
    final Path path;
    /** Held by the one writer appending to or replacing the file. */
    final ReentrantLock writer = new ReentrantLock();
    /**
     * Odd while a replacement is being renamed over the path: a reader that saw it odd, or saw it
     * change across its open, may have opened either generation.
     */
    final AtomicLong changes = new AtomicLong();
    /** Each generation's length when it was renamed over the path (appends only add to it). */
    private final Map<Integer, Long> firstLengths = new ConcurrentHashMap<>();
    private volatile Version current;

    SoakFile(int id, Path path) {
      this.id = id;
      this.path = path;
    }

    Version current() {
      return current;
    }

    void setCurrent(Version v) {
      firstLengths.putIfAbsent(v.generation(), v.length());
      current = v;
    }

    /** Records a generation about to be renamed over the path. */
    void prepare(int generation, long length) {
      firstLengths.put(generation, length);
    }

    /** The length {@code generation} had when it took the path: a lower bound on its length. */
    long firstLength(int generation) {
      Long n = firstLengths.get(generation);
      if (n == null) {
        throw new IllegalStateException("file " + id + " never had generation " + generation);
      }
      return n;
    }
  }
}
