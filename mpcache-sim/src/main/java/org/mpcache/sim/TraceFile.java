package org.mpcache.sim;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a generic MapReduce job trace, so that published traces converted to this shape can be
 * replayed by the simulator. UTF-8 text, one job per line, fields separated by commas or by tabs
 * (whichever the header line uses), after a header line naming the six columns in this order:
 *
 * <pre>
 * submit_ms,job_id,input_path,input_bytes,shuffle_bytes,output_bytes
 * 0,job_0001,/data/logs/2024-01-01,53687091200,1073741824,104857600
 * </pre>
 *
 * Blank lines and lines starting with {@code #} are skipped. {@code input_path} names the dataset
 * (jobs with the same path read the same blocks); a dataset's size is the largest
 * {@code input_bytes} any job gave it, and each job reads what the trace says it read: the first
 * {@code input_bytes} of the dataset (its first blocks), so a partial read stays partial and
 * shares its blocks with the jobs that read more of the path. Jobs are replayed in order of submit
 * time, ties in file order. A malformed line fails the read with the file, the line number and
 * what was wrong.
 *
 * <p>Stateless and thread-safe.
 */
public final class TraceFile {
  static final String[] COLUMNS =
      {"submit_ms", "job_id", "input_path", "input_bytes", "shuffle_bytes", "output_bytes"};

  private TraceFile() {
  }

  /** One parsed line, before dataset sizes are known. */
  private static final class Row {
    final long submit;
    final String job;
    final String path;
    final long input;
    final long shuffle;
    final long output;

    Row(long submit, String job, String path, long input, long shuffle, long output) {
      this.submit = submit;
      this.job = job;
      this.path = path;
      this.input = input;
      this.shuffle = shuffle;
      this.output = output;
    }
  }

  /**
   * The jobs of a trace file, with blocks of {@code blockBytes}.
   *
   * @throws IOException on a read error or a malformed file, naming the file and line
   */
  public static List<SimJob> read(Path file, long blockBytes) throws IOException {
    List<Row> rows = new ArrayList<>();
    Map<String, Long> sizes = new HashMap<>();
    String separator = null;
    try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String line;
      int n = 0;
      while ((line = r.readLine()) != null) {
        n++;
        String t = line.strip();
        if (t.isEmpty() || t.startsWith("#")) {
          continue;
        }
        if (separator == null) {
          separator = t.indexOf('\t') >= 0 ? "\t" : ",";
          String[] h = t.split(separator, -1);
          for (int i = 0; i < h.length; i++) {
            h[i] = h[i].strip();
          }
          if (!String.join(",", h).equals(String.join(",", COLUMNS))) {
            throw new IOException(file + ":" + n + ": expected the header '"
                + String.join(",", COLUMNS) + "' (comma- or tab-separated), found '" + t + "'");
          }
          continue;
        }
        String[] f = t.split(separator, -1);
        if (f.length != COLUMNS.length) {
          throw new IOException(file + ":" + n + ": expected " + COLUMNS.length
              + " fields, found " + f.length);
        }
        Row row = new Row(number(file, n, f, 0), f[1].strip(), f[2].strip(),
            number(file, n, f, 3), number(file, n, f, 4), number(file, n, f, 5));
        if (row.job.isEmpty() || row.path.isEmpty() || row.input < 1) {
          throw new IOException(file + ":" + n + ": job_id and input_path must not be empty "
              + "and input_bytes must be at least 1");
        }
        rows.add(row);
        sizes.merge(row.path, row.input, Math::max);
      }
    }
    if (separator == null) {
      throw new IOException(file + ": empty trace; expected the header '"
          + String.join(",", COLUMNS) + "'");
    }
    rows.sort(Comparator.comparingLong(row -> row.submit));
    List<SimJob> jobs = new ArrayList<>(rows.size());
    for (Row row : rows) {
      jobs.add(new SimJob(row.job, "trace", row.path, SimJob.blocksOf(row.input, blockBytes),
          SimJob.blocksOf(sizes.get(row.path), blockBytes), row.input, row.shuffle, row.output,
          null, 0));
    }
    return jobs;
  }

  private static long number(Path file, int line, String[] f, int i) throws IOException {
    try {
      long v = Long.parseLong(f[i].strip());
      if (v < 0) {
        throw new NumberFormatException();
      }
      return v;
    } catch (NumberFormatException e) {
      throw new IOException(file + ":" + line + ": " + COLUMNS[i]
          + " must be a whole number >= 0, found '" + f[i].strip() + "'");
    }
  }
}
