package org.mpcache.tiers;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The measured tiers of one run, to print with every result: the mechanism and why, what it
 * covers, and one {@link TierFigures} per node and tier. {@link #toString()} is a console table;
 * {@link #toCsv()} and {@link #toJson()} carry the same figures for result files. Immutable and
 * thread-safe.
 */
public final class TierReport {
  private final MechanismDecision decision;
  private final List<TierFigures> rows;

  TierReport(MechanismDecision decision, List<TierFigures> rows) {
    this.decision = decision;
    this.rows = Collections.unmodifiableList(new ArrayList<>(rows));
  }

  public TierMechanism mechanism() {
    return decision.mechanism();
  }

  public MechanismDecision decision() {
    return decision;
  }

  public List<TierFigures> rows() {
    return rows;
  }

  /**
   * One line for a result's header: the mechanism and, per tier, the mean over nodes of the
   * sequential read bandwidth, the random 4 KiB IOPS and the sequential write bandwidth, e.g.
   * {@code tiers kernel, cold: HDD 149 MiB/s read, 120 IOPS, 122 MiB/s write; SSD ...}.
   */
  public String summary() {
    StringBuilder b = new StringBuilder("tiers ")
        .append(mechanism().name().toLowerCase(Locale.ROOT))
        .append(rows.stream().allMatch(TierFigures::cold) ? ", cold" : ", NOT cold");
    String sep = ": ";
    for (String tier : List.of("hdd", "ssd")) {
      List<TierFigures> of = rows.stream().filter(r -> r.tier.equals(tier)).toList();
      if (of.isEmpty()) {
        continue;
      }
      b.append(sep).append(tier.toUpperCase(Locale.ROOT)).append(String.format(Locale.ROOT,
          " %.0f MiB/s read, %.0f IOPS, %.0f MiB/s write",
          of.stream().mapToDouble(TierFigures::seqReadMibps).average().orElse(0),
          of.stream().mapToDouble(TierFigures::randIops).average().orElse(0),
          of.stream().mapToDouble(TierFigures::seqWriteMibps).average().orElse(0)));
      sep = "; ";
    }
    return b.toString();
  }

  /** Header line and one line per row; the mechanism is a column so rows stand alone. */
  public String toCsv() {
    StringBuilder b = new StringBuilder("mechanism");
    for (String c : TierFigures.COLUMNS) {
      b.append(',').append(c);
    }
    b.append('\n');
    for (TierFigures r : rows) {
      b.append(mechanism().name().toLowerCase(Locale.ROOT));
      for (String v : r.values()) {
        b.append(',').append(csv(v));
      }
      b.append('\n');
    }
    return b.toString();
  }

  private static String csv(String v) {
    return v.contains(",") || v.contains("\"")
        ? '"' + v.replace("\"", "\"\"") + '"' : v;
  }

  /** A JSON object: mechanism, reason, coverage and the rows, numbers as numbers. */
  public String toJson() {
    StringBuilder b = new StringBuilder("{\n");
    b.append("  \"mechanism\": ").append(str(mechanism().name().toLowerCase(Locale.ROOT)))
        .append(",\n  \"reason\": ").append(str(decision.reason()))
        .append(",\n  \"covers\": ").append(str(mechanism().coverage()))
        .append(",\n  \"tiers\": [");
    for (int i = 0; i < rows.size(); i++) {
      List<String> v = rows.get(i).values();
      b.append(i == 0 ? "\n    {" : ",\n    {");
      for (int c = 0; c < v.size(); c++) {
        String name = TierFigures.COLUMNS.get(c);
        boolean text = name.equals("tier") || name.equals("dir");
        b.append(c == 0 ? "" : ", ").append(str(name)).append(": ")
            .append(text ? str(v.get(c)) : v.get(c));
      }
      b.append('}');
    }
    return b.append("\n  ]\n}\n").toString();
  }

  private static String str(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char ch : s.toCharArray()) {
      if (ch == '"' || ch == '\\') {
        b.append('\\').append(ch);
      } else if (ch < 0x20) {
        b.append(String.format(Locale.ROOT, "\\u%04x", (int) ch));
      } else {
        b.append(ch);
      }
    }
    return b.append('"').toString();
  }

  /** A console table, limits beside measurements, with the mechanism above it. */
  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    b.append("Storage tiers: ").append(decision).append('\n');
    b.append("  throttled: ").append(mechanism().coverage()).append('\n');
    b.append(String.format(Locale.ROOT, "%-4s %-4s %-9s %-5s %19s %19s %19s %17s %9s%n",
        "node", "tier", "throttled", "cold", "seq write MiB/s", "seq read MiB/s",
        "rand 4k IOPS", "parallel MiB/s", "4k mean"));
    b.append(String.format(Locale.ROOT, "%-4s %-4s %-9s %-5s %19s %19s %19s %17s %9s%n",
        "", "", "", "", "measured (limit)", "measured (limit)", "measured (limit)",
        "measured", "ms"));
    for (TierFigures r : rows) {
      b.append(String.format(Locale.ROOT, "%-4d %-4s %-9s %-5s %19s %19s %19s %17.1f %9.2f%n",
          r.node, r.tier, r.throttled ? "yes" : "no", r.cold ? "yes" : "NO",
          pair(r.seqWriteMibps, r.limitWriteMibps), pair(r.seqReadMibps, r.limitReadMibps),
          pair(r.randIops, r.limitIops), r.parallelReadMibps, r.randMeanMs));
    }
    return b.toString();
  }

  private static String pair(double measured, double limit) {
    return String.format(Locale.ROOT, "%.1f (%.0f)", measured, limit);
  }
}
