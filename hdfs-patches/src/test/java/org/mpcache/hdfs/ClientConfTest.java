package org.mpcache.hdfs;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/** Which files the client reads straight from HDFS, and the key that names them. */
class ClientConfTest {
  private static ClientConf conf(String bypassDirNames) {
    Configuration c = new Configuration(false);
    if (bypassDirNames != null) {
      c.set(ClientConfigKeys.BYPASS_DIR_NAMES_KEY, bypassDirNames);
    }
    return new ClientConf(c);
  }

  @Test
  void bypasses_jobStagingFilesAtAnyDepth_notInputs() {
    ClientConf c = conf(null);
    assertTrue(c.bypasses(new Path("hdfs://nn:8020/tmp/hadoop-yarn/staging/alice/.staging/"
        + "job_1795968024832_0011/job.split")));
    assertTrue(c.bypasses(new Path("/tmp/hadoop-yarn/staging/alice/.staging/job_1/libjars/a.jar")));
    assertTrue(c.bypasses(new Path("/user/alice/.sparkStaging/application_1_0001/"
        + "__spark_conf__.zip")));
    assertFalse(c.bypasses(new Path("hdfs://nn:8020/data/wikipedia-k2/part-0")));
    assertFalse(c.bypasses(new Path("/data/.stagingarea/part-0")), "a name, not a prefix");
    assertFalse(c.bypasses(new Path("/data/.staging")), "a file of that name is not under it");
  }

  @Test
  void bypasses_namesGiven_onlyThose_emptyNone() {
    ClientConf c = conf(" tmp , .hive-staging ");
    assertTrue(c.bypasses(new Path("/warehouse/t/.hive-staging/part-0")));
    assertTrue(c.bypasses(new Path("/tmp/x")));
    assertFalse(c.bypasses(new Path("/user/alice/.staging/job_1/job.split")),
        "the names given replace the defaults");
    assertFalse(conf("").bypasses(new Path("/user/alice/.staging/job_1/job.split")));
  }

  @Test
  void init_nameWithASlash_rejectedNamingTheKey() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> conf(".staging,/tmp/hive"));
    assertTrue(e.getMessage().contains(ClientConfigKeys.BYPASS_DIR_NAMES_KEY)
        && e.getMessage().contains("/tmp/hive"), e.getMessage());
  }
}
