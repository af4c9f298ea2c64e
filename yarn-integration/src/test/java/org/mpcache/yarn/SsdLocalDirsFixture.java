package org.mpcache.yarn;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.nodemanager.DefaultContainerExecutor;

/**
 * Gives a MiniMRYarnCluster's NodeManager an extra local dir that plays the SSD. MiniMRYarnCluster
 * overwrites the aux-services list and the container executor, and each NodeManager its local dirs;
 * {@link PinnedConf} keeps the mpCache service and {@link SsdDirExecutor}, which appends the dir
 * named by {@code mpcache.slave.ssd.dirs} to the NodeManager's local dirs.
 */
final class SsdLocalDirsFixture {

  private SsdLocalDirsFixture() {
  }

  /** A configuration whose aux services always include mpCache's and whose executor is ours. */
  static final class PinnedConf extends YarnConfiguration {
    @Override
    public void set(String name, String value, String source) {
      String v = value;
      if (YarnConfiguration.NM_AUX_SERVICES.equals(name)
          && !v.contains(YarnIntegrationConfigKeys.AUX_SERVICE_NAME)) {
        v = v + "," + YarnIntegrationConfigKeys.AUX_SERVICE_NAME;
      } else if (YarnConfiguration.NM_CONTAINER_EXECUTOR.equals(name)) {
        v = SsdDirExecutor.class.getName();
      }
      super.set(name, v, source);
    }
  }

  /** The default executor, after adding the SSD dir to the NodeManager's local dirs. */
  public static final class SsdDirExecutor extends DefaultContainerExecutor {
    @Override
    public void setConf(Configuration conf) {
      if (conf != null) {
        String ssd = conf.getTrimmed(YarnIntegrationConfigKeys.SSD_DIRS_KEY);
        String dirs = conf.getTrimmed(YarnConfiguration.NM_LOCAL_DIRS, "");
        if (ssd != null && !dirs.contains(ssd)) {
          conf.set(YarnConfiguration.NM_LOCAL_DIRS, dirs.isEmpty() ? ssd : dirs + "," + ssd);
        }
      }
      super.setConf(conf);
    }
  }
}
