package org.mpcache.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mpcache.admin.AdminCliRun;
import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;
import org.mpcache.common.BlockKey;
import org.mpcache.minicluster.MiniMpCacheCluster;
import org.mpcache.slave.MpCacheSlave;
import org.mpcache.slave.SlaveConfigKeys;
import org.mpcache.slave.store.FaultInjectingBlockStorage;
import org.mpcache.slave.store.FaultInjectingBlockStorage.Errno;
import org.mpcache.slave.store.FaultInjectingBlockStorage.Injection;
import org.mpcache.slave.store.FaultInjectingBlockStorage.Op;

/**
 * The master's status page in a real browser (Debian's chromium, headless) against a running
 * embedded cluster with the web security docs/security.md gives
 * ({@code hadoop.security.authorization} and {@code hadoop.security.instrumentation.requires.admin},
 * simple HTTP authentication): after the page's script ran, the DOM lists every live slave, the
 * admin sees the dataset's path and its figures (hits, misses, byte hit ratio, bytes saved) as
 * {@code mpcache admin datasets} shows them, an anonymous visitor is told who may read the status
 * and sees none of it, and a
 * screenshot is saved to {@code target/web-ui/status.png}; a slave's SSD directory taken out of
 * service (its reads failed through the slaves' fault-injecting storage) is shown with its cause.
 * The admin signs in with
 * {@code user.name} on the page's URL; the authentication cookie Hadoop's filter sets carries the
 * script's request for {@code /status.json}.
 *
 * <p>CI installs chromium (.ci/run) and this test fails there without it; elsewhere (no {@code CI}
 * environment variable) it is skipped when chromium is missing.
 */
