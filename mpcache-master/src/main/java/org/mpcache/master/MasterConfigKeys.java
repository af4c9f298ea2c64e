package org.mpcache.master;

/**
 * Configuration keys of the mpCache master, with their defaults. The master's RPC address itself is
 * {@link org.mpcache.common.MpCacheConfigKeys#MASTER_RPC_ADDRESS_KEY}, shared with every caller.
 * Every key is described in {@value #DEFAULT_RESOURCE}.
 */
public final class MasterConfigKeys {

  /** The defaults file describing these keys, on the classpath in this module's jar. */
  public static final String DEFAULT_RESOURCE = "mpcache-master-default.xml";

  /** The host the master's RPC server binds to; the port comes from the RPC address. */
  public static final String RPC_BIND_HOST_KEY = "mpcache.master.rpc-bind-host";
  public static final String RPC_BIND_HOST_DEFAULT = "0.0.0.0";

  /**
   * Where the master's web UI (status page, /jmx, /conf, /stacks, /logLevel) listens over HTTP,
   * when {@link #HTTP_POLICY_KEY} enables HTTP.
   */
  public static final String HTTP_ADDRESS_KEY = "mpcache.master.http-address";
  public static final String HTTP_ADDRESS_DEFAULT = "0.0.0.0:50130";

  /**
   * Where the master's web UI listens over HTTPS, when {@link #HTTP_POLICY_KEY} enables HTTPS; the
   * key store comes from the file {@code hadoop.ssl.server.conf} names ({@code ssl-server.xml}).
   */
  public static final String HTTPS_ADDRESS_KEY = "mpcache.master.https-address";
  public static final String HTTPS_ADDRESS_DEFAULT = "0.0.0.0:50131";

  /**
   * Which of HTTP and HTTPS the web UI serves: a {@link org.apache.hadoop.http.HttpConfig.Policy}
   * name, {@code HTTP_ONLY}, {@code HTTPS_ONLY} or {@code HTTP_AND_HTTPS}, as
   * {@code dfs.http.policy}.
   */
  public static final String HTTP_POLICY_KEY = "mpcache.master.http.policy";
  public static final String HTTP_POLICY_DEFAULT = "HTTP_ONLY";

  /**
   * Who administers mpCache: an ACL ({@code users groups}). Blank: the user the master runs as
   * and the HDFS superuser group ({@code dfs.permissions.superusergroup}). Only admins may call
   * the admin operations that change the cache ({@code evict}, {@code prefetch},
   * {@code decommission}, {@code refresh}); in the web UI, admins see dataset paths, and with
   * {@code hadoop.security.authorization} and {@code hadoop.security.instrumentation.requires.admin}
   * only they reach /jmx, /conf, /stacks and /logLevel. Reloadable, except for the web UI's pages.
   */
  public static final String ADMIN_ACL_KEY = "mpcache.admin.acl";
  public static final String ADMIN_ACL_DEFAULT = "";

  /**
   * Who besides the admins may call the read-only admin operations ({@code report},
   * {@code datasets}, {@code explain}) and see dataset paths in the web UI, which name every
   * user's input: an ACL ({@code users groups}, {@code *} for everyone). Blank: the admins only.
   * Reloadable.
   */
  public static final String ADMIN_READ_ACL_KEY = "mpcache.admin.read.acl";
  public static final String ADMIN_READ_ACL_DEFAULT = "";

  /** RPC handler threads of the master. */
  public static final String RPC_HANDLER_COUNT_KEY = "mpcache.master.rpc.handler.count";
  public static final int RPC_HANDLER_COUNT_DEFAULT = 16;

  /** The heartbeat interval the master asks slaves to keep. */
  public static final String HEARTBEAT_INTERVAL_MS_KEY = "mpcache.master.heartbeat.interval.ms";
  public static final long HEARTBEAT_INTERVAL_MS_DEFAULT = 3_000;

  /**
   * A slave that has not heartbeated for this long is declared dead and its blocks are forgotten.
   * Must be larger than the heartbeat interval.
   */
  public static final String SLAVE_EXPIRY_MS_KEY = "mpcache.master.slave.expiry.ms";
  public static final long SLAVE_EXPIRY_MS_DEFAULT = 30_000;

  /** The cache policy, by name (see docs/policy.md). */
  public static final String POLICY_KEY = "mpcache.master.policy";
  public static final String POLICY_DEFAULT = "mpcache";

