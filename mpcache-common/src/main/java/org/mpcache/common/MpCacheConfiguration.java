package org.mpcache.common;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.HdfsConfiguration;

/**
 * Builds the configuration an mpCache daemon or tool runs with: Hadoop's core and HDFS files
 * ({@code core-default.xml}, {@code core-site.xml}, {@code hdfs-default.xml}, {@code hdfs-site.xml},
 * through {@link HdfsConfiguration}, so that {@code dfs.block.access.token.enable} and HDFS's
 * security keys are read where operators set them), then every production module's defaults file on the classpath ({@link MpCacheConfigKeys#DEFAULT_RESOURCES}),
 * then a tool's own defaults files, then the operator's {@code mpcache-site.xml} (all from the
 * classpath, where the launcher puts {@code MPCACHE_CONF_DIR}). A defaults file missing from the
 * classpath is skipped, as Hadoop skips a missing resource. Stateless.
 */
public final class MpCacheConfiguration {

  private MpCacheConfiguration() {
  }

  /**
   * A fresh configuration with mpCache's defaults and site files loaded, and
   * {@code toolDefaults} (the defaults files of a tool's own keys, such as the evaluation's)
   * between the production defaults and the site file, so that the site file still overrides
   * them.
   */
  public static Configuration create(String... toolDefaults) {
    Configuration conf = new HdfsConfiguration();
    for (String resource : MpCacheConfigKeys.DEFAULT_RESOURCES) {
      conf.addResource(resource);
    }
    for (String resource : toolDefaults) {
      conf.addResource(resource);
    }
    conf.addResource(MpCacheConfigKeys.SITE_RESOURCE);
    return conf;
  }

  /**
   * Whether {@code key}'s value was set by the user: it has a value and one of its sources is not
   * a defaults file ({@code *-default.xml}, Hadoop's and mpCache's own). A value set in code
   * counts as the user's. Hadoop's {@code setIfUnset} cannot tell this: once {@code JobConf} or
   * {@code YarnConfiguration} is loaded, every configuration reads {@code mapred-default.xml} and
   * {@code yarn-default.xml}, so a key they give is never unset.
   */
  public static boolean setByUser(Configuration conf, String key) {
    if (conf.get(key) == null) {
      return false;
    }
    String[] sources = conf.getPropertySources(key);
    if (sources == null) {
      return true;
    }
    for (String source : sources) {
      if (!source.endsWith("-default.xml")) {
        return true;
      }
    }
    return false;
  }
}
