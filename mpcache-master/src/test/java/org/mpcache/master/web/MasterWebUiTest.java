package org.mpcache.master.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.URL;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.HttpsURLConnection;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.ssl.KeyStoreTestUtil;
import org.apache.hadoop.security.ssl.SSLFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mpcache.master.arbitrator.BlockAccess;
import org.mpcache.common.BlockKey;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveInfoProto;
import org.mpcache.common.proto.MpCacheProtos.SpaceReportProto;
import org.mpcache.master.MasterConfigKeys;
import org.mpcache.master.MpCacheMaster;
import org.mpcache.master.registry.SlaveIdentity;

/**
 * The master's web UI over real HTTP and HTTPS, with Hadoop's web security on as docs/security.md
 * sets it up: {@code hadoop.security.authorization} and
 * {@code hadoop.security.instrumentation.requires.admin}, simple authentication (the caller names
 * itself with {@code user.name}, which is enough to test who is let in), the admin ACL at its
 * default (the user the master runs as), {@code mpcache.admin.read.acl} naming one more reader,
 * and the key store {@link KeyStoreTestUtil} makes. The status page and its script for anyone,
 * {@code /status.json} (the admin report) for admins and readers only, as the admin report over
 * RPC, and the standard servlets and the log directory for admins only. Without authorization,
 * {@code /status.json} for anyone, dataset paths for admins and readers only.
 */
class MasterWebUiTest {
  private static final String SECRET_DATASET = "/user/alice/secret-input";
  private static final String HOSTILE = "<script>alert(1)</script>\"";
  private static final String READER = "carol";
  private static final String OUTSIDER = "bob";
  private static final File SSL_DIR = new File("target/test/web-ui-ssl").getAbsoluteFile();
  private static final File LOG_DIR = new File("target/test/web-ui-logs").getAbsoluteFile();

  private static String sslConfDir;
  private static Configuration conf;
  private static MpCacheMaster master;
  private static String base;
  private static String admin;

  @BeforeAll
  static void start() throws Exception {
    conf = new Configuration();
    conf.set(MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY, "127.0.0.1:0");
    conf.set(MasterConfigKeys.HTTP_ADDRESS_KEY, "127.0.0.1:0");
    conf.set(MasterConfigKeys.STATE_DIR_KEY, "");
    conf.set(MasterConfigKeys.HTTPS_ADDRESS_KEY, "localhost:0");
    conf.set(MasterConfigKeys.HTTP_POLICY_KEY, "HTTP_AND_HTTPS");
    conf.setBoolean(CommonConfigurationKeys.HADOOP_SECURITY_AUTHORIZATION, true);
    conf.setBoolean(CommonConfigurationKeys.HADOOP_SECURITY_INSTRUMENTATION_REQUIRES_ADMIN, true);
    conf.set(MasterConfigKeys.ADMIN_READ_ACL_KEY, READER);
    FileUtil.fullyDelete(SSL_DIR);
    assertTrue(SSL_DIR.mkdirs());
    // As bin/mpcache starts the master: HttpServer2 then serves the log directory at /logs/.
    FileUtil.fullyDelete(LOG_DIR);
    assertTrue(LOG_DIR.mkdirs());
    Files.writeString(new File(LOG_DIR, "master.log").toPath(), "evicted " + SECRET_DATASET);
    System.setProperty("hadoop.log.dir", LOG_DIR.getPath());
    // ssl-server.xml and ssl-client.xml must be on the classpath: the test classes directory.
    sslConfDir = KeyStoreTestUtil.getClasspathDir(MasterWebUiTest.class);
    KeyStoreTestUtil.setupSSLConfig(SSL_DIR.getPath(), sslConfDir, conf, false);
    admin = UserGroupInformation.getLoginUser().getShortUserName();
    master = new MpCacheMaster();
    master.init(conf);
    master.start();
    base = "http://127.0.0.1:" + master.getHttpAddress().getPort();

    master.getSlaveRegistry().register(SlaveInfoProto.newBuilder().setSlaveId("h1:7000")
        .setHost(HOSTILE).setClientPort(7000).setDatanodeAddress("h1:9866").build(),
        SpaceReportProto.newBuilder().setCapacity(1000).setInputCacheCapacity(400)
            .setInputCacheUsed(100).setDynamicPoolCapacity(400).setPoolLentToInput(50)
            .setPoolLentToLocalized(60).setLocalizedCacheCapacity(200).setLocalizedCacheUsed(20)
            .build(), new SlaveIdentity(admin, InetAddress.getLoopbackAddress()), Optional.empty());
    master.getSlaveRegistry().heartbeat("h1:7000", SpaceReportProto.newBuilder().setCapacity(1000)
        .setInputCacheCapacity(400).setInputCacheUsed(300).setDynamicPoolCapacity(400)
        .setPoolLentToInput(50).setPoolLentToLocalized(60).setLocalizedCacheCapacity(200)
        .setLocalizedCacheUsed(20).build(), SlaveCountersProto.newBuilder().setHits(3)
        .setMisses(1).setBytesFromCache(300).setBytesFromHdfs(100).setFallbacks(2)
        .setBlocksCached(1).setBlocksEvicted(0).setBlocksCorrupt(0).build(), List.of());
    // A read of a dataset, as the slave's replace request for a block of it reaches the arbitrator.
    master.getArbitrator().onReplaceRequest(new BlockAccess("h1:7000",
        new BlockKey("BP-1", 1, 1), 1000, SECRET_DATASET, 2, "job_1", 1_000), 0);
  }

