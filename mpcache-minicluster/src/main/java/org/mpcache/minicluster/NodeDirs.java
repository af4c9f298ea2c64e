package org.mpcache.minicluster;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.nodemanager.DefaultContainerExecutor;

/**
 * Puts each NodeManager of a MiniMRYarnCluster on a local dir of the caller's choice, so that the
 * evaluation can place a node's spills and map outputs on its emulated HDD or SSD. MiniMRYarnCluster
 * overwrites the container executor, and each NodeManager its local dirs (named
 * {@code <cluster>-localDir-nm-<i>_<j>}); {@link PinnedConf} keeps {@link Executor} as the
 * executor, and the executor, which sees its NodeManager's configuration before the NodeManager
 * reads its local dirs, replaces them with the dir set under {@link #localDirKey(int)}.
 *
 * <p>Stateless; the nested classes are as thread-safe as {@link Configuration}.
 */
final class NodeDirs {
  private static final String KEY_PREFIX = "mpcache.benchmarks.nm.local-dir.";
  private static final Pattern NM_INDEX = Pattern.compile("-localDir-nm-(\\d+)_");

  private NodeDirs() {
  }

  /** The key holding NodeManager {@code i}'s local dir. */
  static String localDirKey(int i) {
    return KEY_PREFIX + i;
  }

  /** A configuration whose container executor stays {@link Executor}. */
  static final class PinnedConf extends YarnConfiguration {
    PinnedConf(Configuration other) {
      super(other);
    }

    @Override
    public void set(String name, String value, String source) {
      String v = YarnConfiguration.NM_CONTAINER_EXECUTOR.equals(name)
          ? Executor.class.getName() : value;
      super.set(name, v, source);
    }
  }

  /** The default executor, after replacing its NodeManager's local dirs. */
  public static final class Executor extends DefaultContainerExecutor {
    @Override
    public void setConf(Configuration conf) {
      if (conf != null) {
        Matcher m = NM_INDEX.matcher(conf.getTrimmed(YarnConfiguration.NM_LOCAL_DIRS, ""));
        String dir = m.find() ? conf.getTrimmed(localDirKey(Integer.parseInt(m.group(1)))) : null;
        if (dir != null) {
          conf.set(YarnConfiguration.NM_LOCAL_DIRS, dir);
        }
      }
      super.setConf(conf);
    }
  }
}
