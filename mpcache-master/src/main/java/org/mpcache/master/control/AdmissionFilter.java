package org.mpcache.master.control;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.GlobPattern;
import org.apache.hadoop.fs.Path;
import org.mpcache.master.arbitrator.CacheDecision;
import org.mpcache.master.status.DatasetPaths;

/**
 * The operators' admission filters ({@code mpcache.master.admission.include} and
 * {@code .exclude}): which input paths may be cached at all, decided before any other admission
 * rule. Each is a list of Hadoop {@link GlobPattern}s matched against the path part of each of a
 * dataset's input paths (scheme and authority dropped): {@code *} matches any characters,
 * {@code /} included (so {@code **} means the same), {@code ?} one character, {@code [abc]} and
 * {@code {a,b}} as in HDFS globs. A pattern that matches a directory matches everything under it.
 * A dataset is refused when one of its input paths matches an exclude pattern (exclude wins), or,
 * when include patterns are set, when one of its input paths matches none of them.
 *
 * <p>Immutable, so thread-safe.
 */
public final class AdmissionFilter {
  /** No filter: every path may be cached. */
  public static final AdmissionFilter ALL = new AdmissionFilter(List.of(), List.of());

  private final List<String> include;
  private final List<String> exclude;
  private final List<GlobPattern> includePatterns;
  private final List<GlobPattern> excludePatterns;

  /**
   * @throws IllegalArgumentException naming the pattern when one is not a valid glob or not an
   *     absolute path
   */
  public AdmissionFilter(List<String> include, List<String> exclude) {
    this.include = List.copyOf(include);
    this.exclude = List.copyOf(exclude);
    this.includePatterns = compile(this.include);
    this.excludePatterns = compile(this.exclude);
  }

  private static List<GlobPattern> compile(List<String> globs) {
    List<GlobPattern> out = new ArrayList<>(globs.size());
    for (String g : globs) {
      if (!g.startsWith("/")) {
        throw new IllegalArgumentException("path glob '" + g + "' must start with /");
      }
      try {
        out.add(new GlobPattern(g));
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("invalid path glob '" + g + "': " + e.getMessage(), e);
      }
    }
    return out;
  }

  public List<String> include() {
    return include;
  }

  public List<String> exclude() {
    return exclude;
  }

  /** Why the dataset may not be cached, or null when the filters let it through. */
  public CacheDecision.Reason refusal(String datasetId) {
    if (includePatterns.isEmpty() && excludePatterns.isEmpty()) {
      return null;
    }
    boolean outside = false;
    for (String part : datasetId.split(",")) {
      URI u = new Path(part).toUri();
      String path = u.getPath() == null || u.getPath().isEmpty() ? "/" : u.getPath();
      if (matchesAny(excludePatterns, path)) {
        return CacheDecision.Reason.REJECTED_EXCLUDED;
      }
      outside |= !includePatterns.isEmpty() && !matchesAny(includePatterns, path);
    }
    return outside ? CacheDecision.Reason.REJECTED_NOT_INCLUDED : null;
  }

  /** Whether a pattern matches the path or one of its ancestors. */
  private static boolean matchesAny(List<GlobPattern> patterns, String path) {
    for (String p = path; ; p = DatasetPaths.parent(p)) {
      for (GlobPattern g : patterns) {
        if (g.matches(p)) {
          return true;
        }
      }
      if (p.equals("/")) {
        return false;
      }
    }
  }

  @Override
  public String toString() {
    return "include=" + include + ", exclude=" + exclude;
  }
}
