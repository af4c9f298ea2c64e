package org.mpcache.common;

import org.apache.hadoop.conf.Configuration;

/**
 * Builds the configuration an mpCache daemon or tool runs with: Hadoop's core files, then
 * {@code mpcache-default.xml}, then the operator's {@code mpcache-site.xml} (all from the
 * classpath, where the launcher puts {@code MPCACHE_CONF_DIR}).
 */
public final class MpCacheConfiguration {

  private MpCacheConfiguration() {
  }

  /** A fresh configuration with mpCache's default and site files loaded. */
  public static Configuration create() {
    Configuration conf = new Configuration();
    conf.addResource(MpCacheConfigKeys.DEFAULT_RESOURCE);
    conf.addResource(MpCacheConfigKeys.SITE_RESOURCE);
    return conf;
  }
}
