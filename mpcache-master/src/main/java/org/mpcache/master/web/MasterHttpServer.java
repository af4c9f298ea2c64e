package org.mpcache.master.web;

import java.net.InetSocketAddress;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.http.HttpServer2;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.service.AbstractService;
import org.mpcache.master.status.MasterStatus;

/**
 * The master's web UI on Hadoop's {@link HttpServer2}: the status page ({@code /index.html}, a
 * static page whose script renders {@code /status.json}), and the servlets every Hadoop daemon
 * serves ({@code /jmx}, {@code /conf}, {@code /stacks}, {@code /logLevel}), with Hadoop's HTTP
 * authentication and admin ACLs when the cluster configures them.
 *
 * <p>The server is built at init and listens from start. Thread-safe: Jetty's threads serve
 * requests concurrently; the status comes from the thread-safe {@link MasterStatus}.
 */
public final class MasterHttpServer extends AbstractService {
  /** The servlet context attribute holding the {@link MasterStatus} the status is read from. */
  static final String STATUS_SOURCE_ATTRIBUTE = "mpcache.master.status";
  /** The name of the web application: its files are {@code webapps/mpcache/} on the classpath. */
  private static final String WEBAPP = "mpcache";

  private final InetSocketAddress bindAddress;
  private final MasterStatus status;
  private HttpServer2 server;

  /**
   * @param bindAddress where to listen; port 0 picks a free port
   * @param status the master's status queries, read for every status request
   */
  public MasterHttpServer(InetSocketAddress bindAddress, MasterStatus status) {
    super(MasterHttpServer.class.getSimpleName());
    this.bindAddress = bindAddress;
    this.status = status;
  }

  @Override
  protected void serviceInit(Configuration conf) throws Exception {
    server = new HttpServer2.Builder().setName(WEBAPP).setConf(conf)
        .addEndpoint(URI.create("http://" + NetUtils.getHostPortString(bindAddress)))
        .setFindPort(bindAddress.getPort() == 0).build();
    // /conf shows this configuration; /jmx, /stacks and /logLevel need nothing more.
    server.setAttribute(HttpServer2.CONF_CONTEXT_ATTRIBUTE, conf);
    server.setAttribute(STATUS_SOURCE_ATTRIBUTE, status);
    server.addServlet("status", "/status.json", StatusServlet.class);
    super.serviceInit(conf);
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

  /** The address the server listens on (the real port when configured with port 0). */
  public InetSocketAddress getAddress() {
    InetSocketAddress a = server.getConnectorAddress(0);
    return NetUtils.getConnectAddress(a);
  }
}
