package org.mpcache.master.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveInfoProto;
import org.mpcache.common.proto.MpCacheProtos.SpaceReportProto;
import org.mpcache.master.MasterConfigKeys;
import org.mpcache.master.MpCacheMaster;
import org.mpcache.master.registry.SlaveIdentity;

/**
 * The master's web UI over real HTTP: the status page and its script, {@code /status.json} with a
 * registered slave (hostile characters included), and Hadoop's standard servlets.
 */
class MasterWebUiTest {
  private MpCacheMaster master;
  private String base;

  @BeforeEach
  void start() {
    Configuration conf = new Configuration();
    conf.set(MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY, "127.0.0.1:0");
    conf.set(MasterConfigKeys.HTTP_ADDRESS_KEY, "127.0.0.1:0");
    master = new MpCacheMaster();
    master.init(conf);
    master.start();
    base = "http://127.0.0.1:" + master.getHttpAddress().getPort();
  }

  @AfterEach
  void stop() {
    master.stop();
  }

  private static String get(String url, int expectedStatus) throws IOException {
    HttpURLConnection c = (HttpURLConnection) new URL(url).openConnection();
    try {
      assertEquals(expectedStatus, c.getResponseCode(), url);
      try (InputStream in = c.getInputStream()) {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
    } finally {
      c.disconnect();
    }
  }

  @Test
  void statusJson_listsRegisteredSlavesWithSpaceAndCounters() throws Exception {
    String hostile = "<script>alert(1)</script>\"";
    master.getSlaveRegistry().register(SlaveInfoProto.newBuilder().setSlaveId("h1:7000")
        .setHost(hostile).setClientPort(7000).setDatanodeAddress("h1:9866").build(),
        SpaceReportProto.newBuilder().setCapacity(1000).setInputCacheCapacity(400)
            .setInputCacheUsed(100).setDynamicPoolCapacity(400).setPoolLentToInput(50)
            .setPoolLentToLocalized(60).setLocalizedCacheCapacity(200).setLocalizedCacheUsed(20)
            .build(), new SlaveIdentity("mpcache", null), Optional.empty());
    master.getSlaveRegistry().heartbeat("h1:7000", SpaceReportProto.newBuilder().setCapacity(1000)
        .setInputCacheCapacity(400).setInputCacheUsed(300).setDynamicPoolCapacity(400)
        .setPoolLentToInput(50).setPoolLentToLocalized(60).setLocalizedCacheCapacity(200)
        .setLocalizedCacheUsed(20).build(), SlaveCountersProto.newBuilder().setHits(3)
        .setMisses(1).setBytesFromCache(300).setBytesFromHdfs(100).setFallbacks(2)
        .setBlocksCached(1).setBlocksEvicted(0).setBlocksCorrupt(0).build());

    JsonNode s = new ObjectMapper().readTree(get(base + "/status.json", 200));
    JsonNode report = s.get("report");
    assertEquals("mpcache", report.get("policy").asText());
    assertEquals(1, report.get("slaves").size());
    JsonNode slave = report.get("slaves").get(0);
    assertEquals("h1:7000", slave.at("/slave/slaveId").asText());
    assertEquals(hostile, slave.at("/slave/host").asText(), "JSON escapes, not mangles");
    assertEquals(300, slave.at("/space/inputCacheUsed").asLong());
    assertEquals(60, slave.at("/space/poolLentToLocalized").asLong());
    assertEquals(300, slave.at("/counters/bytesFromCache").asLong());
    assertEquals(2, slave.at("/counters/fallbacks").asLong());
    assertTrue(slave.get("live").asBoolean());
    assertTrue(s.get("datasets").isArray());
    assertEquals(0, s.get("datasets").size(), "no dataset was read");
  }

  @Test
  void statusPage_andItsScriptAreServed() throws Exception {
    String page = get(base + "/index.html", 200);
    assertTrue(page.contains("<table id=\"slaves\">"), page);
    assertTrue(page.contains("/static/status.js"), page);
    String script = get(base + "/static/status.js", 200);
    assertTrue(script.contains("textContent"), "the script renders through textContent");
    assertTrue(get(base + "/", 200).contains("<table id=\"slaves\">"), "/ serves the page");
  }

  @Test
  void hadoopStandardServlets_areServed() throws Exception {
    assertTrue(get(base + "/jmx?qry=java.lang:type=Runtime", 200).contains("\"beans\""));
    assertTrue(get(base + "/conf", 200).contains(MasterConfigKeys.HTTP_ADDRESS_KEY));
    assertTrue(get(base + "/stacks", 200).contains("Thread"));
    assertTrue(get(base + "/logLevel?log=org.mpcache.master", 200).contains("Effective Level"));
  }
}
