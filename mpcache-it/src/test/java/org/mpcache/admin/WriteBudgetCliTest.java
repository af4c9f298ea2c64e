package org.mpcache.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
import org.junit.jupiter.api.Test;
import org.mpcache.e2e.ClusterFiles;
import org.mpcache.hdfs.ClientConfigKeys;
import org.mpcache.master.MasterConfigKeys;
import org.mpcache.minicluster.MiniMpCacheCluster;

/**
 * The SSD write budget end to end on the embedded cluster of one slave, with a budget of one
 * byte per slave per hour and mpCache's policy: the first dataset, as large as the Input Cache,
 * is cached (a cold cache may be filled once: the budget's bucket is as deep as the Input
 * Cache), the slave's heartbeats then report its bytes written with their checksum files, more
 * than the Input Cache holds, which puts the cluster over budget; a new
 * dataset's first read is then refused ({@code REJECTED_WRITE_BUDGET}, explained) and its
 * second read within the hour is cached; {@code mpcache admin report} shows the bytes written
 * per slave and in total, and the budget's state.
 */
class WriteBudgetCliTest {
  private static final int BLOCK = ClusterFiles.SMALL_BLOCK;
  private static final File BASE = new File("target/e2e/write-budget");
  private static MiniMpCacheCluster cluster;

  @BeforeAll
  static void start() throws IOException {
    FileUtil.fullyDelete(BASE);
    cluster = new MiniMpCacheCluster.Builder(BASE).dataNodes(1).blockSize(BLOCK)
        .slaveCapacity(8L * BLOCK)
        .set(ClientConfigKeys.SLAVE_RETRY_MS_KEY, "0")
        .set(MasterConfigKeys.ADMISSION_WRITE_BUDGET_KEY, "1").build();
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static AdminCliRun ok(String... args) throws Exception {
    return AdminCliRun.runUntilOk(cluster.conf(), args);
  }

  /** Reads a one-block file through the cache, checked against {@code content}. */
  private static void read(Path f, byte[] content) throws IOException {
    assertArrayEquals(content, readAll(cluster, f), f::toString);
  }

  /** Polls {@code report -json} for up to 30 s until {@code done} accepts it. */
  private static JsonNode awaitReport(String what, Predicate<JsonNode> done)
      throws Exception {
    long deadline = Time.monotonicNow() + 30_000;
    while (true) {
      JsonNode r = ok("report", "-json").json();
      if (done.test(r)) {
        return r;
      }
      if (Time.monotonicNow() > deadline) {
        throw new AssertionError("timed out waiting until " + what + "; last " + r);
      }
      Thread.sleep(200);
    }
  }

  @Test
  void writeBudget_overBudgetCachesADatasetOnlyOnItsSecondRead() throws Exception {
    long capacity = awaitReport("the slave reports its Input Cache",
        r -> r.path("slaves").size() == 1).path("slaves").get(0).path("space")
        .path("inputCacheCapacity").asLong();
    assertThat(capacity).as("Input Cache capacity").isGreaterThanOrEqualTo(BLOCK);
    Path first = new Path("/budget/first/f");
    byte[] a = data(1, (int) (capacity / BLOCK * BLOCK));
    write(cluster, first, a);
    read(first, a);
    AdminCliRun.awaitDataset(cluster.conf(), "/budget/first",
        "the first dataset, as large as the Input Cache, is cached",
        d -> d.path("full").asBoolean());
    JsonNode over = awaitReport("the slave's writes put the cluster over budget",
        r -> r.path("controls").path("overWriteBudget").asBoolean());
    assertEquals(1, over.path("controls").path("writeBudget").asLong(), over::toString);
    assertThat(over.path("totalCounters").path("ssdBytesWritten").asLong())
        .as("bytes written for the first dataset and its checksums")
        .isGreaterThan(capacity);

    Path second = new Path("/budget/second/f");
    byte[] b = data(2, BLOCK);
    write(cluster, second, b);
    read(second, b);
    JsonNode refused = AdminCliRun.awaitDataset(cluster.conf(), "/budget/second",
        "the second dataset's first read was answered", d -> d.has("lastVerdict"));
    assertEquals("REJECTED_WRITE_BUDGET",
        refused.path("lastVerdict").path("reason").asText(), refused::toString);
    assertEquals(0, refused.path("cachedBlocks").asInt(), refused::toString);
    assertThat(ok("explain", "/budget/second").out).contains("write budget");

    read(second, b);
    AdminCliRun.awaitDataset(cluster.conf(), "/budget/second",
        "the second read within the hour is cached", d -> d.path("full").asBoolean());

    JsonNode r = awaitReport("both datasets' blocks and checksums are reported written",
        j -> j.path("totalCounters").path("ssdBytesWritten").asLong() > a.length + BLOCK);
    long perSlave = 0;
    for (JsonNode s : r.path("slaves")) {
      perSlave += s.path("counters").path("ssdBytesWritten").asLong();
    }
    assertEquals(r.path("totalCounters").path("ssdBytesWritten").asLong(), perSlave,
        r::toString);
    String text = ok("report").out;
    assertThat(text).contains("SSD writes: ").contains("SSD WRITTEN")
        .contains("Write budget: 1 B per slave per hour");
  }
}
