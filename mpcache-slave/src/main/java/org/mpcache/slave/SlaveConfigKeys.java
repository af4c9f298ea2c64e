package org.mpcache.slave;

/**
 * Configuration keys of the mpCache slave, with their defaults. Every key is described in
 * {@value #DEFAULT_RESOURCE}, with those of {@link org.mpcache.slave.localized.LocalizedConfigKeys}.
 */
public final class SlaveConfigKeys {

  /** The defaults file describing these keys and the Localized Cache's, on the classpath in this module's jar. */
  public static final String DEFAULT_RESOURCE = "mpcache-slave-default.xml";

  /** The address the slave's client RPC server binds to; port 0 picks a free port. */
  public static final String RPC_ADDRESS_KEY = "mpcache.slave.rpc-address";
  public static final String RPC_ADDRESS_DEFAULT = "0.0.0.0:50121";

  /** The host name the slave advertises to clients; empty means this host's canonical name. */
  public static final String HOSTNAME_KEY = "mpcache.slave.hostname";
  public static final String HOSTNAME_DEFAULT = "";

  /** The address of the DataNode beside this slave; empty matches DataNodes by host. */
  public static final String DATANODE_ADDRESS_KEY = "mpcache.slave.datanode.address";
  public static final String DATANODE_ADDRESS_DEFAULT = "";

  /** RPC handler threads serving clients. */
  public static final String RPC_HANDLER_COUNT_KEY = "mpcache.slave.rpc.handler.count";
  public static final int RPC_HANDLER_COUNT_DEFAULT = 16;

  /** The SSD bytes the slave may use: the node's total, or one value per cache dir. */
  public static final String CACHE_CAPACITY_KEY = "mpcache.slave.cache.capacity";
  public static final long CACHE_CAPACITY_DEFAULT = 10L * 1024 * 1024 * 1024;

  /** Bytes covered by one stored CRC32C checksum; also the alignment of cached reads. */
  public static final String CHECKSUM_CHUNK_BYTES_KEY = "mpcache.slave.checksum.chunk.bytes";
  public static final int CHECKSUM_CHUNK_BYTES_DEFAULT = 64 * 1024;

  /** Whether a fill waits for the NameNode to confirm the block is the named file's. */
  public static final String FILL_VERIFY_KEY = "mpcache.slave.fill.verify";
  public static final boolean FILL_VERIFY_DEFAULT = true;

  /** The rate at which a starting slave verifies the blocks it found; 0 skips it. */
  public static final String VERIFY_BYTES_PER_SEC_KEY = "mpcache.slave.verify.bytes.per.sec";
  public static final long VERIFY_BYTES_PER_SEC_DEFAULT = 32L * 1024 * 1024;

  /** The most bytes one read call returns to a client. */
  public static final String READ_MAX_BYTES_KEY = "mpcache.slave.read.max.bytes";
  public static final int READ_MAX_BYTES_DEFAULT = 4 * 1024 * 1024;

  /** The socket on which local readers are passed block descriptors; empty: off. */
  public static final String DOMAIN_SOCKET_PATH_KEY = "mpcache.slave.domain.socket.path";
  public static final String DOMAIN_SOCKET_PATH_DEFAULT = "";

  /** The most connections the descriptor server keeps open at once. */
  public static final String DOMAIN_SOCKET_MAX_CONNECTIONS_KEY =
      "mpcache.slave.domain.socket.max-connections";
  public static final int DOMAIN_SOCKET_MAX_CONNECTIONS_DEFAULT = 4_096;

  /** The address of the block stream server; empty: off, non-local hits use RPC. */
  public static final String STREAM_ADDRESS_KEY = "mpcache.slave.stream.address";
  public static final String STREAM_ADDRESS_DEFAULT = "0.0.0.0:0";

  /** The most connections the block stream server keeps open at once. */
  public static final String STREAM_MAX_CONNECTIONS_KEY = "mpcache.slave.stream.max-connections";
  public static final int STREAM_MAX_CONNECTIONS_DEFAULT = 4_096;

  /** How long a granted block stream may stay silent before it is closed. */
  public static final String STREAM_IDLE_TIMEOUT_MS_KEY = "mpcache.slave.stream.idle-timeout.ms";
  public static final long STREAM_IDLE_TIMEOUT_MS_DEFAULT = 60_000;

  /** Whether block stream connections have TCP keepalive on ({@code SO_KEEPALIVE}). */
  public static final String STREAM_KEEPALIVE_KEY = "mpcache.slave.stream.keepalive";
  public static final boolean STREAM_KEEPALIVE_DEFAULT = true;

