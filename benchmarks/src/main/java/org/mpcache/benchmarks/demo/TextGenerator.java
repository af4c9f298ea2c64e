package org.mpcache.benchmarks.demo;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Writes seeded text for the word-count demo: lines of words drawn from a fixed vocabulary, so the
 * same seed and size give the same bytes.
 */
public final class TextGenerator {
  private static final String[] WORDS = ("mapreduce hadoop cache block slave master ssd disk "
      + "input output shuffle reduce map spill merge dataset priority clock frequency bonus "
      + "eviction admission replica datanode namenode yarn container task job split record")
      .split(" ");

  private TextGenerator() {
  }

  /** Writes about {@code bytes} bytes of text to {@code path}, replacing it. */
  public static void write(FileSystem fs, Path path, long bytes, long seed) throws IOException {
    Random r = new Random(seed);
    StringBuilder line = new StringBuilder();
    long written = 0;
    try (OutputStream out = new BufferedOutputStream(fs.create(path, true), 1 << 16)) {
      while (written < bytes) {
        line.setLength(0);
        int n = 4 + r.nextInt(12);
        for (int i = 0; i < n; i++) {
          // A skewed draw: low indexes are common, as in natural text.
          int w = (int) (WORDS.length * Math.pow(r.nextDouble(), 2.5));
          line.append(WORDS[w]).append(i + 1 < n ? ' ' : '\n');
        }
        byte[] b = line.toString().getBytes(StandardCharsets.UTF_8);
        out.write(b);
        written += b.length;
      }
    }
  }
}
