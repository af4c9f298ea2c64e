package org.mpcache.minicluster;

import org.apache.hadoop.conf.Configuration;
import org.mpcache.common.MpCacheConfiguration;

/**
 * Sets the embedded cluster's own defaults (short heartbeats, a 200 ms completion poll, no
 * speculation) unless the caller configured the key ({@link MpCacheConfiguration#setByUser}),
 * which Hadoop's {@code setIfUnset} cannot tell once the MapReduce and YARN defaults files are
 * loaded. Stateless.
 */
final class ClusterDefaults {
  private ClusterDefaults() {
  }

  /** Sets {@code key} to {@code value} unless a source other than a defaults file set it. */
  static void setUnlessConfigured(Configuration conf, String key, String value) {
    if (!MpCacheConfiguration.setByUser(conf, key)) {
      conf.set(key, value);
    }
  }
}
