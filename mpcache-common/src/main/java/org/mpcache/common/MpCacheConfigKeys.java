package org.mpcache.common;

import java.util.List;

/**
 * Configuration keys more than one mpCache process reads (the master's address, RPC time limits,
 * the slave's SSD directories), with their defaults, and the names of the defaults files. Each
 * module declares its own keys in its own {@code *ConfigKeys} class and describes them in its own
 * defaults file, as Hadoop's modules do ({@code core-default.xml}, {@code hdfs-default.xml}):
 * these keys are described in {@code mpcache-default.xml}.
 */
public final class MpCacheConfigKeys {

  /** The master's RPC address: slaves, clients and the admin CLI connect to it. */
  public static final String MASTER_RPC_ADDRESS_KEY = "mpcache.master.rpc-address";
  public static final String MASTER_RPC_ADDRESS_DEFAULT = "localhost:50120";

  /** How long one RPC call to the master or a slave may take before the caller gives up. */
  public static final String RPC_TIMEOUT_MS_KEY = "mpcache.rpc.timeout.ms";
  public static final int RPC_TIMEOUT_MS_DEFAULT = 20_000;

  /**
   * The node's SSD directories: the slave caches input blocks in them and the NodeManager's
   * auxiliary service and tasks put localized data there. Required on a slave; no default.
   */
  public static final String SLAVE_CACHE_DIRS_KEY = "mpcache.slave.cache.dirs";

  /**
   * The master's Kerberos principal, e.g. {@code mpcache/_HOST@EXAMPLE.COM}: the master logs in
   * as it from {@code mpcache.master.keytab.file} when {@code hadoop.security.authentication} is
   * {@code kerberos}, and slaves, clients and the admin CLI expect it of the master ({@code _HOST}
   * stands for the master's host name). No default.
   */
  public static final String MASTER_KERBEROS_PRINCIPAL_KEY = "mpcache.master.kerberos.principal";

  /**
   * The slaves' Kerberos principal, e.g. {@code mpcache/_HOST@EXAMPLE.COM}: each slave logs in as
   * it from {@code mpcache.slave.keytab.file}, and Kerberos-authenticated callers expect it of a
   * slave. No default.
   */
  public static final String SLAVE_KERBEROS_PRINCIPAL_KEY = "mpcache.slave.kerberos.principal";

  /**
   * The service-level authorization policy file the daemons read, from the classpath, on top of
   * their configuration when {@code hadoop.security.authorization} is true.
   */
  public static final String POLICY_RESOURCE = "mpcache-policy.xml";

  /** The site file mpCache daemons and tools read on top of the defaults files. */
  public static final String SITE_RESOURCE = "mpcache-site.xml";
  /** The defaults file of these keys, on the classpath in mpcache-common's jar. */
  public static final String DEFAULT_RESOURCE = "mpcache-default.xml";

  /**
   * The production modules' defaults files, in the order a process loads them: this module's,
   * then the master's, the slave's, the intercepting FileSystem's and the YARN integration's
   * (each module's {@code *ConfigKeys.DEFAULT_RESOURCE}). A process loads those its classpath
   * holds: a daemon has its own module's, a task the client's and the YARN integration's.
   */
  public static final List<String> DEFAULT_RESOURCES = List.of(DEFAULT_RESOURCE,
      "mpcache-master-default.xml", "mpcache-slave-default.xml", "mpcache-client-default.xml",
      "mpcache-yarn-default.xml");

  private MpCacheConfigKeys() {
  }
}
