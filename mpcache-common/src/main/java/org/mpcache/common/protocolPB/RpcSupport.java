package org.mpcache.common.protocolPB;

import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.retry.RetryPolicies;
import org.apache.hadoop.ipc.ProtobufRpcEngine2;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.SecretManager;
import org.apache.hadoop.security.token.TokenIdentifier;
import org.apache.hadoop.thirdparty.protobuf.BlockingService;
import org.apache.hadoop.thirdparty.protobuf.ServiceException;

/**
 * Creates mpCache's Hadoop RPC servers and proxies and turns protobuf service errors back into the
 * {@link IOException}s they carry. Proxies fail fast: one connection attempt and a bounded call
 * time, because every mpCache caller has a fallback (a client reads HDFS, a slave retries on its
 * next heartbeat) and must not stall a task on Hadoop's default ten connection retries.
 *
 * <p>Stateless and thread-safe.
 */
public final class RpcSupport {

  /** A remote call that may fail with the protocol's {@link ServiceException}. */
  @FunctionalInterface
  public interface Call<T> {
    T call() throws ServiceException;
  }

  private RpcSupport() {
  }

  /**
   * A proxy for {@code protocol} at {@code address} that tries to connect once and gives up on a
   * call after {@code timeoutMs} milliseconds.
   */
  public static <T> T proxy(Class<T> protocol, InetSocketAddress address, Configuration conf,
      int timeoutMs) throws IOException {
    Configuration c = new Configuration(conf);
    c.setInt("ipc.client.connect.max.retries", 0);
    c.setInt("ipc.client.connect.max.retries.on.timeouts", 0);
    c.setInt("ipc.client.connect.timeout", Math.min(timeoutMs, 5_000));
    RPC.setProtocolEngine(c, protocol, ProtobufRpcEngine2.class);
    return RPC.getProtocolProxy(protocol, RPC.getProtocolVersion(protocol), address,
        UserGroupInformation.getCurrentUser(), c, NetUtils.getDefaultSocketFactory(c), timeoutMs,
        RetryPolicies.TRY_ONCE_THEN_FAIL).getProxy();
  }

  /** Releases a proxy made by {@link #proxy}; null is ignored. */
  public static void close(Object proxy) {
    if (proxy != null) {
      RPC.stopProxy(proxy);
    }
  }

  /**
   * A server for {@code protocol} backed by {@code service}; more protocols can be added with
   * {@link #addProtocol}. The caller starts and stops it.
   */
  public static RPC.Server server(Configuration conf, Class<?> protocol, BlockingService service,
      InetSocketAddress bindAddress, int handlers) throws IOException {
    return server(conf, protocol, service, bindAddress, handlers, null);
  }

  /**
   * A server as {@link #server(Configuration, Class, BlockingService, InetSocketAddress, int)}
   * that also authenticates callers holding a token {@code secrets} can verify (SASL
   * DIGEST-MD5); null for none.
   */
  public static RPC.Server server(Configuration conf, Class<?> protocol, BlockingService service,
      InetSocketAddress bindAddress, int handlers,
      SecretManager<? extends TokenIdentifier> secrets) throws IOException {
    RPC.setProtocolEngine(conf, protocol, ProtobufRpcEngine2.class);
    return new RPC.Builder(conf).setProtocol(protocol).setInstance(service)
        .setBindAddress(bindAddress.getHostString()).setPort(bindAddress.getPort())
        .setNumHandlers(handlers).setSecretManager(secrets).setVerbose(false).build();
  }

  /** Serves one more protocol on an existing server. */
  public static void addProtocol(RPC.Server server, Configuration conf, Class<?> protocol,
      BlockingService service) {
    RPC.setProtocolEngine(conf, protocol, ProtobufRpcEngine2.class);
    server.addProtocol(RPC.RpcKind.RPC_PROTOCOL_BUFFER, protocol, service);
  }

  /**
   * Runs a remote call, rethrowing the {@link IOException} a {@link ServiceException} carries: a
   * {@link org.apache.hadoop.ipc.RemoteException} when the server answered with an error, a local
   * one (connection refused, timeout) when it could not be reached.
   *
   * <p>A call that meets a dead pooled connection is made once more: Hadoop's client keeps one
   * connection per server and does not notice, while idle, that a restarted daemon closed it;
   * the first call sent on it then fails at once with end of file or a reset, before any server
   * saw it. The second attempt connects anew (and fails fast again if the daemon is down).
   */
  public static <T> T call(Call<T> call) throws IOException {
    try {
      return call.call();
    } catch (ServiceException e) {
      if (!isDeadConnection(e.getCause())) {
        throw unwrap(e);
      }
    }
    try {
      return call.call();
    } catch (ServiceException e) {
      throw unwrap(e);
    }
  }

  /** Whether {@code cause} says a connection was found closed by its peer. */
  static boolean isDeadConnection(Throwable cause) {
    if (cause instanceof EOFException) {
      return true;
    }
    return cause instanceof SocketException && cause.getMessage() != null
        && cause.getMessage().contains("Connection reset");
  }

  private static IOException unwrap(ServiceException e) {
    Throwable cause = e.getCause();
    if (cause instanceof IOException) {
      return (IOException) cause;
    }
    return new IOException(e.getMessage(), cause != null ? cause : e);
  }
}
