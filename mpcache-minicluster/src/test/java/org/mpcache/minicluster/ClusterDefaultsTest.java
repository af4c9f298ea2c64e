package org.mpcache.minicluster;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.Test;

class ClusterDefaultsTest {

  @Test
  void setUnlessConfigured_valueOnlyFromHadoopsDefaultFiles_isReplaced() {
    // Loading JobConf puts mapred-default.xml under every configuration: the poll reads 5000.
    new JobConf();
    Configuration conf = new YarnConfiguration(new Configuration());
    assertThat(conf.get(Job.COMPLETION_POLL_INTERVAL_KEY)).isEqualTo("5000");

    ClusterDefaults.setUnlessConfigured(conf, Job.COMPLETION_POLL_INTERVAL_KEY, "200");
    ClusterDefaults.setUnlessConfigured(conf, YarnConfiguration.RM_NM_HEARTBEAT_INTERVAL_MS,
        "250");
    ClusterDefaults.setUnlessConfigured(conf, MRJobConfig.MAP_SPECULATIVE, "false");

    assertThat(conf.getInt(Job.COMPLETION_POLL_INTERVAL_KEY, -1)).isEqualTo(200);
    assertThat(conf.getInt(YarnConfiguration.RM_NM_HEARTBEAT_INTERVAL_MS, -1)).isEqualTo(250);
    assertThat(conf.getBoolean(MRJobConfig.MAP_SPECULATIVE, true)).isFalse();
  }

  @Test
  void setUnlessConfigured_callersValue_isKept() {
    Configuration conf = new YarnConfiguration(new JobConf());
    conf.set(Job.COMPLETION_POLL_INTERVAL_KEY, "7000");

    ClusterDefaults.setUnlessConfigured(conf, Job.COMPLETION_POLL_INTERVAL_KEY, "200");

    assertThat(conf.get(Job.COMPLETION_POLL_INTERVAL_KEY)).isEqualTo("7000");
  }

  @Test
  void setUnlessConfigured_keyWithNoValue_isSet() {
    Configuration conf = new Configuration(false);

    ClusterDefaults.setUnlessConfigured(conf, "mpcache.test.key", "1");

    assertThat(conf.get("mpcache.test.key")).isEqualTo("1");
  }
}
