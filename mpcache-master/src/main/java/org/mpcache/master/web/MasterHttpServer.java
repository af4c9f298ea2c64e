package org.mpcache.master.web;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.http.HttpConfig;
import org.apache.hadoop.http.HttpServer2;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.AuthenticationFilterInitializer;
import org.apache.hadoop.security.authentication.server.ProxyUserAuthenticationFilterInitializer;
import org.apache.hadoop.security.ssl.SSLFactory;
import org.apache.hadoop.service.AbstractService;
import org.mpcache.common.ConfigChecks;
import org.mpcache.master.MasterConfigKeys;
import org.mpcache.master.security.AdminAcls;
import org.mpcache.master.status.MasterStatus;

/**
 * The master's web UI on Hadoop's {@link HttpServer2}: the status page ({@code /index.html}, a
 * static page whose script renders {@code /status.json}), and the servlets every Hadoop daemon
 * serves ({@code /jmx}, {@code /conf}, {@code /stacks}, {@code /logLevel}).
 *
 * <p>Security is Hadoop's, set up as the NameNode sets up its own web server: every request goes
 * through Hadoop's authentication filter, configured by {@code hadoop.http.authentication.*}
 * ({@code simple}: the {@code user.name} parameter; {@code kerberos}: SPNEGO), which this server
 * adds to {@code hadoop.http.filter.initializers} when the configuration does not name it; the
 * admin ACL ({@value MasterConfigKeys#ADMIN_ACL_KEY}) is {@link HttpServer2}'s, so with
 * {@code hadoop.security.authorization} and {@code hadoop.security.instrumentation.requires.admin}
 * only admins reach the standard servlets; {@value MasterConfigKeys#HTTP_POLICY_KEY} chooses HTTP,
 * HTTPS (key store from {@code hadoop.ssl.server.conf}) or both. {@code /status.json} is the
 * admin report: with {@code hadoop.security.authorization} only callers
 * {@link AdminAcls#checkRead allowed} {@code mpcache admin report} read it; without, anyone does,
 * but dataset paths in it are shown only to callers {@link AdminAcls#mayRead may read} them.
 *
 * <p>The server is built at init and listens from start. Thread-safe: Jetty's threads serve
 * requests concurrently; the status comes from the thread-safe {@link MasterStatus}; the fields
 * are written at init only.
 */
public final class MasterHttpServer extends AbstractService {
  /** The servlet context attribute holding the {@link MasterStatus} the status is read from. */
  static final String STATUS_SOURCE_ATTRIBUTE = "mpcache.master.status";
  /** The servlet context attribute holding the {@link AdminAcls}. */
  static final String ADMIN_ACLS_ATTRIBUTE = "mpcache.master.admin.acls";
  /** The name of the web application: its files are {@code webapps/mpcache/} on the classpath. */
  private static final String WEBAPP = "mpcache";

  private final MasterStatus status;
  private final AdminAcls acls;
  private HttpServer2 server;
  /** The index of the HTTP and the HTTPS connector among the server's, -1 when not served. */
  private int httpConnector = -1;
  private int httpsConnector = -1;

  /**
   * @param status the master's status queries, read for every status request
   * @param acls the admin ACLs: the admin pages take the admins' ACL at init; dataset paths follow
   *     the ACLs in force on each request
   */
  public MasterHttpServer(MasterStatus status, AdminAcls acls) {
    super(MasterHttpServer.class.getSimpleName());
    this.status = status;
    this.acls = acls;
  }