  @AfterAll
  static void stop() throws Exception {
    if (master != null) {
      master.stop();
    }
    KeyStoreTestUtil.cleanupSSLConfig(SSL_DIR.getPath(), sslConfDir);
    System.clearProperty("hadoop.log.dir");
  }

  /** An HTTP answer: status code and body (the error page when the code is not 2xx). */
  private record Answer(int code, String body) {
  }

  private static Answer get(HttpURLConnection c) throws IOException {
    try {
      int code = c.getResponseCode();
      try (InputStream in = code < 400 ? c.getInputStream() : c.getErrorStream()) {
        return new Answer(code, in == null ? "" : new String(in.readAllBytes(),
            StandardCharsets.UTF_8));
      }
    } finally {
      c.disconnect();
    }
  }

  /** GET {@code path} as {@code user} (simple authentication), or anonymously when null. */
  private static Answer get(String path, String user) throws IOException {
    String url = base + path;
    if (user != null) {
      url += (path.contains("?") ? "&" : "?") + "user.name="
          + URLEncoder.encode(user, StandardCharsets.UTF_8);
    }
    return get((HttpURLConnection) new URL(url).openConnection());
  }

  private static JsonNode statusAs(String user) throws IOException {
    Answer a = get("/status.json", user);
    assertEquals(200, a.code(), a.body());
    return new ObjectMapper().readTree(a.body());
  }

  private static final String[] INSTRUMENTATION = {"/logLevel?log=org.mpcache.master",
      "/stacks", "/conf", "/jmx?qry=java.lang:type=Runtime", "/logs/master.log"};

  @Test
  void instrumentationServlets_refuseAnonymousCallers() throws Exception {
    for (String path : INSTRUMENTATION) {
      Answer a = get(path, null);
      assertTrue(a.code() == 401 || a.code() == 403,
          path + " answered an anonymous caller " + a.code() + ":\n" + a.body());
    }
  }

  @Test
  void instrumentationServlets_refuseAnAuthenticatedNonAdmin() throws Exception {
    for (String user : new String[] {OUTSIDER, READER}) {
      for (String path : INSTRUMENTATION) {
        Answer a = get(path, user);
        assertEquals(403, a.code(), path + " as " + user + ":\n" + a.body());
      }
    }
  }

