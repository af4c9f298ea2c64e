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
import java.nio.file.Files;
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
import org.mpcache.e2e.ClusterFiles;
import org.mpcache.hdfs.ClientConfigKeys;
import org.mpcache.master.MasterConfigKeys;
import org.mpcache.minicluster.MiniMpCacheCluster;

/**
 * The operators' controls through {@code mpcache admin} on one embedded cluster (two slaves of 4
 * blocks, the lfu-f policy, which admits every dataset, so that only the controls refuse): a
 * pinned dataset survives pressure that evicts others, a directory quota refuses a dataset past
 * its limit, a time to live expires a dataset, the admission filters of mpcache-site.xml refuse
 * and admit as configured and as reloaded by {@code refresh}, and pins, quotas and times to live
 * survive a master restart. The ordered tests form one story.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OperatorControlsCliTest {
  private static final int BLOCK = ClusterFiles.SMALL_BLOCK;
  private static final File BASE = new File("target/e2e/operator-controls");
  private static final File SITE = new File(BASE, "controls-site.xml");
  private static MiniMpCacheCluster cluster;

  @BeforeAll
  static void start() throws IOException {
    FileUtil.fullyDelete(BASE);
    Files.createDirectories(BASE.toPath());
    writeSite("", "/excluded");
    cluster = new MiniMpCacheCluster.Builder(BASE).blockSize(BLOCK).slaveCapacity(4L * BLOCK)
        .addResource(SITE)
        .set(ClientConfigKeys.SLAVE_RETRY_MS_KEY, "0")
        .set(MasterConfigKeys.POLICY_KEY, "lfu-f")
        .set(MasterConfigKeys.STATE_DIR_KEY, new File(BASE, "state").getAbsolutePath()).build();
  }

  private static void writeSite(String include, String exclude) throws IOException {
    Files.writeString(SITE.toPath(), "<configuration>\n"
        + "<property><name>" + MasterConfigKeys.ADMISSION_INCLUDE_KEY + "</name><value>"
        + include + "</value></property>\n"
        + "<property><name>" + MasterConfigKeys.ADMISSION_EXCLUDE_KEY + "</name><value>"
        + exclude + "</value></property>\n</configuration>\n");
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

  private static JsonNode dataset(String p) throws Exception {
    return AdminCliRun.dataset(cluster.conf(), p);
  }

  private static JsonNode awaitDataset(String p, String what, Predicate<JsonNode> done)
      throws Exception {
    return AdminCliRun.awaitDataset(cluster.conf(), p, what, done);
  }

  /** Writes {@code dir/f} of {@code blocks} blocks and reads it through the cache, checked. */
  private static void writeAndRead(String dir, int blocks, long seed) throws IOException {
    Path f = new Path(dir, "f");
    byte[] content = data(seed, blocks * BLOCK);
    write(cluster, f, content);
    assertArrayEquals(content, readAll(cluster, f), f::toString);
  }

  private static String verdict(JsonNode d) {
    return d.path("lastVerdict").path("reason").asText();
  }

  @Test
  @Order(1)
  void pin_pinnedDatasetSurvivesPressureThatEvictsOthers() throws Exception {
    writeAndRead("/pinned", 2, 1);
    awaitDataset("/pinned", "the pinned dataset is cached", d -> d.path("full").asBoolean());
    assertThat(ok("pin", "/pinned").out).contains("Pinned /pinned.");
    assertThat(ok("pin", "/pinned").out).contains("(it was so already)");
    for (int i = 0; i < 5; i++) {
      writeAndRead("/pressure/" + i, 2, 10 + i);
      awaitDataset("/pressure/" + i, "pressure dataset " + i + " was answered",
          d -> d.has("lastVerdict"));
    }
    // Ten blocks of pressure on eight blocks of cache: the policy evicted some of it.
    int evicted = 0;
    for (int i = 0; i < 5; i++) {
      if (dataset("/pressure/" + i).has("lastEviction")) {
        evicted++;
      }
    }
    assertThat(evicted).as("pressure datasets evicted").isGreaterThan(0);
    JsonNode pinned = dataset("/pinned");
    assertEquals(2, pinned.path("cachedBlocks").asInt(), pinned::toString);
    assertThat(ok("explain", "/pinned").out).contains("It is pinned");
    assertThat(pinned.has("lastEviction")).as(pinned.toString()).isFalse();
  }

  @Test
  @Order(2)
  void quota_refusesADatasetPastItsLimit() throws Exception {
    assertThat(ok("quota", "-dir", "/q", "2m").out).contains("Quota of directory /q: 2.0 MiB");
    writeAndRead("/q/a", 2, 20);
    awaitDataset("/q/a", "the first dataset under the quota is cached",
        d -> d.path("full").asBoolean());
    writeAndRead("/q/b", 2, 21);
    JsonNode b = awaitDataset("/q/b", "the second was answered", d -> d.has("lastVerdict"));
    assertEquals("REJECTED_QUOTA", verdict(b), b::toString);
    assertEquals(0, b.path("cachedBlocks").asInt());
    assertThat(ok("explain", "/q/b").out).contains("would put a quota past its limit");
    JsonNode quota = ok("report", "-json").json().path("controls").path("quotas").get(0);
    assertEquals(2L * BLOCK, quota.path("limitBytes").asLong(), quota::toString);
    assertEquals(2L * BLOCK, quota.path("usedBytes").asLong(), quota::toString);
  }

  @Test
  @Order(3)
  void ttl_expiresADatasetNotReadForIt() throws Exception {
    writeAndRead("/t/a", 1, 30);
    awaitDataset("/t/a", "the dataset is cached", d -> d.path("full").asBoolean());
    assertThat(ok("ttl", "/t", "2s").out).contains("Time to live of /t: 2.0s");
    JsonNode gone = awaitDataset("/t/a", "its time to live evicted it",
        d -> d.path("cachedBlocks").asInt() == 0 && d.has("lastEviction"));
    assertEquals("TTL_EXPIRED", gone.path("lastEviction").path("cause").asText(),
        gone::toString);
    assertThat(ok("explain", "/t/a").out).contains("time to live");
  }

  @Test
  @Order(4)
  void admissionFilters_refuseAndAdmitAsConfiguredAndReloaded() throws Exception {
    writeAndRead("/excluded/a", 1, 40);
    JsonNode ex = awaitDataset("/excluded/a", "answered", d -> d.has("lastVerdict"));
    assertEquals("REJECTED_EXCLUDED", verdict(ex), ex::toString);

    writeSite("/warehouse", "/warehouse/staging/**");
    assertThat(ok("refresh").out).contains(MasterConfigKeys.ADMISSION_INCLUDE_KEY);
    writeAndRead("/warehouse/sales", 1, 41);
    awaitDataset("/warehouse/sales", "an included dataset is cached",
        d -> d.path("full").asBoolean());
    writeAndRead("/warehouse/staging/x", 1, 42);
    JsonNode staging = awaitDataset("/warehouse/staging/x", "answered",
        d -> d.has("lastVerdict"));
    assertEquals("REJECTED_EXCLUDED", verdict(staging), staging::toString);
    writeAndRead("/elsewhere", 1, 43);
    JsonNode elsewhere = awaitDataset("/elsewhere", "answered", d -> d.has("lastVerdict"));
    assertEquals("REJECTED_NOT_INCLUDED", verdict(elsewhere), elsewhere::toString);
    assertThat(ok("report").out).contains("Admission filters: include /warehouse; exclude "
        + "/warehouse/staging/**");

    writeSite("", "/excluded");
    ok("refresh");
  }

  @Test
  @Order(5)
  void restartMaster_keepsPinsQuotasAndTimesToLive() throws Exception {
    JsonNode before = ok("report", "-json").json().path("controls");
    cluster.restartMaster();
    JsonNode after = ok("report", "-json").json().path("controls");
    assertEquals(before.path("pins"), after.path("pins"));
    assertEquals(before.path("ttls"), after.path("ttls"));
    assertEquals("/q", after.path("quotas").get(0).path("name").asText(), after::toString);
    assertEquals(2L * BLOCK, after.path("quotas").get(0).path("limitBytes").asLong());
    assertEquals(1, after.path("pins").size(), after::toString);
    // Still enforced: the 2 MiB limit is used up by /q/a, so no block of /q/c fits. A read
    // right after the restart may go to HDFS without asking (the slaves re-register, pooled
    // connections to the old master fail once), so it is read again until the master answers.
    Path f = new Path("/q/c", "f");
    byte[] content = data(50, 4 * BLOCK);
    write(cluster, f, content);
    long deadline = Time.monotonicNow() + 30_000;
    JsonNode c;
    while ((c = dataset("/q/c")) == null || !c.has("lastVerdict")) {
      assertThat(Time.monotonicNow()).as("the master answered a read of /q/c").isLessThan(deadline);
      assertArrayEquals(content, readAll(cluster, f));
      Thread.sleep(500);
    }
    assertEquals("REJECTED_QUOTA", verdict(c), c::toString);
  }
}
