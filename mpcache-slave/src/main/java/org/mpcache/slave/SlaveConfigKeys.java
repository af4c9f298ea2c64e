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

  /**
   * The data transfer address (host:port) of the DataNode this slave sits beside. Clients send a
   * block's reads to the slave beside a DataNode holding a replica. Empty: match DataNodes by host.
   */
  public static final String DATANODE_ADDRESS_KEY = "mpcache.slave.datanode.address";
  public static final String DATANODE_ADDRESS_DEFAULT = "";

  /** RPC handler threads serving clients. */
  public static final String RPC_HANDLER_COUNT_KEY = "mpcache.slave.rpc.handler.count";
  public static final int RPC_HANDLER_COUNT_DEFAULT = 16;

  /**
   * The SSD bytes the slave may use: one value is the node's total, shared equally by the
   * directories; a comma-separated list gives each directory of
   * {@link MpCacheConfigKeys#SLAVE_CACHE_DIRS_KEY} its own.
   */
  public static final String CACHE_CAPACITY_KEY = "mpcache.slave.cache.capacity";
  public static final long CACHE_CAPACITY_DEFAULT = 10L * 1024 * 1024 * 1024;

  /** Bytes covered by one stored CRC32C checksum; also the alignment of cached reads. */
  public static final String CHECKSUM_CHUNK_BYTES_KEY = "mpcache.slave.checksum.chunk.bytes";
  public static final int CHECKSUM_CHUNK_BYTES_DEFAULT = 64 * 1024;

  /**
   * Whether a fill is admitted only once the NameNode says the block is the file's the lookup or
   * prefetch named (so that the master judges the block by the file it lies in). Off, the file is
   * taken on the client's word: a client allowed to read a block can have it counted for another
   * dataset. The bytes are the block's either way: the slave reads them from HDFS itself.
   */
  public static final String FILL_VERIFY_KEY = "mpcache.slave.fill.verify";
  public static final boolean FILL_VERIFY_DEFAULT = true;

  /**
   * The average rate, in bytes per second, at which a starting slave reads back the blocks it
   * found on its SSD to verify their full CRCs (in the background, while it serves); 0 skips the
   * pass (clients still verify every chunk they read).
   */
  public static final String VERIFY_BYTES_PER_SEC_KEY = "mpcache.slave.verify.bytes.per.sec";
  public static final long VERIFY_BYTES_PER_SEC_DEFAULT = 32L * 1024 * 1024;

  /** The most bytes one read call returns to a client. */
  public static final String READ_MAX_BYTES_KEY = "mpcache.slave.read.max.bytes";
  public static final int READ_MAX_BYTES_DEFAULT = 4 * 1024 * 1024;

  /**
   * The Unix domain socket on which the slave hands readers on its host open descriptors of
   * cached block files (local hits without the RPC data path). Empty: off, and every hit is read
   * through RPC. Its directory must exist and be writable by its owner only (the slave's user or
   * root), and each ancestor be owned by that user or root and writable by no one else unless
   * it has the sticky bit, e.g. {@code /var/run/mpcache/slave.socket}; at most about 100
   * characters.
   */
  public static final String DOMAIN_SOCKET_PATH_KEY = "mpcache.slave.domain.socket.path";
  public static final String DOMAIN_SOCKET_PATH_DEFAULT = "";

  /**
   * The most connections the slave's descriptor server ({@link #DOMAIN_SOCKET_PATH_KEY}) keeps
   * open at once; a reader holding a descriptor holds one. One more is answered with an error
   * naming this key and closed, and its reader reads the block through RPC.
   * At most 16 past it wait for that refusal at once; further ones wait in the kernel's accept
   * queue, holding none of the slave's descriptors.
   */
  public static final String DOMAIN_SOCKET_MAX_CONNECTIONS_KEY =
      "mpcache.slave.domain.socket.max-connections";
  public static final int DOMAIN_SOCKET_MAX_CONNECTIONS_DEFAULT = 4_096;

  /**
   * The address the slave's block stream server binds to (remote hits and the RPC fallback read
   * cached blocks through it, sent with {@code transferTo}); port 0 picks a free port, which the
   * slave registers with the master as it does its RPC port. Empty: off, and every non-local hit
   * is read through RPC. Not served under Kerberos or with {@code hadoop.rpc.protection} above
   * {@code authentication}: the stream is not protected (docs/security.md).
   */
  public static final String STREAM_ADDRESS_KEY = "mpcache.slave.stream.address";
  public static final String STREAM_ADDRESS_DEFAULT = "0.0.0.0:0";

  /**
   * The most connections the slave's block stream server ({@link #STREAM_ADDRESS_KEY}) keeps open
   * at once, as {@code dfs.datanode.max.transfer.threads} caps a DataNode's: each holds a socket
   * and, once granted, a block file. One more is answered with an error naming this key and
   * closed, and its reader reads the block through RPC.
   * At most 16 past it wait for that refusal at once; further ones wait in the kernel's accept
   * queue, holding none of the slave's descriptors.
   */
  public static final String STREAM_MAX_CONNECTIONS_KEY = "mpcache.slave.stream.max-connections";
  public static final int STREAM_MAX_CONNECTIONS_DEFAULT = 4_096;

  /**
   * How long, in milliseconds, a granted block stream may stay silent (no request from its
   * reader, no byte of an answer consumed) before the slave closes it; an evicted block's space,
   * which the stream holds, is then released. A reader whose host vanished releases it so.
   */
  public static final String STREAM_IDLE_TIMEOUT_MS_KEY = "mpcache.slave.stream.idle-timeout.ms";
  public static final long STREAM_IDLE_TIMEOUT_MS_DEFAULT = 60_000;

  /**
   * Whether the block stream server's connections have TCP keepalive on ({@code SO_KEEPALIVE}),
   * as Hadoop's RPC server's have: the kernel probes a connection that has gone quiet, and one
   * whose reader's host vanished, or that a firewall or NAT between them dropped, fails and is
   * closed once the probes go unanswered (after the kernel's {@code net.ipv4.tcp_keepalive_*}
   * settings: two hours and some minutes by default, so a granted stream's idle timeout,
   * {@link #STREAM_IDLE_TIMEOUT_MS_KEY}, comes first unless it is longer).
   */
  public static final String STREAM_KEEPALIVE_KEY = "mpcache.slave.stream.keepalive";
  public static final boolean STREAM_KEEPALIVE_DEFAULT = true;

  /** How many prefetch commands from the master a slave queues; more are dropped. */
  public static final String PREFETCH_QUEUE_KEY = "mpcache.slave.prefetch.queue";
  public static final int PREFETCH_QUEUE_DEFAULT = 10_000;

  /**
   * How many fills of missed blocks a slave queues to read from HDFS itself for readers (each
   * missed block a reader's lookup names the file of); more are dropped and counted as failed
   * until the queue drains.
   */
  public static final String SLAVE_FILL_QUEUE_KEY = "mpcache.slave.fill.queue";
  public static final int SLAVE_FILL_QUEUE_DEFAULT = 1_000;

  /**
   * The most bytes per second a slave reads from HDFS to fill its cache, its fills for readers
   * and the master's prefetches together; 0 for no limit. A fill re-reads a block a reader has
   * just read (from the DataNode's page cache, as a rule), and at full speed it would take as
   * much CPU as the reader: the limit keeps that share bounded, so a miss costs the node's tasks
   * little, at the price of a cache that warms at most this fast.
   */
  public static final String FILL_BYTES_PER_SEC_KEY = "mpcache.slave.fill.bytes.per.sec";
  public static final long FILL_BYTES_PER_SEC_DEFAULT = 64L * 1024 * 1024;

  /**
   * How long, in milliseconds, the misses on a file must have stopped before the slave starts the
   * fills they asked for; 0 to start them at once. A fill run beside the reader that missed takes
   * CPU from it and from its DataNode; held off until the reader has moved on, it reads the
   * blocks from the page cache the reader warmed.
   */
  public static final String FILL_QUIET_MS_KEY = "mpcache.slave.fill.quiet.ms";
  public static final long FILL_QUIET_MS_DEFAULT = 1_000;

  /**
   * The longest, in milliseconds, a fill a reader's miss asked for waits for the misses on its
   * file to stop ({@link #FILL_QUIET_MS_KEY}): a reader whose misses never stop has its blocks
   * filled this long after it read them.
   */
  public static final String FILL_MAX_DELAY_MS_KEY = "mpcache.slave.fill.max-delay.ms";
  public static final long FILL_MAX_DELAY_MS_DEFAULT = 3_000;

  /**
   * The rate of foreground work on the SSD, in bytes per second over
   * {@link #FILL_YIELD_WINDOW_MS_KEY}, above which the slave's fills (for readers and for
   * prefetches) wait, before they start and between the chunks they copy: hits the slave serves
   * or hands out, and the room the Localized Cache grants tasks for spills, map outputs and
   * merges. 0 for fills never to wait. A fill is background work; the SSD's bandwidth is shared.
   */
  public static final String FILL_YIELD_FOREGROUND_BYTES_PER_SEC_KEY =
      "mpcache.slave.fill.yield.foreground.bytes.per.sec";
  public static final long FILL_YIELD_FOREGROUND_BYTES_PER_SEC_DEFAULT = 1024 * 1024;

  /** The window, in milliseconds, over which the SSD's foreground rate is measured for fills. */
  public static final String FILL_YIELD_WINDOW_MS_KEY = "mpcache.slave.fill.yield.window.ms";
  public static final long FILL_YIELD_WINDOW_MS_DEFAULT = 1_000;

  /**
   * The longest, in milliseconds from when a fill was asked for (its queueing and hold-off
   * included), that it waits for the SSD's foreground work to drop
   * ({@link #FILL_YIELD_FOREGROUND_BYTES_PER_SEC_KEY}): under constant load the cache still
   * fills, in time for the next job over the same data. 0 for fills never to wait.
   */
  public static final String FILL_YIELD_MAX_DELAY_MS_KEY = "mpcache.slave.fill.yield.max-delay.ms";
  public static final long FILL_YIELD_MAX_DELAY_MS_DEFAULT = 10_000;

  /**
   * Whether the slave's fills read the local DataNode's block files directly, by HDFS's
   * path-based short-circuit read, where that DataNode allows the slave's user
   * ({@code dfs.block.local-path-access.user} in the DataNode's configuration): a fill then costs
   * no DataNode thread and no copy through a socket beside the reader whose miss asked for it.
   * Where the DataNode refuses, fills read through it, after one WARN line. Where the slave's
   * HDFS configuration turns short-circuit reads on itself ({@code dfs.client.read.shortcircuit}),
   * fills use those and this key changes nothing.
   */
  public static final String FILL_LOCAL_PATH_READ_KEY = "mpcache.slave.fill.local-path-read";
  public static final boolean FILL_LOCAL_PATH_READ_DEFAULT = true;

  /**
   * How many datasets a slave keeps figures for (hits, misses, bytes, fills, evictions per
   * dataset); a new dataset past it makes the slave forget the least recently counted one.
   */
  public static final String DATASETS_MAX_KEY = "mpcache.slave.datasets.max";
  public static final int DATASETS_MAX_DEFAULT = 4_096;

  /**
   * How many datasets' figures one heartbeat carries at most; the other changed datasets follow
   * in the next heartbeats, least recently reported first.
   */
  public static final String HEARTBEAT_DATASETS_MAX_KEY = "mpcache.slave.heartbeat.datasets.max";
  public static final int HEARTBEAT_DATASETS_MAX_DEFAULT = 256;

  /**
   * The faults an SSD directory may have within {@link #VOLUME_FAULTS_WINDOW_MS_KEY} and stay in
   * service; the next one takes it out (no fills, no hits, its blocks dropped) until
   * {@code mpcache admin refresh} or a restart. A fault is an I/O error of a read, a write or a
   * fill there, or a read slower than {@link #VOLUME_SLOW_READ_MS_KEY}. 0: the first fault.
   */
  public static final String VOLUME_FAULTS_TOLERATED_KEY = "mpcache.slave.volume.faults.tolerated";
  public static final int VOLUME_FAULTS_TOLERATED_DEFAULT = 4;

  /** How far back an SSD directory's faults count toward taking it out of service. */
  public static final String VOLUME_FAULTS_WINDOW_MS_KEY = "mpcache.slave.volume.faults.window.ms";
  public static final long VOLUME_FAULTS_WINDOW_MS_DEFAULT = 60_000;

  /**
   * A read of an SSD directory that takes longer than this is a fault of the directory; 0 counts
   * no read as slow. The default is the client's default cache deadline
   * ({@code mpcache.client.cache.deadline.ms}): a slower read reaches its reader too late to use.
   * Reads are timed only while the process runs ({@link org.mpcache.slave.volume.RunningClock}).
   */
  public static final String VOLUME_SLOW_READ_MS_KEY = "mpcache.slave.volume.slow-read.ms";
  public static final long VOLUME_SLOW_READ_MS_DEFAULT = 2_000;

  /**
   * The keytab the slave logs in from as {@code mpcache.slave.kerberos.principal} when
   * {@code hadoop.security.authentication} is {@code kerberos}. No default.
   */
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
