package org.mpcache.master.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.authentication.client.AuthenticatedURL;
import org.apache.hadoop.security.authentication.client.KerberosAuthenticator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.common.security.TestKdc;
import org.mpcache.master.MasterConfigKeys;
import org.mpcache.master.MpCacheMaster;

/**
 * The master's web UI with Kerberos as docs/security.md sets it up: the master logged in from its
 * keytab, {@code hadoop.http.authentication.type=kerberos} with an {@code HTTP/_HOST} principal,
 * authorization and admin-only instrumentation on, {@code mpcache.admin.acl} at its default (the
 * master's user). Callers sign in with SPNEGO from a Kerberos login, as a browser does.
 */
class MasterWebUiKerberosTest {
  private static final File BASE = new File("target/test/web-ui-kerberos").getAbsoluteFile();
  private static final String[] INSTRUMENTATION = {"/logLevel?log=org.mpcache.master",
      "/stacks", "/conf", "/jmx?qry=java.lang:type=Runtime"};

  private static TestKdc kdc;
  private static File keytab;
  private static String realm;
  private static MpCacheMaster master;
  private static String base;

  @BeforeAll
  static void start() throws Exception {
    kdc = TestKdc.start(BASE, "mpcache/localhost", "HTTP/localhost", "alice");
    realm = kdc.realm();
    keytab = kdc.keytab();

    Configuration conf = new Configuration();
    conf.set(CommonConfigurationKeys.HADOOP_SECURITY_AUTHENTICATION, "kerberos");
    conf.set(MpCacheConfigKeys.MASTER_KERBEROS_PRINCIPAL_KEY, "mpcache/_HOST@" + realm);
    conf.set(MpCacheConfigKeys.SLAVE_KERBEROS_PRINCIPAL_KEY, "mpcache/_HOST@" + realm);
    conf.set(MasterConfigKeys.KEYTAB_FILE_KEY, keytab.getPath());
    conf.set(MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY, "localhost:0");
    conf.set(MasterConfigKeys.HTTP_ADDRESS_KEY, "localhost:0");
    conf.set(MasterConfigKeys.STATE_DIR_KEY, "");
    conf.setBoolean(CommonConfigurationKeys.HADOOP_SECURITY_AUTHORIZATION, true);
    conf.setBoolean(CommonConfigurationKeys.HADOOP_SECURITY_INSTRUMENTATION_REQUIRES_ADMIN, true);
    conf.set("hadoop.http.authentication.type", "kerberos");
    conf.set("hadoop.http.authentication.kerberos.principal", "HTTP/_HOST@" + realm);
    conf.set("hadoop.http.authentication.kerberos.keytab", keytab.getPath());
    UserGroupInformation.setConfiguration(conf);
    master = new MpCacheMaster();
    master.init(conf);
    master.start();
    base = "http://localhost:" + master.getHttpAddress().getPort();
  }

  @AfterAll
  static void stop() {
    if (master != null) {
      master.stop();
    }
    if (kdc != null) {
      kdc.close();
    }
  }

  /** Path to status code and body, fetched as {@code principal} signed in with SPNEGO. */
  private static Map<String, String> getAs(String principal, String... paths) throws Exception {
    UserGroupInformation ugi = UserGroupInformation.loginUserFromKeytabAndReturnUGI(
        principal + "@" + realm, keytab.getPath());
    return ugi.doAs((PrivilegedExceptionAction<Map<String, String>>) () -> {
      AuthenticatedURL.Token token = new AuthenticatedURL.Token();
      Map<String, String> answers = new LinkedHashMap<>();
      for (String path : paths) {
        HttpURLConnection c = new AuthenticatedURL(new KerberosAuthenticator())
            .openConnection(new URL(base + path), token);
        answers.put(path, answer(c));
      }
      return answers;
    });
  }

  private static String answer(HttpURLConnection c) throws IOException {
    try {
      int code = c.getResponseCode();
      try (InputStream in = code < 400 ? c.getInputStream() : c.getErrorStream()) {
        return code + " " + (in == null ? "" : new String(in.readAllBytes(),
            StandardCharsets.UTF_8));
      }
    } finally {
      c.disconnect();
    }
  }

  @Test
  void everyPage_refusesACallerWithoutATicket() throws Exception {
    for (String path : new String[] {"/index.html", "/status.json", "/conf", "/logLevel"}) {
      String a = answer((HttpURLConnection) new URL(base + path).openConnection());
      assertTrue(a.startsWith("401 "), path + ": " + a);
    }
  }

  @Test
  void aSignedInNonAdmin_readsThePageButNotTheStatusNorTheInstrumentation() throws Exception {
    String[] paths = new String[INSTRUMENTATION.length + 2];
    paths[0] = "/index.html";
    paths[1] = "/status.json";
    System.arraycopy(INSTRUMENTATION, 0, paths, 2, INSTRUMENTATION.length);
    Map<String, String> answers = getAs("alice", paths);
    assertTrue(answers.get("/index.html").startsWith("200 "), answers.get("/index.html"));
    for (int i = 1; i < paths.length; i++) {
      assertTrue(answers.get(paths[i]).startsWith("403 "), paths[i] + ": " + answers.get(paths[i]));
    }
  }

  @Test
  void theSignedInAdmin_reachesTheInstrumentationAndDatasetPaths() throws Exception {
    String[] paths = new String[INSTRUMENTATION.length + 1];
    paths[0] = "/status.json";
    System.arraycopy(INSTRUMENTATION, 0, paths, 1, INSTRUMENTATION.length);
    Map<String, String> answers = getAs("mpcache/localhost", paths);
    JsonNode s = new ObjectMapper().readTree(answers.get("/status.json").substring(4));
    assertEquals("mpcache", s.get("user").asText(), s.toString());
    assertTrue(s.get("datasetPaths").asBoolean(), s.toString());
    for (String path : INSTRUMENTATION) {
      assertTrue(answers.get(path).startsWith("200 "), path + ": " + answers.get(path));
    }
    assertTrue(answers.get("/logLevel?log=org.mpcache.master").contains("Effective Level"));
  }
}
