package org.mpcache.common;

/**
 * Configuration keys every mpCache process shares (the master's address, RPC time limits), with
 * their defaults. Module-specific keys live in {@code MasterConfigKeys}, {@code SlaveConfigKeys}
 * and {@code ClientConfigKeys}; every key is described in {@code mpcache-default.xml}.
 */
public final class MpCacheConfigKeys {

  /** The master's RPC address: slaves, clients and the admin CLI connect to it. */
  public static final String MASTER_RPC_ADDRESS_KEY = "mpcache.master.rpc-address";
  public static final String MASTER_RPC_ADDRESS_DEFAULT = "localhost:50120";

  /** How long one RPC call to the master or a slave may take before the caller gives up. */
  public static final String RPC_TIMEOUT_MS_KEY = "mpcache.rpc.timeout.ms";
  public static final int RPC_TIMEOUT_MS_DEFAULT = 20_000;

  /** The site file mpCache daemons and tools read on top of mpcache-default.xml. */
  public static final String SITE_RESOURCE = "mpcache-site.xml";
  /** The defaults file, on the classpath in mpcache-common's jar. */
  public static final String DEFAULT_RESOURCE = "mpcache-default.xml";

  private MpCacheConfigKeys() {
  }
}