  /** The Full bonus of the mpcache policy (Equation 2), added while a dataset is whole. */
  public static final String POLICY_FULL_BONUS_KEY = "mpcache.master.policy.full-bonus";
  public static final double POLICY_FULL_BONUS_DEFAULT = 0.001;

  /** How many dataset identities the mpcache policy's auxiliary cache remembers. */
  public static final String POLICY_AUXILIARY_CAPACITY_KEY =
      "mpcache.master.policy.auxiliary-capacity";
  public static final int POLICY_AUXILIARY_CAPACITY_DEFAULT = 1024;

  /**
   * The exponent {@code b} of the mpcache policy's {@code Fr/Size^b}, in its priority and its
   * admission test: 1 is the paper's rule; lower favours large, often-read datasets.
   */
  public static final String POLICY_SIZE_EXPONENT_KEY = "mpcache.master.policy.size-exponent";
  public static final double POLICY_SIZE_EXPONENT_DEFAULT = 1.0;

  /**
   * How many records of datasets with nothing cached the master keeps for {@code mpcache admin
   * datasets} and {@code explain} (least recently read dropped first). Reloadable.
   */
  public static final String STATUS_MAX_DATASETS_KEY = "mpcache.master.status.max-datasets";
  public static final int STATUS_MAX_DATASETS_DEFAULT = 10_000;

  /**
   * How many datasets the master's metrics list in {@code TopDatasets} (those with the most bytes
   * read, with their figures); 0 lists none. Their ids are input paths, shown to whoever may read
   * {@code /jmx}.
   */
  public static final String METRICS_TOP_DATASETS_KEY = "mpcache.master.metrics.top-datasets";
  public static final int METRICS_TOP_DATASETS_DEFAULT = 10;

  /**
   * A local file listing slaves to decommission, one slave id (host:port) or host per line;
   * {@code #} starts a comment. Read at start and by {@code mpcache admin refresh}. Reloadable.
   */
  public static final String SLAVES_EXCLUDE_FILE_KEY = "mpcache.master.slaves.exclude.file";
  public static final String SLAVES_EXCLUDE_FILE_DEFAULT = "";

  /**
   * The file where the Dynamic Space Manager keeps its history of localized space used per job type
   * and input size, so that it survives a master restart. Empty: kept in memory only.
   */
  public static final String SPACE_HISTORY_FILE_KEY = "mpcache.master.space.history.file";
  public static final String SPACE_HISTORY_FILE_DEFAULT = "";

  /**
   * A local directory where the master checkpoints what slaves cannot tell it after a restart
   * (the policy's per-dataset state, decommission flags, queued prefetches) and reloads it at
   * start; with {@code mpcache.master.space.history.file} unset it keeps the space history too.
   * By default under {@code hadoop.tmp.dir}, where Hadoop's daemons keep their data unless told
   * otherwise. {@link #STATE_DIR_NONE}: nothing is checkpointed, and a restarted master relearns
   * it (a site file cannot carry an empty value: Hadoop drops it and keeps the default).
   */
  public static final String STATE_DIR_KEY = "mpcache.master.state.dir";
  public static final String STATE_DIR_DEFAULT = "${hadoop.tmp.dir}/mpcache/master-state";
  /** The value of {@link #STATE_DIR_KEY} that turns checkpoints off. */
  public static final String STATE_DIR_NONE = "none";

  /** How often the master checkpoints its state directory (and once more when it stops). */
  public static final String STATE_CHECKPOINT_INTERVAL_MS_KEY =
      "mpcache.master.state.checkpoint.interval.ms";
  public static final long STATE_CHECKPOINT_INTERVAL_MS_DEFAULT = 60_000;

  /**
   * The largest checkpoint the master writes or reads, in bytes: a larger state is not
   * checkpointed (the previous checkpoint stays, and the failure is logged and counted).
   */
  public static final String STATE_MAX_BYTES_KEY = "mpcache.master.state.max-bytes";
  public static final long STATE_MAX_BYTES_DEFAULT = 64L << 20;

  /**
   * The share of a slave's SSD the Dynamic Space Manager predicts as Localized Cache for a job type
   * it has no history of, in [0, 1].
   */
  public static final String SPACE_DEFAULT_LOCALIZED_FRACTION_KEY =
      "mpcache.master.space.default.localized.fraction";
  public static final double SPACE_DEFAULT_LOCALIZED_FRACTION_DEFAULT = 0.2;

  /**
   * The keytab the master logs in from as {@code mpcache.master.kerberos.principal} when
   * {@code hadoop.security.authentication} is {@code kerberos}. No default.
   */
  public static final String KEYTAB_FILE_KEY = "mpcache.master.keytab.file";