class WebUiBrowserTest {
  private static final java.nio.file.Path OUT = Paths.get("target", "web-ui").toAbsolutePath();
  private static final Path DATASET = new Path("/web-ui-data");
  private static MiniMpCacheCluster cluster;
  private static String chromium;
  private static String admin;
  /** The dataset as {@code mpcache admin datasets -json} showed it before the page was read. */
  private static JsonNode figures;
  private static final List<FaultInjectingBlockStorage> storages = new ArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    chromium = findChromium();
    boolean ci = System.getenv("CI") != null && !System.getenv("CI").isEmpty()
        && !"false".equalsIgnoreCase(System.getenv("CI"));
    if (chromium == null) {
      String msg = "chromium is not installed (apt-get install -y chromium)";
      if (ci) {
        throw new AssertionError(msg + "; .ci/run installs it, so in CI this is a failure");
      }
      Assumptions.abort(msg + "; skipped outside CI");
    }
    FileUtil.fullyDelete(OUT.toFile());
    Files.createDirectories(OUT);
    cluster = new MiniMpCacheCluster.Builder(new File("target/test/web-ui-cluster"))
        .dataNodes(2).blockSize(1 << 20)
        .set(CommonConfigurationKeys.HADOOP_SECURITY_AUTHORIZATION, "true")
        .set(CommonConfigurationKeys.HADOOP_SECURITY_INSTRUMENTATION_REQUIRES_ADMIN, "true")
        .set(SlaveConfigKeys.VOLUME_FAULTS_TOLERATED_KEY, "0")
        .slaveStorage((i, local) -> {
          FaultInjectingBlockStorage s = new FaultInjectingBlockStorage(local);
          storages.add(s);
          return s;
        }).build();
    // mpcache.admin.acl at its default: the user the master runs as, this JVM's.
    admin = UserGroupInformation.getLoginUser().getShortUserName();
    // One dataset read twice through the cache, so that the page has a dataset and hits to show.
    Path data = new Path(DATASET, "part-0");
    byte[] bytes = new byte[3 << 20];
    new Random(7).nextBytes(bytes);
    try (FSDataOutputStream out = cluster.plainFileSystem().create(data)) {
      out.write(bytes);
    }
    // The first read (or reads, until every block is cached) misses, the last one hits.
    ClusterFiles.readUntilCached(cluster, data);
    ClusterFiles.readAll(cluster, data);
    // The page shows what the slaves counted once their heartbeats brought it to the master.
    // Qualified: a cluster directory left by an earlier run may hold another NameNode's dataset.
    figures = AdminCliRun.awaitDataset(cluster.conf(),
        cluster.plainFileSystem().makeQualified(DATASET).toString(),
        "the dataset's figures reach the master", d -> sameFigures(d, cluster.totals()));
    assertTrue(figures.get("hits").asLong() >= 3 && figures.get("misses").asLong() >= 3,
        figures.toString());
  }

  /** Whether the dataset's figures are the slaves' (the cluster reads nothing else). */
  private static boolean sameFigures(JsonNode d, SlaveCountersProto slaves) {
    return d.get("hits").asLong() == slaves.getHits()
        && d.get("misses").asLong() == slaves.getMisses()
        && d.get("bytesFromCache").asLong() == slaves.getBytesFromCache()
        && d.get("bytesFromHdfs").asLong() == slaves.getBytesFromHdfs()
        && d.get("fills").asLong() == slaves.getBlocksCached();
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static String findChromium() {
    for (String c : new String[] {"/usr/bin/chromium", "/usr/bin/chromium-browser"}) {
      if (Files.isExecutable(Paths.get(c))) {
        return c;
      }
    }
    return null;
  }

  /** Runs headless chromium on the page with extra arguments; returns its stdout. */
  private static String chromium(String url, String... args) throws Exception {
    java.nio.file.Path profile = Files.createTempDirectory(OUT, "profile");
    List<String> cmd = new ArrayList<>(List.of(chromium, "--headless", "--no-sandbox",
        "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
        "--user-data-dir=" + profile, "--window-size=1600,900",
        // Lets the page's fetch and rendering finish before the DOM is dumped.
        "--virtual-time-budget=10000"));
    cmd.addAll(Arrays.asList(args));
    cmd.add(url);
    java.nio.file.Path err = OUT.resolve("chromium-stderr.txt");
    Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("chromium did not finish: " + cmd);
    }
    assertEquals(0, p.exitValue(), "chromium failed: " + Files.readString(err));
    FileUtil.fullyDelete(profile.toFile());
    return out;
  }

  private static String pageUrl() {
    return "http://127.0.0.1:" + cluster.master().getHttpAddress().getPort() + "/";
  }

  private static String adminPageUrl() {
    return pageUrl() + "?user.name=" + admin;
  }

  @Test
  void statusPage_showsTheLiveSlavesAfterItsScriptRan() throws Exception {
    String dom = chromium(adminPageUrl(), "--dump-dom");
    Files.writeString(OUT.resolve("status-dom.html"), dom);
    assertTrue(dom.contains("data-loaded=\"true\""), "the script rendered the status:\n" + dom);
    assertEquals(2, cluster.slaves().size());
    for (MpCacheSlave s : cluster.slaves()) {
      String id = s.info().getSlaveId();
      assertTrue(dom.contains("data-slave-id=\"" + id + "\""), id + " missing from\n" + dom);
    }
    assertTrue(dom.contains("2 live slaves"), dom);
    assertTrue(dom.contains("data-dataset-id=\"") && dom.contains(DATASET.toString()),
        "the dataset read is listed:\n" + dom);
    assertFalse(dom.contains("Cannot read /status.json"), dom);
  }

  @Test
  void statusPage_showsTheDatasetFiguresTable() throws Exception {
    String dom = chromium(adminPageUrl(), "--dump-dom");
    Files.writeString(OUT.resolve("status-dom-figures.html"), dom);
    Matcher row = Pattern.compile("<tr class=\"dataset-stats\" ([^>]*)>(.*?)</tr>")
        .matcher(dom);
    assertTrue(row.find(), "the figures table has a row:\n" + dom);
    String attrs = row.group(1);
    assertTrue(attrs.contains("data-dataset-id=\"" + figures.get("datasetId").asText() + "\""),
        attrs);
    for (String[] f : new String[][] {{"hits", "data-hits"}, {"misses", "data-misses"},
        {"bytesFromCache", "data-bytes-from-cache"}, {"bytesFromHdfs", "data-bytes-from-hdfs"}}) {
      assertTrue(attrs.contains(f[1] + "=\"" + figures.get(f[0]).asLong() + "\""),
          f[0] + " as datasets -json shows it, " + figures.get(f[0]) + ", in " + attrs);
    }
    List<String> cells = new ArrayList<>();
    Matcher td = Pattern.compile("<td>(.*?)</td>").matcher(row.group(2));
    while (td.find()) {
      cells.add(td.group(1));
    }
    assertEquals(List.of(figures.get("datasetId").asText(),
        figures.get("hits").asLong() + " / " + figures.get("misses").asLong(),
        String.format(Locale.ROOT, "%.1f%%", 100 * figures.get("byteHitRatio").asDouble()),
        pageBytes(figures.get("bytesFromCache").asLong()),
        pageBytes(figures.get("bytesFromHdfs").asLong()),
        figures.get("fills").asLong() + " / " + figures.get("evictions").asLong()), cells);
  }

  /** Bytes as the page prints them. */
  private static String pageBytes(long n) {
    String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
    int i = 0;
    double v = n;
    while (v >= 1024 && i < units.length - 1) {
      v /= 1024;
      i++;
    }
    return i == 0 ? n + " B" : String.format(Locale.ROOT, "%.1f %s", v, units[i]);
  }

  @Test
  void statusPage_tellsAnAnonymousVisitorWhoMayReadTheStatus() throws Exception {
    String dom = chromium(pageUrl(), "--dump-dom");
    Files.writeString(OUT.resolve("status-dom-anonymous.html"), dom);
    assertTrue(dom.contains("Cannot read /status.json: HTTP 401"), dom);
    assertTrue(dom.contains("mpcache.admin.read.acl only; sign in"), dom);
    assertFalse(dom.contains("data-loaded=\"true\""), "nothing rendered:\n" + dom);
    assertFalse(dom.contains(DATASET.toString()), dom);
  }

  @Test
  void statusPage_showsASlavesDirectoryOutOfService() throws Exception {
    MpCacheSlave slave = cluster.slaves().get(0);
    FaultInjectingBlockStorage storage = storages.get(0);
    try {
      // A fill's free-space query meets EIO; none tolerated: the directory goes out.
      try (Injection eio = storage.fail(Op.USABLE, Errno.EIO)) {
        assertThrows(java.io.IOException.class, () -> slave.getStore().beginFill(
            new BlockKey("BP-web-ui", 1, 1), 1, "/web-ui-fault", 1, ""));
      }
      assertFalse(slave.getStore().volumes().get(0).inService());
      String id = slave.info().getSlaveId();
      String dom = "";
      long deadline = System.currentTimeMillis() + 30_000;
      // The state reaches the master with the slave's next heartbeat.
      while (!dom.contains("data-slave-id=\"" + id + "\" data-dirs-out=\"1\"")
          && System.currentTimeMillis() < deadline) {
        dom = chromium(adminPageUrl(), "--dump-dom");
      }
      Files.writeString(OUT.resolve("status-dom-dir-out.html"), dom);
      assertTrue(dom.contains("data-slave-id=\"" + id + "\" data-dirs-out=\"1\""), dom);
      assertTrue(dom.contains("1 of 1 out of service: " + cluster.slaveSsdDir(0).getAbsolutePath()
          + " since "), dom);
      assertTrue(dom.contains("(write error: free space of "), dom);
    } finally {
      slave.getStore().returnVolumes();
    }
  }

  @Test
  void statusPage_screenshotIsTaken() throws Exception {
    java.nio.file.Path png = OUT.resolve("status.png");
    chromium(adminPageUrl(), "--screenshot=" + png, "--hide-scrollbars");
    assertTrue(Files.size(png) > 1000, "screenshot too small: " + Files.size(png));
    byte[] magic = Arrays.copyOf(Files.readAllBytes(png), 8);
    assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}, magic);
  }
}
