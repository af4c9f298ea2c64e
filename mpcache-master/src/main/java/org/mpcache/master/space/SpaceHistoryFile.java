package org.mpcache.master.space;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.mpcache.master.state.OwnerOnlyFiles;

/**
 * Reads and writes a {@link SpaceHistory} as a small versioned text file, so that the history
 * survives a master restart. The format, UTF-8, one record per line:
 *
 * <pre>
 * mpcache-space-history 1
 * &lt;jobType&gt; TAB &lt;bucket&gt; TAB &lt;jobs&gt; TAB &lt;inputBytes&gt; TAB &lt;localizedBytes&gt; TAB &lt;peakLocalizedBytes&gt;
 * </pre>
 *
 * In job types, backslash, tab and newline are written {@code \\}, {@code \t} and {@code \n}.
 * Writes go to a temporary file in the same directory, fsynced, which is then renamed over the old
 * one, so a crash leaves either the old or the new history, never half of one.
 *
 * <p>Stateless and thread-safe.
 */
public final class SpaceHistoryFile {
  static final String HEADER = "mpcache-space-history 1";

  private SpaceHistoryFile() {
  }

  /** A history file that cannot be parsed; the message names the file and line. */
  public static final class FormatException extends IOException {
    private static final long serialVersionUID = 1L;

    FormatException(Path file, int line, String problem) {
      super(file + ":" + line + ": " + problem);
    }
  }

  /**
   * Loads a history into {@code into} (which should be empty).
   *
   * @throws FormatException naming the file and the first bad line
   * @throws IOException if the file cannot be read
   */
  public static void load(Path file, SpaceHistory into) throws IOException {
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    if (lines.isEmpty() || !lines.get(0).equals(HEADER)) {
      throw new FormatException(file, 1, "expected header '" + HEADER + "', found '"
          + (lines.isEmpty() ? "" : lines.get(0)) + "'");
    }
    for (int i = 1; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.isEmpty()) {
        continue;
      }
      String[] f = line.split("\t", -1);
      if (f.length != 6) {
        throw new FormatException(file, i + 1, "expected 6 tab-separated fields, found "
            + f.length);
      }
      try {
        int bucket = Integer.parseInt(f[1]);
        long jobs = Long.parseLong(f[2]);
        long input = Long.parseLong(f[3]);
        long localized = Long.parseLong(f[4]);
        long peak = Long.parseLong(f[5]);
        if (bucket < 0 || jobs < 1 || input < 0 || localized < 0 || peak < 0) {
          throw new FormatException(file, i + 1, "negative or zero count in '" + line + "'");
        }
        into.restore(unescape(f[0], file, i + 1), bucket,
            new SpaceHistory.Usage(jobs, input, localized, peak));
      } catch (NumberFormatException e) {
        throw new FormatException(file, i + 1, "not a number: " + e.getMessage());
      }
    }
  }

  /**
   * Writes the history atomically and durably: to {@code <file>.tmp}, fsynced, then renamed over
   * {@code file}; the file and any directory created for it are the master's user's only
   * ({@link OwnerOnlyFiles}).
   */
  public static void save(SpaceHistory history, Path file) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    OwnerOnlyFiles.createDirectories(dir);
    Path tmp = dir.resolve(file.getFileName() + ".tmp");
    try {
      try (FileChannel ch = OwnerOnlyFiles.createTemporary(tmp);
          BufferedWriter w = new BufferedWriter(Channels.newWriter(ch, StandardCharsets.UTF_8))) {
        w.write(HEADER);
        w.newLine();
        IOException[] failure = new IOException[1];
        history.forEach((type, bucket, u) -> {
          if (failure[0] == null) {
            try {
              w.write(escape(type) + "\t" + bucket + "\t" + u.jobs() + "\t" + u.inputBytes()
                  + "\t" + u.localizedBytes() + "\t" + u.peakLocalizedBytes());
              w.newLine();
            } catch (IOException e) {
              failure[0] = e;
            }
          }
        });
        if (failure[0] != null) {
          throw failure[0];
        }
        w.flush();
        ch.force(true);
      }
      OwnerOnlyFiles.replace(tmp, file);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  static String escape(String s) {
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n");
  }

  private static String unescape(String s, Path file, int line) throws FormatException {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c != '\\') {
        b.append(c);
        continue;
      }
      if (++i == s.length()) {
        throw new FormatException(file, line, "dangling backslash in job type");
      }
      char e = s.charAt(i);
      switch (e) {
        case '\\':
          b.append('\\');
          break;
        case 't':
          b.append('\t');
          break;
        case 'n':
          b.append('\n');
          break;
        default:
          throw new FormatException(file, line, "unknown escape \\" + e + " in job type");
      }
    }
    return b.toString();
  }
}
