package org.mpcache.master.status;

import java.net.URI;
import org.apache.hadoop.fs.GlobPattern;
import org.apache.hadoop.fs.Path;

/**
 * Matches the paths operators type against dataset ids. A dataset id is its input paths,
 * qualified ({@code hdfs://nn:8020/data/in}) and comma-separated. A path the operator gives with a
 * scheme is compared with the qualified paths; a bare path ({@code /data/in}) with their path part.
 * It also tells whether a block's file belongs to a dataset ({@link #holdsFile}). Stateless.
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

  /**
   * Whether the file {@code filePath} is one of the dataset's input paths or lies under one. An
   * input path may be a glob, as {@code FileInputFormat} takes it ({@code /logs/2024-*}): the file
   * belongs when the glob matches the file or one of its directories. A qualified input path and
   * a qualified file must name the same file system; a bare one matches the file's path part.
   */
  public static boolean holdsFile(String datasetId, String filePath) {
    if (filePath.isEmpty()) {
      return false;
    }
    URI file = new Path(filePath).toUri();
    String path = file.getPath() == null || file.getPath().isEmpty() ? "/" : file.getPath();
    for (String part : datasetId.split(",")) {
      URI in = new Path(part).toUri();
      if (in.getPath() == null || in.getPath().isEmpty()
          || in.getScheme() != null && file.getScheme() != null
          && !(in.getScheme() + "://" + in.getAuthority())
              .equalsIgnoreCase(file.getScheme() + "://" + file.getAuthority())) {
        continue;
      }
      if (underGlob(in.getPath(), path)) {
        return true;
      }
    }
    return false;
  }

  /** Whether the glob matches the path or one of its directories. */
  private static boolean underGlob(String glob, String path) {
    GlobPattern g;
    try {
      g = new GlobPattern(trimSlash(glob).isEmpty() ? "/" : trimSlash(glob));
    } catch (RuntimeException e) {
      return false;
    }
    for (String p = path; ; p = parent(p)) {
      if (g.matches(p)) {
        return true;
      }
      if (p.equals("/")) {
        return false;
      }
    }
  }

  /** The directory {@code path} (absolute, a trailing slash ignored) lies in; "/" for "/". */
  public static String parent(String path) {
    String p = path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1)
        : path;
    int slash = p.lastIndexOf('/');
    return slash <= 0 ? "/" : p.substring(0, slash);
  }

  private static String trimSlash(String p) {
    return p.length() > 1 && p.endsWith("/") && !p.endsWith("//") ? p.substring(0, p.length() - 1)
        : p.equals("/") ? "" : p;
  }
}
