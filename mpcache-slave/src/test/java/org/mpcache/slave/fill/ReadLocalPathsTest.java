package org.mpcache.slave.fill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.junit.jupiter.api.Test;
import org.mpcache.slave.SlaveConfigKeys;

/** How the fills' HDFS client is told to read the local DataNode's block files by path. */
class ReadLocalPathsTest {
  private static final String SCR = HdfsClientConfigKeys.Read.ShortCircuit.KEY;
  private static final String LEGACY = HdfsClientConfigKeys.DFS_CLIENT_USE_LEGACY_BLOCKREADERLOCAL;

  @Test
  void byDefault_fillsReadBlockFilesByPathInAContextOfTheirOwn() {
    Configuration conf = new Configuration(false);
    FillFileSystems.readLocalPaths(conf, "fills-1");
    assertTrue(conf.getBoolean(SCR, false));
    assertTrue(conf.getBoolean(LEGACY, false));
    assertEquals("fills-1", conf.get(HdfsClientConfigKeys.DFS_CLIENT_CONTEXT));
  }

  @Test
  void turnedOff_leavesTheClientAsConfigured() {
    Configuration conf = new Configuration(false);
    conf.setBoolean(SlaveConfigKeys.FILL_LOCAL_PATH_READ_KEY, false);
    FillFileSystems.readLocalPaths(conf, "fills-1");
    assertFalse(conf.getBoolean(SCR, false));
    assertNull(conf.get(LEGACY));
    assertNull(conf.get(HdfsClientConfigKeys.DFS_CLIENT_CONTEXT));
  }

  @Test
  void clusterShortCircuitReadsOn_areUsedAsTheyAre() {
    Configuration conf = new Configuration(false);
    conf.setBoolean(SCR, true);
    conf.set(HdfsClientConfigKeys.DFS_DOMAIN_SOCKET_PATH_KEY, "/var/run/hdfs/dn._PORT");
    FillFileSystems.readLocalPaths(conf, "fills-1");
    // The domain-socket reader, not the path-based one, and the shared context.
    assertNull(conf.get(LEGACY));
    assertNull(conf.get(HdfsClientConfigKeys.DFS_CLIENT_CONTEXT));
  }
}
