package org.mpcache.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.mpcache.common.Waits.waitFor;
import static org.mpcache.e2e.ClusterFiles.blocks;
import static org.mpcache.e2e.ClusterFiles.data;
import static org.mpcache.e2e.ClusterFiles.readAll;
import static org.mpcache.e2e.ClusterFiles.write;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mpcache.admin.AdminCliRun;
import org.mpcache.common.BlockKey;
import org.mpcache.master.adoption.NameNodeGenerationStamps;
import org.mpcache.master.status.EvictionCause;
import org.mpcache.minicluster.MiniMpCacheCluster;
import org.mpcache.slave.MpCacheSlave;

/**
 * Blocks cached before the master went down, whose files changed in HDFS while it was down: at
 * re-registration the master adopts every block, checks them against the NameNode, and orders out
 * the copies HDFS no longer has (an appended block's old generation stamp, a replaced file's old
 * blocks), keeping the rest; {@code mpcache admin report} shows the outcome per slave, and the
 * blocks a restarted slave's background verification dropped.
 */
class StaleAdoptionTest {
  private static final int BLOCK = ClusterFiles.SMALL_BLOCK;
  private static MiniMpCacheCluster cluster;

  @BeforeAll
  static void start() throws IOException {
    // Blocks left on the SSD by an earlier run would name a NameNode that is gone.
    FileUtil.fullyDelete(new File("target/e2e/stale-adoption"));
    cluster = ClusterFiles.smallBlockCluster("stale-adoption");
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /**
   * Writes a file and reads it through the cache until every block is cached: after a restart in
   * another test, this JVM's first call over a pooled connection to the restarted daemon fails
   * and the read falls back to HDFS, as a new process's would not.
   */
  private static List<BlockKey> cached(Path p, long seed, int length) throws Exception {
    byte[] content = data(seed, length);
    write(cluster, p, content);
    List<BlockKey> keys = blocks(cluster, p);
    waitFor(() -> {
      try {
        assertArrayEquals(content, readAll(cluster, p));
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
      return keys.stream().allMatch(k -> copies(k) > 0);
      // Fills wait for the slaves' fill threads, slow on a loaded machine: the condition is
      // polled, so a long limit costs nothing when they are quick.
    }, 60_000, "every block of " + p + " cached by reading it");
    return keys;
  }

  private static int copies(BlockKey k) {
    int n = 0;
    for (MpCacheSlave s : cluster.slaves()) {
      if (s.getStore().cachedLength(k) >= 0) {
        n++;
      }
    }
    return n;
  }

  private static void append(Path p, int bytes) throws IOException {
    try (FSDataOutputStream out = cluster.plainFileSystem().append(p)) {
      out.write(data(99, bytes));
    }
  }

  @Test
  void stale_appendedAndReplacedFiles_namesOnlyTheChangedBlocks() throws Exception {
    Path appended = new Path("/stamps/appended/f");
    Path replaced = new Path("/stamps/replaced/f");
    Path kept = new Path("/stamps/kept/f");
    write(cluster, appended, data(1, 2 * BLOCK + BLOCK / 2));
    write(cluster, replaced, data(2, 2 * BLOCK));
    write(cluster, kept, data(3, BLOCK));
    List<BlockKey> appendedBefore = blocks(cluster, appended);
    List<BlockKey> replacedBefore = blocks(cluster, replaced);
    List<BlockKey> keptBefore = blocks(cluster, kept);
    append(appended, 1000);
    write(cluster, replaced, data(4, 2 * BLOCK));
    String uri = cluster.plainFileSystem().getUri().toString();
    try (NameNodeGenerationStamps stamps = new NameNodeGenerationStamps(cluster.conf())) {
      assertEquals(Set.of(appendedBefore.get(2)),
          stamps.stale(uri + "/stamps/appended/f", appendedBefore));
      assertEquals(Set.copyOf(replacedBefore), stamps.stale(uri + "/stamps/replaced/f",
          replacedBefore));
      assertEquals(Set.of(), stamps.stale(uri + "/stamps/kept/f", keptBefore));
      assertEquals(Set.of(), stamps.stale("/stamps/kept/f", keptBefore),
          "a path without scheme is on fs.defaultFS");
      assertEquals(Set.copyOf(keptBefore), stamps.stale(uri + "/stamps/none/f", keptBefore),
          "a file that is gone has nothing current");
      assertEquals(Set.copyOf(keptBefore), stamps.stale(uri + "/stamps/kept", keptBefore),
          "a directory is not the block's file");
      assertEquals(Set.of(), stamps.stale("hdfs://elsewhere.invalid:8020/stamps/kept/f",
          keptBefore), "another cluster's file is not asked about: kept");
    }
  }

  @Test
  void restartMaster_filesChangedWhileDown_staleOrderedOutCurrentKept() throws Exception {
    Path appended = new Path("/stale/appended/f");
    Path replaced = new Path("/stale/replaced/f");
    Path kept = new Path("/stale/kept/f");
    List<BlockKey> appendedBlocks = cached(appended, 11, 2 * BLOCK + BLOCK / 2);
    List<BlockKey> replacedBlocks = cached(replaced, 12, 2 * BLOCK);
    List<BlockKey> keptBlocks = cached(kept, 13, 2 * BLOCK);
    List<BlockKey> stale = new ArrayList<>(replacedBlocks);
    stale.add(appendedBlocks.get(2));
    List<BlockKey> current = new ArrayList<>(keptBlocks);
    current.addAll(appendedBlocks.subList(0, 2));
    int staleCopies = 0;
    for (BlockKey k : stale) {
      staleCopies += copies(k);
    }

    cluster.restartMaster(() -> {
      append(appended, 1000);
      write(cluster, replaced, data(14, 2 * BLOCK));
    });
    assertNotEquals(appendedBlocks.get(2), blocks(cluster, appended).get(2),
        "the append gave the last block a new generation stamp");

    waitFor(() -> cluster.master().getAdoptionChecker().pending() == 0,
        "the adopted blocks checked against HDFS");
    for (BlockKey k : stale) {
      waitFor(() -> copies(k) == 0, "stale block " + k + " evicted by its slave");
    }
    for (BlockKey k : current) {
      assertNotNull(ClusterFiles.holder(cluster, k), "current block " + k + " stays cached");
      assertThat(cluster.master().getArbitrator().holders(k)).isNotEmpty();
    }
    assertEquals(staleCopies,
        cluster.master().getArbitrator().stats().evictions(EvictionCause.STALE));

    JsonNode report = AdminCliRun.run(cluster.conf(), "report", "-json").json();
    int reportedStale = 0;
    for (JsonNode s : report.get("slaves")) {
      JsonNode a = s.get("adoption");
      reportedStale += a.get("stale").asInt();
      assertEquals(0, a.get("checksPending").asInt());
      assertEquals(0, a.get("unknownDataset").asInt());
      assertEquals(0, a.get("overCapacity").asInt());
    }
    assertEquals(staleCopies, reportedStale);
    AdminCliRun human = AdminCliRun.run(cluster.conf(), "report");
    assertEquals(0, human.code, human::toString);
    assertThat(human.out).contains("ADOPTED").contains("STALE").contains("FAILED VERIFICATION");
  }

  @Test
  void report_blockChangedWhileSlaveDown_showsTheFailedVerification() throws Exception {
    Path p = new Path("/verify/f");
    BlockKey key = cached(p, 21, 2 * BLOCK).get(0);
    MpCacheSlave again = ClusterFiles.changeWhileDownAndRestart(cluster, key);
    String id = again.info().getSlaveId();
    waitFor(() -> again.getStartupVerifier().isDone(), "the background verification");
    // The count reaches the master with the slave's next heartbeat.
    waitFor(() -> failedVerification(id) == 1, "the report shows the dropped block");
    AdminCliRun human = AdminCliRun.run(cluster.conf(), "report");
    String row = human.out.lines().filter(l -> l.startsWith(id + " ")).reduce((a, b) -> b)
        .orElseThrow();
    assertThat(row.trim()).endsWith(" 1");
  }

  private static long failedVerification(String slaveId) {
    try {
      for (JsonNode s : AdminCliRun.run(cluster.conf(), "report", "-json").json().get("slaves")) {
        if (s.get("slave").get("slaveId").asText().equals(slaveId)) {
          return s.get("counters").get("blocksFailedVerification").asLong();
        }
      }
      return -1;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