  @Test
  void instrumentationServlets_serveTheAdmin() throws Exception {
    assertTrue(get("/jmx?qry=java.lang:type=Runtime", admin).body().contains("\"beans\""));
    Answer conf = get("/conf", admin);
    assertEquals(200, conf.code(), conf.body());
    assertTrue(conf.body().contains(MasterConfigKeys.HTTP_POLICY_KEY), conf.body());
    assertTrue(get("/stacks", admin).body().contains("Thread"));
    Answer log = get("/logLevel?log=org.mpcache.master", admin);
    assertEquals(200, log.code(), log.body());
    assertTrue(log.body().contains("Effective Level"), log.body());
    assertTrue(get("/logs/master.log", admin).body().contains(SECRET_DATASET));
  }

  @Test
  void statusPage_andItsScriptAreServedToAnyone() throws Exception {
    String page = get("/index.html", null).body();
    assertTrue(page.contains("<table id=\"slaves\">"), page);
    assertTrue(page.contains("/static/status.js"), page);
    String script = get("/static/status.js", null).body();
    assertTrue(script.contains("textContent"), "the script renders through textContent");
    assertTrue(get("/", null).body().contains("<table id=\"slaves\">"), "/ serves the page");
  }

  @Test
  void statusJson_listsRegisteredSlavesWithSpaceAndCounters() throws Exception {
    JsonNode s = statusAs(READER);
    JsonNode report = s.get("report");
    assertEquals("mpcache", report.get("policy").asText());
    assertEquals(1, report.get("slaves").size());
    JsonNode slave = report.get("slaves").get(0);
    assertEquals("h1:7000", slave.at("/slave/slaveId").asText());
    assertEquals(HOSTILE, slave.at("/slave/host").asText(), "JSON escapes, not mangles");
    assertEquals(300, slave.at("/space/inputCacheUsed").asLong());
    assertEquals(60, slave.at("/space/poolLentToLocalized").asLong());
    assertEquals(300, slave.at("/counters/bytesFromCache").asLong());
    assertEquals(2, slave.at("/counters/fallbacks").asLong());
    assertTrue(slave.get("live").asBoolean());
  }

  @Test
  void statusJson_showsDatasetPathsToTheAdminAndTheReadAcl() throws Exception {
    for (String user : new String[] {admin, READER}) {
      JsonNode s = statusAs(user);
      assertEquals(user, s.get("user").asText());
      assertTrue(s.get("datasetPaths").asBoolean(), user + ": " + s);
      assertEquals(1, s.get("datasets").size(), s.toString());
      JsonNode d = s.get("datasets").get(0);
      assertEquals(SECRET_DATASET, d.get("datasetId").asText());
      assertEquals("job_1", d.get("lastJob").asText(), d.toString());
    }
  }

  @Test
  void statusJson_refusesAnonymousCallers() throws Exception {
    Answer a = get("/status.json", null);
    assertEquals(401, a.code(), a.body());
    assertFalse(a.body().contains("h1:7000"), a.body());
  }

  @Test
  void statusJson_refusesAUserNeitherAdminNorReader() throws Exception {
    Answer a = get("/status.json", OUTSIDER);
    assertEquals(403, a.code(), a.body());
    assertFalse(a.body().contains("h1:7000"), a.body());
    assertTrue(a.body().contains(MasterConfigKeys.ADMIN_READ_ACL_KEY), a.body());
  }

  @Test
  void statusPageAndStatus_areServedOverHttps() throws Exception {
    SSLFactory ssl = new SSLFactory(SSLFactory.Mode.CLIENT, conf);
    ssl.init();
    try {
      String https = "https://localhost:" + master.getHttpsAddress().getPort();
      for (String path : new String[] {"/index.html", "/status.json?user.name=" + admin}) {
        HttpsURLConnection c = (HttpsURLConnection) new URL(https + path).openConnection();
        c.setSSLSocketFactory(ssl.createSSLSocketFactory());
        c.setHostnameVerifier(ssl.getHostnameVerifier());
        c.connect();
        assertNotNull(c.getCipherSuite(), "a TLS session");
        Answer a = get(c);
        assertEquals(200, a.code(), path + ": " + a.body());
        if (path.startsWith("/status.json")) {
          assertTrue(a.body().contains(SECRET_DATASET), a.body());
        } else {
          assertTrue(a.body().contains("<table id=\"slaves\">"), a.body());
        }
      }
    } finally {
      ssl.destroy();
    }
  }