  /**
   * Users (short names, comma-separated) who may register slaves besides the slave service
   * principal ({@code mpcache.slave.kerberos.principal}, {@code _HOST} standing for the host the
   * slave claims); {@code *} admits every user. Empty: with Kerberos, the slave principal only;
   * without, the master's own user.
   */
  public static final String SLAVE_USERS_KEY = "mpcache.master.slave.users";
  public static final String SLAVE_USERS_DEFAULT = "";

  /**
   * Whether a registering slave's host, and the host of the DataNode it claims to sit beside, must
   * resolve to the address its call comes from (as {@code
   * dfs.namenode.datanode.registration.ip-hostname-check} on the NameNode). Turn it off only when
   * slaves reach the master through NAT or from another interface than the one they advertise.
   */
  public static final String SLAVE_IP_CHECK_KEY =
      "mpcache.master.slave.registration.ip-hostname-check";
  public static final boolean SLAVE_IP_CHECK_DEFAULT = true;

  /** Who may call the slave-to-master protocol (registration, heartbeats, reports). */
  public static final String SLAVE_MASTER_ACL_KEY = "security.mpcache.slave-master.protocol.acl";
  public static final String SLAVE_MASTER_ACL_DEFAULT = "*";

  /** Who may call the client-to-master protocol (the live slaves). */
  public static final String CLIENT_MASTER_ACL_KEY =
      "security.mpcache.client-master.protocol.acl";
  public static final String CLIENT_MASTER_ACL_DEFAULT = "*";

  /** Who may call the admin protocol (mpcache admin). */
  public static final String ADMIN_PROTOCOL_ACL_KEY = "security.mpcache.admin.protocol.acl";
  public static final String ADMIN_PROTOCOL_ACL_DEFAULT = "*";

  /**
   * The most files one {@code prefetch} may cover; the listing stops and the request is refused
   * at the next one, so a prefetch of {@code /} never lists the namespace into memory.
   */
  public static final String PREFETCH_MAX_FILES_KEY = "mpcache.master.prefetch.max-files";
  public static final int PREFETCH_MAX_FILES_DEFAULT = 100_000;

  /**
   * The most prefetch commands (blocks) queued on the master for slaves to take with their
   * heartbeats; a prefetch that would queue more is refused whole.
   */
  public static final String PREFETCH_QUEUE_MAX_BLOCKS_KEY =
      "mpcache.master.prefetch.queue.max-blocks";
  public static final int PREFETCH_QUEUE_MAX_BLOCKS_DEFAULT = 100_000;

  /**
   * The most blocks adopted at slaves' registrations that one pass checks against the NameNode
   * (one block-list call per file the blocks were recorded with).
   */
  public static final String ADOPTION_CHECK_BATCH_BLOCKS_KEY =
      "mpcache.master.adoption.check.batch-blocks";
  public static final int ADOPTION_CHECK_BATCH_BLOCKS_DEFAULT = 10_000;

  /** How long adopted blocks wait to be checked again when the NameNode could not answer. */
  public static final String ADOPTION_CHECK_RETRY_MS_KEY = "mpcache.master.adoption.check.retry.ms";
  public static final long ADOPTION_CHECK_RETRY_MS_DEFAULT = 60_000;

  /**
   * Path globs (Hadoop GlobPattern, comma-separated) of the input paths that may be cached; empty:
   * every path. Reloadable.
   */
  public static final String ADMISSION_INCLUDE_KEY = "mpcache.master.admission.include";
  public static final String ADMISSION_INCLUDE_DEFAULT = "";

  /** Path globs of the input paths never cached; they win over the include globs. Reloadable. */
  public static final String ADMISSION_EXCLUDE_KEY = "mpcache.master.admission.exclude";
  public static final String ADMISSION_EXCLUDE_DEFAULT = "";

  /**
   * The SSD write budget, bytes per hour per slave (k, m, g, t suffixes); 0: none. While the
   * slaves' writes are over it (a leaky bucket's backlog above an hour of the budget and above
   * the slaves' Input Cache capacity), a dataset
   * is admitted only when it was read before within the hour (the policies lru, lfu and
   * mpcache). Read at start.
   */
  public static final String ADMISSION_WRITE_BUDGET_KEY = "mpcache.master.admission.write.budget";
  public static final long ADMISSION_WRITE_BUDGET_DEFAULT = 0;

  private MasterConfigKeys() {
  }
}
