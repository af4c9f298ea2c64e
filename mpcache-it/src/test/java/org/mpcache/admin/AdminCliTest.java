package org.mpcache.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Random;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.util.Time;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.mpcache.minicluster.MiniMpCacheCluster;
import org.mpcache.common.BlockKey;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;
import org.mpcache.e2e.ClusterFiles;
import org.mpcache.hdfs.ClientConfigKeys;
import org.mpcache.master.MasterConfigKeys;
import org.mpcache.slave.MpCacheSlave;

/**
 * Every {@code mpcache admin} subcommand against a running mini cluster (MiniDFSCluster, a master,
 * two slaves of 4 MiB with 1 MiB blocks), in human and JSON form; bad arguments (exit 1 with the
 * usage and what was wrong) and an unreachable master (exit 2 naming its address). The ordered
 * tests form one story: reads, explain, evict, prefetch refused and forced, decommission, refresh.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AdminCliTest {
  private static final int BLOCK = 1 << 20;
  private static final File BASE = new File("target/e2e/admin-cli");
  private static final File EXCLUDES = new File(BASE, "excludes");
  private static final File SITE = new File(BASE, "refresh-site.xml");
  /** Every run's command line, exit code and output, the source of docs/admin.md's examples. */
  private static final File TRANSCRIPT = new File(BASE, "transcript.txt");
  private static MiniMpCacheCluster cluster;

  @BeforeAll
  static void start() throws IOException {
    Files.createDirectories(BASE.toPath());
    Files.deleteIfExists(TRANSCRIPT.toPath());
    Files.writeString(EXCLUDES.toPath(), "# no slave excluded\n");
    writeSite(100);
    cluster = new MiniMpCacheCluster.Builder(BASE).blockSize(BLOCK).slaveCapacity(4L * BLOCK)
        .addResource(SITE)
        .set(ClientConfigKeys.SLAVE_RETRY_MS_KEY, "0").build();
  }

  private static void writeSite(int maxDatasets) throws IOException {
    Files.writeString(SITE.toPath(), "<configuration>\n"
        + "<property><name>" + MasterConfigKeys.STATUS_MAX_DATASETS_KEY + "</name><value>"
        + maxDatasets + "</value></property>\n"
        + "<property><name>" + MasterConfigKeys.SLAVES_EXCLUDE_FILE_KEY + "</name><value>"
        + EXCLUDES.getAbsolutePath() + "</value></property>\n</configuration>\n");
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static AdminCliRun run(Configuration conf, String... args) throws Exception {
    AdminCliRun r = AdminCliRun.run(conf, args);
    Files.writeString(TRANSCRIPT.toPath(), "$ mpcache admin " + String.join(" ", args) + "\n"
        + r.out + r.err + "[exit " + r.code + "]\n\n", StandardCharsets.UTF_8,
        java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
    return r;
  }

  private static AdminCliRun run(String... args) throws Exception {
    return run(cluster.conf(), args);
  }

  private static AdminCliRun ok(String... args) throws Exception {
    AdminCliRun r = run(args);
    assertEquals(0, r.code, r::toString);
    return r;
  }

  private static void write(Path p, int blocks, long seed) throws IOException {
    byte[] b = new byte[blocks * BLOCK];
    new Random(seed).nextBytes(b);
    try (FSDataOutputStream out = cluster.plainFileSystem().create(p, true)) {
      out.write(b);
    }
  }

  private static void readThroughCache(Path p) throws IOException {
    try (FileSystem fs = cluster.fileSystem(); FSDataInputStream in = fs.open(p)) {
      IOUtils.copyBytes(in, org.apache.commons.io.output.NullOutputStream.INSTANCE, 1 << 16);
    }
  }

  private static List<BlockKey> keys(Path p) throws IOException {
    return ClusterFiles.blocks(cluster, p);
  }

  private static int cachedAnywhere(List<BlockKey> keys) {
    int n = 0;
    for (BlockKey k : keys) {
      for (MpCacheSlave s : cluster.slaves()) {
        if (s.getStore().cachedLength(k) >= 0) {
          n++;
          break;
        }
      }
    }
    return n;
  }

  private static void await(String what, BooleanSupplier done) throws IOException {
    long deadline = Time.monotonicNow() + 30_000;
    while (!done.getAsBoolean()) {
      if (Time.monotonicNow() > deadline) {
        throw new AssertionError("timed out waiting until " + what);
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException();
      }
    }
  }

  private static void awaitDataset(String path, String what,
      java.util.function.Predicate<JsonNode> done) throws IOException {
    await(what, () -> {
      try {
        JsonNode d = findDataset(path);
        return d != null && done.test(d);
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
  }

  /** The dataset named by {@code path} as datasets -json lists it, or null. */
  private static JsonNode findDataset(String path) throws Exception {
    for (JsonNode d : ok("datasets", "-path", path, "-json").json().get("datasets")) {
      if (new Path(d.get("datasetId").asText()).toUri().getPath().equals(path)) {
        return d;
      }
    }
    return null;
  }

  private static JsonNode dataset(String path) throws Exception {
    JsonNode d = findDataset(path);
    if (d == null) {
      throw new AssertionError("no dataset " + path);
    }
    return d;
  }

  @Test
  @Order(1)
  void report_listsEveryLiveSlave() throws Exception {
    AdminCliRun r = ok("report");
    assertThat(r.out).contains("policy mpcache").contains("2 live, 0 dead");
    for (MpCacheSlave s : cluster.slaves()) {
      assertThat(r.out).contains(s.info().getSlaveId());
    }
    JsonNode j = ok("report", "-json").json();
    assertEquals(2, j.get("liveSlaves").asInt());
    assertEquals(cluster.conf().get(MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY),
        j.get("master").asText());
    for (JsonNode s : j.get("slaves")) {
      assertThat(s.get("live").asBoolean()).isTrue();
      // The slave capacity is what input may fill: the Input Cache's own space plus the pool.
      assertEquals(4L * BLOCK, s.get("space").get("inputCacheCapacity").asLong()
          + s.get("space").get("dynamicPoolCapacity").asLong());
    }
  }

  @Test
  @Order(2)
  void datasetsAndExplain_afterCachedReads() throws Exception {
    Path f = new Path("/cli/a");
    write(f, 3, 1);
    readThroughCache(f);
    awaitDataset("/cli", "the master counts 3 cached blocks of /cli",
        d -> d.get("cachedBlocks").asInt() == 3);
    SlaveCountersProto before = cluster.totals();
    readThroughCache(f);
    assertEquals(3, cluster.totals().getHits() - before.getHits());

    JsonNode d = dataset("/cli");
    assertEquals(3, d.get("sizeBlocks").asInt());
    assertThat(d.get("full").asBoolean()).isTrue();
    assertThat(d.get("priority").asDouble()).isPositive();
    assertThat(d.get("lastAccessMs").asLong()).isPositive();
    assertEquals("ADMITTED_FREE_SPACE", d.get("lastVerdict").get("reason").asText());

    AdminCliRun table = ok("datasets", "-sort", "cached");
    assertThat(table.out).contains("/cli").contains("DATASET").contains("PRIORITY")
        .contains("1 dataset(s)");
    AdminCliRun explain = ok("explain", "/cli");
    assertThat(explain.out).contains("is fully cached: 3 of 3 blocks")
        .contains("ADMITTED_FREE_SPACE").contains("priority Pr =");
    JsonNode ej = ok("explain", "/cli", "-json").json();
    assertEquals(1, ej.get("datasets").size());
    assertThat(ok("explain", "/never/read").out).contains("no record");
  }

  @Test
  @Order(3)
  void evict_dropsTheDatasetEverywhere() throws Exception {
    List<BlockKey> keys = keys(new Path("/cli/a"));
    AdminCliRun r = ok("evict", "/cli", "-json");
    assertEquals(3, r.json().get("blocks").asInt());
    await("no slave holds /cli", () -> cachedAnywhere(keys) == 0);
    assertThat(ok("explain", "/cli").out).contains("is not cached").contains("ADMIN_EVICT");

    AdminCliRun unknown = run("evict", "/not/a/dataset");
    assertEquals(2, unknown.code, unknown::toString);
    assertThat(unknown.err).contains("knows no dataset with input path /not/a/dataset");
  }

  @Test
  @Order(4)
  void prefetch_fillsFromHdfsSoTheFirstReadHits() throws Exception {
    Path f = new Path("/warm/f");
    write(f, 4, 2);
    AdminCliRun r = ok("prefetch", "/warm", "-wait", "60");
    assertThat(r.out).contains("4 block(s): 4 queued").contains("4 of 4 block(s) cached");
    assertEquals(4, cachedAnywhere(keys(f)));
    SlaveCountersProto before = cluster.totals();
    readThroughCache(f);
    SlaveCountersProto after = cluster.totals();
    assertEquals(4, after.getHits() - before.getHits());
    assertEquals(4L * BLOCK, after.getBytesFromCache() - before.getBytesFromCache());
    assertEquals(0, after.getBytesFromHdfs() - before.getBytesFromHdfs());

    JsonNode again = ok("prefetch", "/warm", "-json").json();
    assertEquals(4, again.get("alreadyCached").asInt());
    assertEquals(0, again.get("queued").asInt());
  }

  @Test
  @Order(5)
  void prefetch_isSubjectToAdmissionUnlessForced() throws Exception {
    // 24 blocks for 2 x 4 blocks of room: whichever slave each block goes to, both fill up
    // (forced: admission control would refuse a new dataset larger than the room).
    Path big = new Path("/big/f");
    write(big, 24, 3);
    ok("prefetch", "/big", "-force");
    await("every slave's Input Cache is full", () -> cluster.slaves().stream()
        .allMatch(s -> s.getStore().space().freeBytes() < BLOCK));
    AdminCliRun partly = run("prefetch", "/big", "-wait", "1");
    assertEquals(2, partly.code, partly::toString);
    assertThat(partly.err).contains("only 8 of 24 block(s)").contains("explain /big");
    Path fresh = new Path("/fresh/f");
    write(fresh, 2, 4);
    JsonNode refused = ok("prefetch", "/fresh", "-json").json();
    assertEquals(2, refused.get("queued").asInt());
    awaitDataset("/fresh", "both refusals are recorded",
        d -> d.has("verdicts") && d.get("verdicts").get(0).get("count").asInt() == 2);
    assertEquals(0, cachedAnywhere(keys(fresh)));
    assertThat(ok("explain", "/fresh").out).contains("REJECTED_NOT_IN_AUXILIARY_CACHE");

    AdminCliRun forced = ok("prefetch", "/fresh", "-force", "-wait", "60");
    assertThat(forced.out).contains("2 of 2 block(s) cached");
    assertEquals(2, cachedAnywhere(keys(fresh)));
    assertThat(ok("explain", "/fresh").out).contains("ADMITTED_BY_FORCE");
    assertThat(ok("explain", "/big").out).contains("REPLACEMENT").contains("to admit");

    AdminCliRun missing = run("prefetch", "/no/such/path");
    assertEquals(2, missing.code, missing::toString);
    assertThat(missing.err).contains("/no/such/path");
  }

  @Test
  @Order(6)
  void decommission_drainsTheSlaveAndCancelRestoresIt() throws Exception {
    MpCacheSlave s = cluster.slaves().get(0);
    String id = s.info().getSlaveId();
    JsonNode r = ok("decommission", id, "-json").json();
    assertThat(r.get("decommissioning").asBoolean()).isTrue();
    await("the decommissioned slave holds nothing", () -> s.getStore().cachedBlocks().isEmpty());
    assertThat(ok("report").out).contains("decommissioning");
    assertThat(cluster.master().getSlaveRegistry().servingSlaves()).extracting(
        i -> i.getSlaveId()).doesNotContain(id);

    AdminCliRun cancel = ok("decommission", id, "-cancel");
    assertThat(cancel.out).contains("is in service");
    AdminCliRun unknown = run("decommission", "nosuchhost:1");
    assertEquals(2, unknown.code, unknown::toString);
    assertThat(unknown.err).contains("No live slave is called nosuchhost:1");
  }

  @Test
  @Order(7)
  void refresh_reloadsTheExcludeFileAndReloadableKeys() throws Exception {
    String id = cluster.slaves().get(1).info().getSlaveId();
    Files.writeString(EXCLUDES.toPath(), id + "   # draining for a disk swap\n");
    writeSite(50);
    AdminCliRun r = ok("refresh");
    assertThat(r.out).contains("Changed " + MasterConfigKeys.STATUS_MAX_DATASETS_KEY + ": 100 -> 50")
        .contains("Decommissioning: " + id);
    assertThat(ok("report", "-json").json().get("slaves").toString()).contains(
        "\"decommissioning\":true");

    Files.writeString(EXCLUDES.toPath(), "");
    JsonNode j = ok("refresh", "-json").json();
    assertThat(j.has("decommissioned")).isFalse();
    assertThat(j.get("reloadableKeys").toString()).contains(MasterConfigKeys.SLAVE_EXPIRY_MS_KEY);

    Files.delete(EXCLUDES.toPath());
    AdminCliRun broken = run("refresh");
    assertEquals(2, broken.code, broken::toString);
    assertThat(broken.err).contains("Refresh failed, nothing changed")
        .contains(MasterConfigKeys.SLAVES_EXCLUDE_FILE_KEY);
    Files.writeString(EXCLUDES.toPath(), "");
  }

  @Test
  void badArguments_exitOneWithTheUsageAndWhatWasWrong() throws Exception {
    String[][] cases = {
        {"report", "extra", "report", "unexpected argument extra"},
        {"datasets", "-sort", "bogus", "datasets", "unknown sort field 'bogus'"},
        {"datasets", "-path", "datasets", "-path needs a value"},
        {"explain", "explain", "missing <path>"},
        {"evict", "/a", "/b", "evict", "unexpected argument /b"},
        {"prefetch", "/a", "-wait", "soon", "prefetch", "-wait needs a whole number"},
        {"decommission", "-now", "h:1", "decommission", "unknown option -now"},
        {"refresh", "-all", "refresh", "unknown option -all"},
    };
    for (String[] c : cases) {
      String[] args = java.util.Arrays.copyOf(c, c.length - 2);
      AdminCliRun r = run(args);
      assertEquals(1, r.code, () -> String.join(" ", args) + "\n" + r);
      assertThat(r.err).contains("Usage: mpcache admin " + c[c.length - 2])
          .contains(c[c.length - 1]);
    }
    AdminCliRun none = run();
    assertEquals(1, none.code);
    assertThat(none.err).contains("Usage: mpcache admin <subcommand>");
    AdminCliRun unknown = run("frobnicate");
    assertEquals(1, unknown.code);
    assertThat(unknown.err).contains("unknown subcommand 'frobnicate'");
    AdminCliRun help = run("help", "prefetch");
    assertEquals(0, help.code);
    assertThat(help.out).contains("-force");
  }

  @Test
  void unreachableMaster_exitsTwoNamingTheAddress() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Configuration conf = cluster.conf();
    conf.set(MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY, "127.0.0.1:" + port);
    String[][] commands = {{"report"}, {"report", "-json"}, {"datasets"}, {"explain", "/x"},
        {"evict", "/x"}, {"prefetch", "/x"}, {"decommission", "h:1"}, {"refresh"}};
    for (String[] c : commands) {
      AdminCliRun r = run(conf, c);
      assertEquals(2, r.code, () -> String.join(" ", c) + "\n" + r);
      assertThat(r.err).contains("cannot reach the mpCache master at 127.0.0.1:" + port);
    }
  }
}
