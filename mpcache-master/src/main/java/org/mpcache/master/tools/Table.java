package org.mpcache.master.tools;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The one table formatter of {@code mpcache admin}: named columns, left-aligned text and
 * right-aligned numbers, two spaces between columns; and the units every table prints in
 * ({@link #bytes}, {@link #age}). Not thread-safe: build, then print once.
 */
final class Table {
  private final String[] headers;
  private final boolean[] rightAligned;
  private final List<String[]> rows = new ArrayList<>();

  /**
   * @param columns headers; a header starting with {@code >} names a right-aligned column (the
   *     {@code >} is not printed)
   */
  Table(String... columns) {
    headers = new String[columns.length];
    rightAligned = new boolean[columns.length];
    for (int i = 0; i < columns.length; i++) {
      rightAligned[i] = columns[i].startsWith(">");
      headers[i] = rightAligned[i] ? columns[i].substring(1) : columns[i];
    }
  }

  Table row(Object... cells) {
    if (cells.length != headers.length) {
      throw new IllegalArgumentException("expected " + headers.length + " cells, got "
          + cells.length);
    }
    String[] r = new String[cells.length];
    for (int i = 0; i < cells.length; i++) {
      r[i] = String.valueOf(cells[i]);
    }
    rows.add(r);
    return this;
  }

  void print(PrintStream out) {
    int[] width = new int[headers.length];
    for (int i = 0; i < headers.length; i++) {
      width[i] = headers[i].length();
      for (String[] r : rows) {
        width[i] = Math.max(width[i], r[i].length());
      }
    }
    line(out, headers, width);
    for (String[] r : rows) {
      line(out, r, width);
    }
  }

  private void line(PrintStream out, String[] cells, int[] width) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < cells.length; i++) {
      String pad = " ".repeat(width[i] - cells[i].length());
      b.append(i == 0 ? "" : "  ").append(rightAligned[i] ? pad + cells[i] : cells[i]
          + (i == cells.length - 1 ? "" : pad));
    }
    out.println(b);
  }

  /** Bytes in binary units with one decimal: {@code 512 B}, {@code 1.5 MiB}. */
  static String bytes(long n) {
    if (n < 1024) {
      return n + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = n;
    int u = -1;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
  }

  /** A duration for people: {@code 0.4s}, {@code 12s}, {@code 3m 05s}, {@code 2h 01m}. */
  static String age(long ms) {
    if (ms < 10_000) {
      return String.format(Locale.ROOT, "%.1fs", ms / 1000.0);
    }
    long s = ms / 1000;
    if (s < 60) {
      return s + "s";
    }
    if (s < 3600) {
      return String.format(Locale.ROOT, "%dm %02ds", s / 60, s % 60);
    }
    return String.format(Locale.ROOT, "%dh %02dm", s / 3600, (s % 3600) / 60);
  }
}
