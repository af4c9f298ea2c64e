package org.mpcache.benchmarks.sim;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a generic job trace, so that published MapReduce traces converted to this shape can be
 * replayed. UTF-8 text, comma- or tab-separated, one job per line, after a header line naming the
 * columns in this order:
 *
 * <pre>
 * submit_ms,job_id,input_path,input_bytes,shuffle_bytes,output_bytes
 * 0,job_1,/data/logs/2024-01-01,53687091200,1073741824,104857600
 * </pre>
 *
 * Lines starting with {@code #} and blank lines are skipped. Jobs are replayed in file order (the
 * submit times are kept for the policies' clocks but not re-sorted). The input path names the
 * dataset; its size is taken from the first job that reads it.
 *
 * <p>Stateless and thread-safe.
 */
public final class TraceCsv {
  static final String HEADER = "submit_ms,job_id,input_path,input_bytes,shuffle_bytes,output_bytes";

  private TraceCsv() {
  }

  /** @throws IOException on a read error or a malformed line, naming the file and line */
  public static List<SimJob> read(Path file) throws IOException {
    List<SimJob> jobs = new ArrayList<>();
    try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String line;
      int n = 0;
      boolean header = true;
      while ((line = r.readLine()) != null) {
        n++;
        String trimmed = line.strip();
        if (trimmed.isEmpty() || trimmed.startsWith("#")) {
          continue;
        }
        String[] f = trimmed.split(trimmed.indexOf('\t') >= 0 ? "\t" : ",", -1);
        if (header) {
          if (!String.join(",", f).equals(HEADER)) {
            throw new IOException(file + ":" + n + ": expected header '" + HEADER + "'");
          }
          header = false;
          continue;
        }
        if (f.length != 6) {
          throw new IOException(file + ":" + n + ": expected 6 fields, found " + f.length);
        }
        try {
          jobs.add(new SimJob(Long.parseLong(f[0].strip()), f[1].strip(), f[2].strip(),
              Long.parseLong(f[3].strip()), Long.parseLong(f[4].strip()),
              Long.parseLong(f[5].strip()), null));
        } catch (IllegalArgumentException e) {
          throw new IOException(file + ":" + n + ": " + e.getMessage(), e);
        }
      }
      if (header) {
        throw new IOException(file + ": empty trace, expected header '" + HEADER + "'");
      }
    }
    return jobs;
  }
}
