package org.mpcache.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.e2e.ClusterFiles.blocks;
import static org.mpcache.e2e.ClusterFiles.data;
import static org.mpcache.e2e.ClusterFiles.readAll;
import static org.mpcache.e2e.ClusterFiles.write;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.io.IOException;
import java.util.function.Predicate;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.Time;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.mpcache.common.BlockKey;
import org.mpcache.e2e.ClusterFiles;
import org.mpcache.hdfs.ClientConfigKeys;
import org.mpcache.master.MasterConfigKeys;
import org.mpcache.minicluster.MiniMpCacheCluster;
import org.mpcache.slave.MpCacheSlave;

/**
 * A master restarted in process with a state directory resumes what slaves cannot tell it: a
 * dataset's frequency, standing, last access and last job (as {@code mpcache admin datasets}
 * shows them), a slave's decommissioning, and a queued prefetch; restarted without one, it
 * relearns (the frequency starts over), which is what shows the assertions can fail.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MasterStateRestartTest {
  private static final int BLOCK = ClusterFiles.SMALL_BLOCK;
  private static final File BASE = new File("target/e2e/master-state");
  /** A small file read first after a restart (see {@link #readTwice}). */
  private static final Path WARM_UP = new Path("/warm-up/f");
  private static MiniMpCacheCluster cluster;

  @BeforeAll
  static void start() throws IOException {
    FileUtil.fullyDelete(BASE); // no checkpoint or cached block of an earlier run
    cluster = new MiniMpCacheCluster.Builder(BASE).blockSize(BLOCK)
        .set(ClientConfigKeys.SLAVE_RETRY_MS_KEY, "0")
        .set(MasterConfigKeys.STATE_DIR_KEY, new File(BASE, "state").getAbsolutePath())
        // Long enough for slaves stopped on purpose to stay registered while a prefetch plans.
        .set(MasterConfigKeys.SLAVE_EXPIRY_MS_KEY, "60000").build();
    write(cluster, WARM_UP, data(0, BLOCK / 4));
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** {@code mpcache admin} with the cluster's configuration, retried until it exits 0. */
  private static AdminCliRun ok(String... args) throws Exception {
    return AdminCliRun.runUntilOk(cluster.conf(), args);
  }

  private static JsonNode dataset(Path p) throws Exception {
    return AdminCliRun.dataset(cluster.conf(), p.toString());
  }

  private static JsonNode awaitDataset(Path p, String what, Predicate<JsonNode> done)
      throws Exception {
    return AdminCliRun.awaitDataset(cluster.conf(), p.toString(), what, done);
  }

  /**
   * Writes a file of 4 blocks in directory {@code p} (the dataset a read outside a job names) and
   * reads it twice, caching it and hitting it; waits until the
   * master has counted every hit report (two looks, several heartbeats apart, agree). A read of
   * {@link #WARM_UP} comes first: this JVM's pooled connection to a restarted master fails its
   * first call, and the read that makes it falls back to HDFS.
   */
  private static JsonNode readTwice(Path p, long seed) throws Exception {
    readAll(cluster, WARM_UP);
    Path f = new Path(p, "f");
    write(cluster, f, data(seed, 4 * BLOCK));
    readAll(cluster, f);
    awaitDataset(p, "the first read cached every block", d -> d.path("full").asBoolean());
    readAll(cluster, f);
    JsonNode seen = awaitDataset(p, "the second read's hits are counted",
        d -> d.path("frequency").asDouble() > 1);
    long deadline = Time.monotonicNow() + 30_000;
    while (true) {
      Thread.sleep(2_000);
      JsonNode again = dataset(p);
      if (again.equals(seen)) {
        return again;
      }
      assertTrue(Time.monotonicNow() < deadline, "the dataset keeps changing: " + again);
      seen = again;
    }
  }

  @Test
  @Order(1)
  void restartMaster_withStateDir_keepsFrequencyAndStanding() throws Exception {
    Path p = new Path("/kept");
    JsonNode before = readTwice(p, 1);
    assertTrue(before.has("priority"), before::toString);

    cluster.restartMaster();

    JsonNode after = awaitDataset(p, "every block is adopted",
        d -> d.path("cachedBlocks").asInt() == 4);
    assertEquals(before.get("frequency").asDouble(), after.get("frequency").asDouble(),
        "frequency");
    assertEquals(before.get("priority").asDouble(), after.get("priority").asDouble(),
        "priority");
    assertEquals(before.get("full"), after.get("full"));
    assertEquals(before.get("inAuxiliaryCache"), after.get("inAuxiliaryCache"));
    assertTrue(before.path("lastAccessMs").asLong() > 0, before::toString);
    assertEquals(before.get("lastAccessMs"), after.get("lastAccessMs"), "lastAccessMs");
    assertEquals(before.get("lastJob"), after.get("lastJob"), "lastJob");
    String table = ok("datasets", "-path", p.toString()).out;
    assertThat(table).contains(String.format(java.util.Locale.ROOT, "%.4g",
        before.get("frequency").asDouble()));
    assertThat(ok("report").out).containsPattern("State: .*state; last checkpoint \\S+, "
        + "\\S+ \\S+; 0 written, 0 failed");
  }

  @Test
  @Order(2)
  void restartMaster_withoutStateDir_relearnsTheFrequency() throws Exception {
    Path p = new Path("/relearned");
    JsonNode before = readTwice(p, 2);
    assertTrue(before.get("frequency").asDouble() > 1, before::toString);

    cluster.restartMaster(c -> c.set(MasterConfigKeys.STATE_DIR_KEY, ""));

    JsonNode after = awaitDataset(p, "every block is adopted",
        d -> d.path("cachedBlocks").asInt() == 4);
    assertEquals(0.0, after.get("frequency").asDouble(), after::toString);
    assertThat(ok("report").out).contains("State: no state dir");
  }

  @Test
  @Order(3)
  void restartMaster_withStateDir_keepsDecommissionAndQueuedPrefetch() throws Exception {
    Path p = new Path("/prefetched");
    write(cluster, new Path(p, "f"), data(3, 4 * BLOCK));
    cluster.restartMaster(); // a master with the state dir again, after the one without
    MpCacheSlave drained = cluster.slaves().get(1);
    String drainedId = drained.info().getSlaveId();
    for (int i = 0; i < cluster.slaves().size(); i++) {
      cluster.stopSlave(i); // still registered: the master hears nothing until they expire
    }
    ok("decommission", drainedId);
    JsonNode queued = ok("prefetch", p.toString(), "-json").json();
    assertEquals(4, queued.get("queued").asInt(), queued::toString);

    cluster.restartMaster();
    for (int i = 0; i < cluster.slaves().size(); i++) {
      cluster.crashAndRestartSlave(i);
    }

    assertTrue(cluster.master().getSlaveRegistry().isDecommissioning(drainedId));
    assertThat(ok("report").out).containsPattern(java.util.regex.Pattern.quote(drainedId)
        + "\\s+decommissioning");
    MpCacheSlave serving = cluster.slaves().get(0);
    long deadline = Time.monotonicNow() + 30_000;
    for (BlockKey k : blocks(cluster, new Path(p, "f"))) {
      while (serving.getStore().cachedLength(k) < 0) {
        assertTrue(Time.monotonicNow() < deadline, "the queued prefetch of " + k
            + " is carried out after the restart");
        Thread.sleep(100);
      }
    }
    assertEquals(4, awaitDataset(p, "the prefetched blocks are reported",
        d -> d.path("cachedBlocks").asInt() == 4).get("cachedBlocks").asInt());
    ok("decommission", drainedId, "-cancel");
  }
}