  /** How many prefetch commands from the master a slave queues; more are dropped. */
  public static final String PREFETCH_QUEUE_KEY = "mpcache.slave.prefetch.queue";
  public static final int PREFETCH_QUEUE_DEFAULT = 10_000;

  /** How many fills for readers' misses a slave queues; more fail until it drains. */
  public static final String SLAVE_FILL_QUEUE_KEY = "mpcache.slave.fill.queue";
  public static final int SLAVE_FILL_QUEUE_DEFAULT = 1_000;

  /** The most bytes per second all fills read from HDFS together; 0: no limit. */
  public static final String FILL_BYTES_PER_SEC_KEY = "mpcache.slave.fill.bytes.per.sec";
  public static final long FILL_BYTES_PER_SEC_DEFAULT = 64L * 1024 * 1024;

  /** How long the misses on a file must have stopped before its fills start. */
  public static final String FILL_QUIET_MS_KEY = "mpcache.slave.fill.quiet.ms";
  public static final long FILL_QUIET_MS_DEFAULT = 1_000;

  /** The longest a reader's fill waits for the misses on its file to stop. */
  public static final String FILL_MAX_DELAY_MS_KEY = "mpcache.slave.fill.max-delay.ms";
  public static final long FILL_MAX_DELAY_MS_DEFAULT = 3_000;

  /** The SSD's foreground rate above which fills wait; 0: never. */
  public static final String FILL_YIELD_FOREGROUND_BYTES_PER_SEC_KEY =
      "mpcache.slave.fill.yield.foreground.bytes.per.sec";
  public static final long FILL_YIELD_FOREGROUND_BYTES_PER_SEC_DEFAULT = 1024 * 1024;

  /** The window, in milliseconds, over which the SSD's foreground rate is measured for fills. */
  public static final String FILL_YIELD_WINDOW_MS_KEY = "mpcache.slave.fill.yield.window.ms";
  public static final long FILL_YIELD_WINDOW_MS_DEFAULT = 1_000;

  /** The longest a fill waits for the SSD's foreground work to drop. */
  public static final String FILL_YIELD_MAX_DELAY_MS_KEY = "mpcache.slave.fill.yield.max-delay.ms";
  public static final long FILL_YIELD_MAX_DELAY_MS_DEFAULT = 10_000;

  /** Whether fills read the local DataNode's block files by path when allowed. */
  public static final String FILL_LOCAL_PATH_READ_KEY = "mpcache.slave.fill.local-path-read";
  public static final boolean FILL_LOCAL_PATH_READ_DEFAULT = true;

  /** How many datasets a slave keeps figures for; past it, the least recent goes. */
  public static final String DATASETS_MAX_KEY = "mpcache.slave.datasets.max";
  public static final int DATASETS_MAX_DEFAULT = 4_096;

  /** How many datasets' figures one heartbeat carries at most. */
  public static final String HEARTBEAT_DATASETS_MAX_KEY = "mpcache.slave.heartbeat.datasets.max";
  public static final int HEARTBEAT_DATASETS_MAX_DEFAULT = 256;

  /** The faults an SSD dir may have within the window and stay in service. */
  public static final String VOLUME_FAULTS_TOLERATED_KEY = "mpcache.slave.volume.faults.tolerated";
  public static final int VOLUME_FAULTS_TOLERATED_DEFAULT = 4;

  /** How far back an SSD directory's faults count toward taking it out of service. */
  public static final String VOLUME_FAULTS_WINDOW_MS_KEY = "mpcache.slave.volume.faults.window.ms";
  public static final long VOLUME_FAULTS_WINDOW_MS_DEFAULT = 60_000;

  /** A read of an SSD dir slower than this is a fault of the dir; 0: none is. */
  public static final String VOLUME_SLOW_READ_MS_KEY = "mpcache.slave.volume.slow-read.ms";
  public static final long VOLUME_SLOW_READ_MS_DEFAULT = 2_000;

  /** The keytab the slave logs in from under Kerberos. No default. */
  public static final String KEYTAB_FILE_KEY = "mpcache.slave.keytab.file";

  /** Who may call the client-to-slave protocol (lookups, reads, fills). */
  public static final String CLIENT_SLAVE_ACL_KEY = "security.mpcache.client-slave.protocol.acl";
  public static final String CLIENT_SLAVE_ACL_DEFAULT = "*";

  /** Who may call the Localized protocol (tasks and the NodeManager asking for SSD room). */
  public static final String LOCALIZED_ACL_KEY = "security.mpcache.localized.protocol.acl";
  public static final String LOCALIZED_ACL_DEFAULT = "*";

  private SlaveConfigKeys() {
  }
}
