package org.mpcache.master.tools;

import java.io.IOException;
import java.net.InetSocketAddress;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.RemoteException;
import org.mpcache.common.ConfigChecks;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.common.protocolPB.AdminProtocolPB;
import org.mpcache.common.protocolPB.RpcSupport;

/**
 * The admin CLI's connection to the master at {@code mpcache.master.rpc-address}: a proxy that
 * connects at the first call and fails fast, and the wording of failures for operators (an
 * unreachable master is named by its address and the key that set it).
 *
 * <p>Not thread-safe: one command uses it.
 */
final class AdminClient implements AutoCloseable {
  private final String address;
  private final AdminProtocolPB proxy;

  private AdminClient(String address, AdminProtocolPB proxy) {
    this.address = address;
    this.proxy = proxy;
  }

  /**
   * A client for the configured master.
   *
   * @throws IllegalArgumentException when the address is malformed (a usage error)
   */
  static AdminClient create(Configuration conf) {
    InetSocketAddress a = ConfigChecks.address(conf, MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY,
        MpCacheConfigKeys.MASTER_RPC_ADDRESS_DEFAULT);
    int timeout = ConfigChecks.intAtLeast(conf, MpCacheConfigKeys.RPC_TIMEOUT_MS_KEY,
        MpCacheConfigKeys.RPC_TIMEOUT_MS_DEFAULT, 1);
    String configured = conf.getTrimmed(MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY,
        MpCacheConfigKeys.MASTER_RPC_ADDRESS_DEFAULT);
    try {
      return new AdminClient(configured, RpcSupport.proxy(AdminProtocolPB.class, a, conf,
          timeout));
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot create a client for the master at " + a
          + ": " + e.getMessage(), e);
    }
  }

  AdminProtocolPB proxy() {
    return proxy;
  }

  /** The master's address as configured. */
  String address() {
    return address;
  }

  /** What went wrong, for the operator. */
  String describe(IOException e) {
    if (e instanceof CommandFailedException) {
      return e.getMessage();
    }
    if (e instanceof RemoteException) {
      // The server sends its stack trace after the message: the first line is for people.
      return "the master at " + address + " refused: "
          + ((RemoteException) e).getMessage().split("\n", 2)[0];
    }
    return "cannot reach the mpCache master at " + address + " ("
        + MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY + "): " + e.getMessage();
  }

  @Override
  public void close() {
    RpcSupport.close(proxy);
  }
}
