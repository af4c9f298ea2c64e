package org.mpcache.common;

import org.apache.hadoop.util.VersionInfo;

/**
 * The version of mpCache (from its jar's manifest) and of the Hadoop it runs with; the
 * {@code mpcache version} command. Stateless.
 */
public final class MpCacheVersion {
  /** What the version reads as when the classes do not come from a released jar (a dev build). */
  static final String UNKNOWN = "dev";

  private MpCacheVersion() {
  }

  /** mpCache's version, as written in the jar's manifest by the build. */
  public static String get() {
    String v = MpCacheVersion.class.getPackage().getImplementationVersion();
    return v == null ? UNKNOWN : v;
  }

  /** Prints mpCache's and Hadoop's versions. */
  public static void main(String[] args) {
    System.out.println("mpCache " + get());
    System.out.println("Hadoop " + VersionInfo.getVersion() + " (" + VersionInfo.getRevision()
        + ")");
  }
}
