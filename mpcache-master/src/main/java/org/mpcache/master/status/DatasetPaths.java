package org.mpcache.master.status;

import java.net.URI;
import org.apache.hadoop.fs.Path;

/**
 * Matches the paths operators type against dataset ids. A dataset id is its input paths,
 * qualified ({@code hdfs://nn:8020/data/in}) and comma-separated. A path the operator gives with a
 * scheme is compared with the qualified paths; a bare path ({@code /data/in}) with their path part.
 * Stateless.
 */
public final class DatasetPaths {

  private DatasetPaths() {
  }

  /**
   * Whether one of the dataset's input paths is {@code path} or, with {@code orUnder}, lies under
   * it.
   */
  public static boolean matches(String datasetId, String path, boolean orUnder) {
    String want = trimSlash(path);
    boolean qualified = new Path(path).toUri().getScheme() != null;
    for (String part : datasetId.split(",")) {
      String have = part;
      if (!qualified) {
        URI u = new Path(part).toUri();
        have = u.getPath() == null ? part : u.getPath();
      }
      have = trimSlash(have);
      if (have.equals(want) || orUnder && (want.isEmpty() || want.endsWith("/")
          ? have.startsWith(want) : have.startsWith(want + "/"))) {
        return true;
      }
    }
    return false;
  }

  private static String trimSlash(String p) {
    return p.length() > 1 && p.endsWith("/") && !p.endsWith("//") ? p.substring(0, p.length() - 1)
        : p.equals("/") ? "" : p;
  }
}
