package org.mpcache.yarn;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;

/**
 * The RPC client settings for calls to the slave's Localized Cache: short timeouts and no retries,
 * because every caller has a fallback (the task writes to its HDDs, the NodeManager carries on).
 * Holds no state; thread-safe.
 */
final class LocalizedRpc {

  private LocalizedRpc() {
  }

  /** A copy of {@code conf} with the IPC client limited by {@code mpcache.localized.rpc.timeout.ms}. */
  static Configuration clientConf(Configuration conf) {
    int timeout = conf.getInt(YarnIntegrationConfigKeys.RPC_TIMEOUT_MS_KEY,
        YarnIntegrationConfigKeys.RPC_TIMEOUT_MS_DEFAULT);
    if (timeout <= 0) {
      throw new IllegalArgumentException(YarnIntegrationConfigKeys.RPC_TIMEOUT_MS_KEY + " is "
          + timeout + ": set a positive number of milliseconds, e.g. "
          + YarnIntegrationConfigKeys.RPC_TIMEOUT_MS_DEFAULT);
    }
    Configuration c = new Configuration(conf);
    c.setInt(CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_TIMEOUT_KEY, timeout);
    c.setInt(CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_MAX_RETRIES_KEY, 0);
    c.setInt(CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_MAX_RETRIES_ON_SOCKET_TIMEOUTS_KEY,
        0);
    c.setInt(CommonConfigurationKeys.IPC_CLIENT_RPC_TIMEOUT_KEY, timeout);
    return c;
  }
}
