package org.mpcache.common.service;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.authorize.PolicyProvider;
import org.apache.hadoop.security.token.SecretManager;
import org.apache.hadoop.security.token.TokenIdentifier;
import org.apache.hadoop.service.AbstractService;
import org.apache.hadoop.thirdparty.protobuf.BlockingService;
import org.mpcache.common.protocolPB.RpcSupport;

/**
 * A Hadoop RPC server as a service: it serves one or more protobuf protocols on one port, is
 * built at init, listens from start and stops with the service. Thread-safe; the server's handler
 * threads call the protocol implementations concurrently.
 */
public final class RpcServerService extends AbstractService {
  private final InetSocketAddress bindAddress;
  private final int handlers;
  private final Map<Class<?>, BlockingService> protocols = new LinkedHashMap<>();
  private final List<Class<?>> terse = new ArrayList<>();
  private PolicyProvider policy;
  private SecretManager<? extends TokenIdentifier> secrets;
  private int largestResponse;
  private volatile RPC.Server server;

  public RpcServerService(String name, InetSocketAddress bindAddress, int handlers) {
    super(name);
    this.bindAddress = bindAddress;
    this.handlers = handlers;
  }

  /** Adds a protocol to serve; call before init. */
  public RpcServerService serve(Class<?> protocol, BlockingService service) {
    protocols.put(protocol, service);
    return this;
  }

  /**
   * Exceptions the server logs on one line, without a stack trace (expected refusals); call
   * before init.
   */
  public RpcServerService terse(Class<?>... exceptions) {
    terse.addAll(Arrays.asList(exceptions));
    return this;
  }

  /**
   * The ACLs the server checks when {@code hadoop.security.authorization} is true, one per
   * protocol it serves; call before init.
   */
  public RpcServerService authorize(PolicyProvider provider) {
    this.policy = provider;
    return this;
  }

  /**
   * Also authenticates callers holding a token {@code tokens} verifies (SASL DIGEST-MD5), beside
   * the configured authentication; null for none; call before init.
   */
  public RpcServerService tokens(SecretManager<? extends TokenIdentifier> tokens) {
    this.secrets = tokens;
    return this;
  }

  /**
   * Responses of up to {@code bytes} are expected (a block's data): Hadoop's server logs a WARN
   * per response larger than {@code ipc.server.max.response.size}, raised here to that size;
   * call before init.
   */
  public RpcServerService expectResponsesUpTo(int bytes) {
    this.largestResponse = bytes;
    return this;
  }

  /** Reloads the service ACLs from {@code conf} and the policy file (after init). */
  public void refreshServiceAcls(Configuration conf) {
    if (policy != null) {
      ServiceAcls.load(server, conf, policy);
    }
  }

  @Override
  protected void serviceInit(Configuration conf) throws Exception {
    if (protocols.isEmpty()) {
      throw new IllegalStateException(getName() + " serves no protocol");
    }
    Configuration serverConf = new Configuration(conf);
    int warnAbove = conf.getInt(CommonConfigurationKeys.IPC_SERVER_RPC_MAX_RESPONSE_SIZE_KEY,
        CommonConfigurationKeys.IPC_SERVER_RPC_MAX_RESPONSE_SIZE_DEFAULT);
    serverConf.setInt(CommonConfigurationKeys.IPC_SERVER_RPC_MAX_RESPONSE_SIZE_KEY,
        Math.max(warnAbove, largestResponse));
    RPC.Server s = null;
    for (Map.Entry<Class<?>, BlockingService> e : protocols.entrySet()) {
      if (s == null) {
        s = RpcSupport.server(serverConf, e.getKey(), e.getValue(), bindAddress, handlers,
            secrets);
      } else {
        RpcSupport.addProtocol(s, serverConf, e.getKey(), e.getValue());
      }
    }
    s.addTerseExceptions(terse.toArray(new Class<?>[0]));
    server = s;
    refreshServiceAcls(conf);
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
    return NetUtils.getConnectAddress(server);
  }
}
