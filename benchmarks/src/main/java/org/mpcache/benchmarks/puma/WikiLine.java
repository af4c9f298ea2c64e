package org.mpcache.benchmarks.puma;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.io.Text;

/**
 * Reads a line of Wikipedia-like input, {@code host TAB docId TAB text} (see
 * {@code WikipediaTextGenerator}): the host and the words of the text. A word is a maximal run of
 * ASCII letters and digits, lower-cased; every other byte separates words, so punctuation and
 * non-ASCII characters never end up inside a word. A line without two tabs has host {@code ""} and
 * is all text.
 *
 * <p>Stateless and thread-safe.
 */
public final class WikiLine {
  private WikiLine() {
  }

  /** The host field of {@code line}. */
  public static String host(Text line) {
    int tab = indexOf(line, 0);
    int second = tab < 0 ? -1 : indexOf(line, tab + 1);
    return second < 0 ? "" : new String(line.getBytes(), 0, tab, StandardCharsets.UTF_8);
  }

  /** The words of the text field of {@code line}, in order. */
  public static List<String> words(Text line) {
    byte[] bytes = line.getBytes();
    int end = line.getLength();
    int tab = indexOf(line, 0);
    int second = tab < 0 ? -1 : indexOf(line, tab + 1);
    List<String> words = new ArrayList<>();
    int start = -1;
    for (int pos = second + 1; pos <= end; pos++) {
      int b = pos < end ? bytes[pos] : ' ';
      boolean wordByte = (b >= 'a' && b <= 'z') || (b >= '0' && b <= '9') || (b >= 'A' && b <= 'Z');
      if (wordByte && start < 0) {
        start = pos;
      } else if (!wordByte && start >= 0) {
        words.add(lowerCase(bytes, start, pos));
        start = -1;
      }
    }
    return words;
  }

  private static String lowerCase(byte[] bytes, int start, int end) {
    char[] chars = new char[end - start];
    for (int i = start; i < end; i++) {
      int b = bytes[i];
      chars[i - start] = (char) (b >= 'A' && b <= 'Z' ? b + ('a' - 'A') : b);
    }
    return new String(chars);
  }

  private static int indexOf(Text line, int from) {
    byte[] bytes = line.getBytes();
    for (int i = from; i < line.getLength(); i++) {
      if (bytes[i] == '\t') {
        return i;
      }
    }
    return -1;
  }
}