  @Override
  protected void serviceInit(Configuration conf) throws Exception {
    HttpConfig.Policy policy = policy(conf);
    Configuration httpConf = withAuthenticationFilter(conf);
    HttpServer2.Builder builder = new HttpServer2.Builder().setName(WEBAPP).setConf(httpConf)
        .setACL(acls.admins());
    // HttpServer2 makes one connector per address an endpoint's host resolves to, in order.
    int connectors = 0;
    if (policy.isHttpEnabled()) {
      InetSocketAddress http = ConfigChecks.address(conf, MasterConfigKeys.HTTP_ADDRESS_KEY,
          MasterConfigKeys.HTTP_ADDRESS_DEFAULT);
      httpConnector = connectors;
      connectors += InetAddress.getAllByName(http.getHostString()).length;
      builder.addEndpoint(URI.create("http://" + NetUtils.getHostPortString(http)));
    }
    if (policy.isHttpsEnabled()) {
      InetSocketAddress https = ConfigChecks.address(conf, MasterConfigKeys.HTTPS_ADDRESS_KEY,
          MasterConfigKeys.HTTPS_ADDRESS_DEFAULT);
      httpsConnector = connectors;
      builder.addEndpoint(URI.create("https://" + NetUtils.getHostPortString(https)))
          .setSSLConf(sslConf(conf));
    }
    server = builder.build();
    // /conf shows the configuration in effect; /jmx, /stacks and /logLevel need nothing more.
    server.setAttribute(HttpServer2.CONF_CONTEXT_ATTRIBUTE, httpConf);
    server.setAttribute(STATUS_SOURCE_ATTRIBUTE, status);
    server.setAttribute(ADMIN_ACLS_ATTRIBUTE, acls);
    server.addServlet("status", "/status.json", StatusServlet.class);
    super.serviceInit(conf);
  }

  private static HttpConfig.Policy policy(Configuration conf) {
    String value = conf.getTrimmed(MasterConfigKeys.HTTP_POLICY_KEY,
        MasterConfigKeys.HTTP_POLICY_DEFAULT);
    HttpConfig.Policy policy = HttpConfig.Policy.fromString(value);
    if (policy == null) {
      throw new IllegalArgumentException(MasterConfigKeys.HTTP_POLICY_KEY + " is '" + value
          + "'; set it to one of " + Arrays.toString(HttpConfig.Policy.values()) + ".");
    }
    return policy;
  }

  /**
   * {@code conf} with Hadoop's authentication filter among the filter initializers, so that
   * {@code hadoop.http.authentication.*} applies, as the NameNode always installs its own.
   * {@link ProxyUserAuthenticationFilterInitializer} is that filter with proxy users added.
   */
  private static Configuration withAuthenticationFilter(Configuration conf) {
    List<String> initializers = new ArrayList<>(Arrays.asList(
        conf.getTrimmedStrings(HttpServer2.FILTER_INITIALIZER_PROPERTY)));
    Configuration c = new Configuration(conf);
    if (!initializers.contains(AuthenticationFilterInitializer.class.getName())
        && !initializers.contains(ProxyUserAuthenticationFilterInitializer.class.getName())) {
      initializers.add(AuthenticationFilterInitializer.class.getName());
      c.setStrings(HttpServer2.FILTER_INITIALIZER_PROPERTY, initializers.toArray(new String[0]));
    }
    return c;
  }

  /**
   * The SSL settings ({@code ssl.server.keystore.*}, {@code ssl.server.truststore.*}) from the
   * classpath resource {@code hadoop.ssl.server.conf} names, as Hadoop's other HTTPS servers read
   * them.
   */
  private static Configuration sslConf(Configuration conf) throws IOException {
    String resource = conf.getTrimmed(SSLFactory.SSL_SERVER_CONF_KEY,
        SSLFactory.SSL_SERVER_CONF_DEFAULT);
    if (conf.getResource(resource) == null) {
      throw new IOException(MasterConfigKeys.HTTP_POLICY_KEY + " serves HTTPS, but "
          + resource + " (" + SSLFactory.SSL_SERVER_CONF_KEY + ") is not on the classpath: put "
          + "it, with ssl.server.keystore.location and its passwords, in the master's "
          + "configuration directory.");
    }
    Configuration ssl = new Configuration(false);
    ssl.addResource(resource);
    return ssl;
  }

  @Override
  protected void serviceStart() throws Exception {
    server.start();
    super.serviceStart();
  }

  @Override
  protected void serviceStop() throws Exception {
    if (server != null) {
      server.stop();
    }
    super.serviceStop();
  }

  /**
   * The address the HTTP connector listens on (the real port when configured with port 0), or
   * null when HTTP is not served.
   */
  public InetSocketAddress getHttpAddress() {
    return address(httpConnector);
  }

  /** The address the HTTPS connector listens on, or null when HTTPS is not served. */
  public InetSocketAddress getHttpsAddress() {
    return address(httpsConnector);
  }

  private InetSocketAddress address(int connector) {
    return connector < 0 ? null : NetUtils.getConnectAddress(server.getConnectorAddress(connector));
  }
}
