package org.mpcache.minicluster;

import org.apache.hadoop.conf.Configuration;

/**
 * Sets the embedded cluster's own defaults (short heartbeats, a 200 ms completion poll, no
 * speculation) unless the caller configured the key. Hadoop's {@code setIfUnset} cannot do this:
 * once {@code JobConf} or {@code YarnConfiguration} is loaded, every configuration reads
 * {@code mapred-default.xml} and {@code yarn-default.xml}, so a key is never unset and the cluster
 * kept Hadoop's 5 s completion poll and 1 s heartbeats. A value counts as the caller's when any
 * of its sources is not a {@code *-default.xml} file. Stateless.
 */
final class ClusterDefaults {
  private ClusterDefaults() {
  }

  /** Sets {@code key} to {@code value} unless a source other than a defaults file set it. */
  static void setUnlessConfigured(Configuration conf, String key, String value) {
    if (!configured(conf, key)) {
      conf.set(key, value);
    }
  }

  /** Whether {@code key} has a value from a source other than a {@code *-default.xml} file. */
  static boolean configured(Configuration conf, String key) {
    if (conf.get(key) == null) {
      return false;
    }
    String[] sources = conf.getPropertySources(key);
    if (sources == null) {
      return true;
    }
    for (String s : sources) {
      if (!s.endsWith("-default.xml")) {
        return true;
      }
    }
    return false;
  }
}