  @Test
  void statusJson_withTheDefaultsHidesDatasetPathsFromOthers() throws Exception {
    Configuration defaults = new Configuration();
    defaults.set(MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY, "127.0.0.1:0");
    defaults.set(MasterConfigKeys.HTTP_ADDRESS_KEY, "127.0.0.1:0");
    defaults.set(MasterConfigKeys.STATE_DIR_KEY, "");
    MpCacheMaster plain = new MpCacheMaster();
    plain.init(defaults);
    plain.start();
    try {
      assertEquals(null, plain.getHttpsAddress(), "HTTP only by default");
      plain.getArbitrator().onReplaceRequest(new BlockAccess("h1:7000",
          new BlockKey("BP-1", 1, 1), 1000, SECRET_DATASET, 2, "job_1", 1_000), 0);
      String url = "http://127.0.0.1:" + plain.getHttpAddress().getPort() + "/status.json";
      for (String query : new String[] {"", "?user.name=" + OUTSIDER}) {
        Answer a = get((HttpURLConnection) new URL(url + query).openConnection());
        assertEquals(200, a.code(), a.body());
        assertFalse(a.body().contains("secret-input"), query + " sees the path: " + a.body());
        assertFalse(a.body().contains("job_1"), query + " sees the job: " + a.body());
        JsonNode s = new ObjectMapper().readTree(a.body());
        assertFalse(s.get("datasetPaths").asBoolean(), a.body());
        JsonNode d = s.get("datasets").get(0);
        assertEquals(2, d.get("sizeBlocks").asInt(), "the figures are still there: " + d);
        assertTrue(d.has("cachedBlocks") && d.has("frequency"), d.toString());
      }
      JsonNode named = new ObjectMapper().readTree(get((HttpURLConnection)
          new URL(url + "?user.name=" + admin).openConnection()).body());
      assertTrue(named.get("datasetPaths").asBoolean(), named.toString());
    } finally {
      plain.stop();
    }
  }

  /** The innermost message of the failure of a master's init with these keys and values. */
  private static String initFailure(String... keysAndValues) {
    Configuration bad = new Configuration();
    bad.set(MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY, "127.0.0.1:0");
    bad.set(MasterConfigKeys.HTTP_ADDRESS_KEY, "127.0.0.1:0");
    bad.set(MasterConfigKeys.HTTPS_ADDRESS_KEY, "127.0.0.1:0");
    bad.set(MasterConfigKeys.STATE_DIR_KEY, "");
    for (int i = 0; i < keysAndValues.length; i += 2) {
      bad.set(keysAndValues[i], keysAndValues[i + 1]);
    }
    MpCacheMaster m = new MpCacheMaster();
    Exception e = assertThrows(Exception.class, () -> m.init(bad));
    m.stop();
    Throwable root = e;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    return root.getMessage();
  }

  @Test
  void init_unknownHttpPolicy_isRefusedNamingTheKey() {
    String message = initFailure(MasterConfigKeys.HTTP_POLICY_KEY, "HTTPS_PLEASE");
    assertTrue(message.contains(MasterConfigKeys.HTTP_POLICY_KEY)
        && message.contains("HTTPS_PLEASE"), message);
  }

  @Test
  void init_httpsWithoutItsSslServerFile_isRefusedNamingTheFile() {
    String message = initFailure(MasterConfigKeys.HTTP_POLICY_KEY, "HTTPS_ONLY",
        SSLFactory.SSL_SERVER_CONF_KEY, "no-such-ssl-server.xml");
    assertTrue(message.contains("no-such-ssl-server.xml")
        && message.contains(SSLFactory.SSL_SERVER_CONF_KEY), message);
  }
}
