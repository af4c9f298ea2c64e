package org.mpcache.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.common.BlockKey;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.common.proto.AdminProtos.CheckpointStatusProto;
import org.mpcache.master.arbitrator.BlockAccess;
import org.mpcache.master.arbitrator.HeldBlock;
import org.mpcache.master.state.MasterStateFile;

/**
 * A master with {@code mpcache.master.state.dir}: it checkpoints there when it stops, keeps the
 * space history there when no file of its own is set, and reports both; by default the directory
 * is under {@code hadoop.tmp.dir}, so that a restarted master keeps the datasets' frequencies.
 */
class MpCacheMasterStateDirTest {
  @TempDir
  Path dir;

  private MpCacheMaster start(Configuration conf) {
    conf.set(MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY, "127.0.0.1:0");
    conf.set(MasterConfigKeys.HTTP_ADDRESS_KEY, "127.0.0.1:0");
    MpCacheMaster m = new MpCacheMaster();
    m.init(conf);
    m.start();
    return m;
  }

  @Test
  void stop_withStateDir_checkpointsThereWithTheSpaceHistory() throws Exception {
    Path state = dir.resolve("state");
    Configuration conf = new Configuration();
    conf.set(MasterConfigKeys.STATE_DIR_KEY, state.toString());
    MpCacheMaster m = start(conf);
    m.getSpaceManager().record("sort", 1L << 30, 1L << 28);
    m.getSpaceManager().save();
    assertTrue(Files.exists(state.resolve("space-history")));
    CheckpointStatusProto running = m.getStatus().report().getCheckpoint();
    assertEquals(state.toString(), running.getStateDir());
    assertFalse(running.hasLastMs(), "nothing checkpointed yet");
    m.stop();
    assertEquals(1, m.getCheckpointer().written());
    assertTrue(new MasterStateFile(state, 1 << 20).load().isPresent());

    MpCacheMaster again = start(new Configuration(conf));
    try {
      assertEquals(1, again.getSpaceManager().size(), "the history is read back");
      assertTrue(again.getStatus().report().getCheckpoint().hasLastMs(),
          "the restored checkpoint is the last one");
    } finally {
      again.stop();
    }
  }

  @Test
  void report_withoutStateDir_saysSo() {
    Configuration conf = new Configuration();
    conf.set(MasterConfigKeys.STATE_DIR_KEY, "");
    MpCacheMaster m = start(conf);
    try {
      assertFalse(m.getStatus().report().getCheckpoint().hasStateDir());
    } finally {
      m.stop();
    }
  }

  /**
   * Turned off in a site file: Hadoop drops a property whose value is empty when it loads an XML
   * file (the default then applies), so the off value a site file can carry is {@code none}.
   */
  @Test
  void report_stateDirNoneInASiteFile_checkpointsNothing() throws Exception {
    Path site = dir.resolve("mpcache-site.xml");
    Files.writeString(site, "<configuration><property><name>" + MasterConfigKeys.STATE_DIR_KEY
        + "</name><value>none</value></property></configuration>");
    Configuration conf = new Configuration();
    conf.set("hadoop.tmp.dir", dir.resolve("tmp").toString());
    conf.addResource(new org.apache.hadoop.fs.Path(site.toUri()));
    MpCacheMaster m = start(conf);
    try {
      assertFalse(m.getStatus().report().getCheckpoint().hasStateDir(),
          "state directory " + m.getStatus().report().getCheckpoint().getStateDir());
    } finally {
      m.stop();
    }
    assertFalse(Files.exists(dir.resolve("tmp")), "checkpointed under hadoop.tmp.dir");
  }

  @Test
  void restart_withTheDefaults_keepsDatasetFrequenciesUnderHadoopTmpDir() throws Exception {
    Configuration conf = new Configuration();
    conf.set("hadoop.tmp.dir", dir.toString());
    MpCacheMaster m = start(conf);
    BlockKey block = new BlockKey("BP-1", 1, 1);
    // A slave that holds a block of the dataset, read once: the hit counts toward its frequency.
    m.getArbitrator().onRegister("h1:7000", List.of(new HeldBlock(block, 1000, "/data/in", 2, null)),
        1 << 20, (1 << 20) - 1000);
    m.getArbitrator().onHits(List.of(new BlockAccess("h1:7000", block, 1000, "/data/in", 2,
        "job_1", 1_000)));
    double frequency = frequency(m);
    assertTrue(frequency > 0, "the read counted: " + frequency);
    m.stop();
    Path state = dir.resolve("mpcache").resolve("master-state");
    assertTrue(new MasterStateFile(state, 1 << 20).load().isPresent(), "checkpointed in " + state);
    for (Path d : new Path[] {state, state.getParent()}) {
      assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(d)), d
          + " is the master's only");
    }

    MpCacheMaster again = start(new Configuration(conf));
    try {
      assertEquals(state.toString(), again.getStatus().report().getCheckpoint().getStateDir());
      assertEquals(frequency, frequency(again), "the frequency is restored");
    } finally {
      again.stop();
    }
  }

  private static double frequency(MpCacheMaster m) {
    return m.getStatus().datasets(null).stream()
        .filter(d -> d.getDatasetId().equals("/data/in")).findFirst()
        .orElseThrow(() -> new AssertionError("no dataset /data/in")).getFrequency();
  }
}
