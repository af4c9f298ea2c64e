package org.mpcache.hdfs;

/**
 * Configuration keys of the intercepting {@link MpCacheFileSystem}, set in core-site.xml or a
 * job's configuration, with their defaults. Every key is described in
 * {@value #DEFAULT_RESOURCE}.
 */
public final class ClientConfigKeys {

  /** The defaults file describing these keys, on the classpath in this module's jar. */
  public static final String DEFAULT_RESOURCE = "mpcache-client-default.xml";

  /** Whether reads go through the cache at all; false makes the FileSystem plain HDFS. */
  public static final String ENABLED_KEY = "mpcache.client.enabled";
  public static final boolean ENABLED_DEFAULT = true;

  /**
   * Whether the blocks a client misses get cached, however it reads them: the slave reads each
   * from HDFS itself.
   */
  public static final String FILL_ENABLED_KEY = "mpcache.client.fill.enabled";
  public static final boolean FILL_ENABLED_DEFAULT = true;

  /**
   * The most bytes {@link #READ_BYTES_KEY} may be: one RPC's payload, well under Hadoop's 128 MiB
   * {@code ipc.maximum.data.length}.
   */
  public static final int MAX_CALL_BYTES = 64 * 1024 * 1024;

  /** Bytes asked of the slave per cached read call, 4 KiB to {@link #MAX_CALL_BYTES}. */
  public static final String READ_BYTES_KEY = "mpcache.client.read.bytes";
  public static final int READ_BYTES_DEFAULT = 1024 * 1024;

  /**
   * Whether a hit on a slave of this host that offers descriptors
   * ({@code mpcache.slave.domain.socket.path}) reads the cached block file directly through a
   * descriptor the slave passes; false reads every hit through the slave's RPC.
   */
  public static final String DOMAIN_SOCKET_ENABLED_KEY = "mpcache.client.domain.socket.enabled";
  public static final boolean DOMAIN_SOCKET_ENABLED_DEFAULT = true;

  /**
   * Whether hits not read through a descriptor (a block cached on another host's slave, or a
   * local hit whose descriptor could not be had) read the block through the slave's block stream
   * ({@code mpcache.slave.stream.address}) when the slave offers one; false reads them through
   * the slave's {@code read} RPC. Never used under Kerberos or with {@code hadoop.rpc.protection}
   * above {@code authentication}, where the RPC protects the bytes and the stream would not.
   */
  public static final String STREAM_ENABLED_KEY = "mpcache.client.stream.enabled";
  public static final boolean STREAM_ENABLED_DEFAULT = true;

  /**
   * How many bytes a sequential reader of a block stream asks for ahead of what it reads, 0 to
   * {@link #MAX_CALL_BYTES}, in requests of {@link #READ_BYTES_KEY}: they travel while the reader
   * consumes the bytes it has. 0 asks for one request's bytes at a time.
   */
  public static final String STREAM_READAHEAD_BYTES_KEY = "mpcache.client.stream.readahead.bytes";
  public static final int STREAM_READAHEAD_BYTES_DEFAULT = 4 * 1024 * 1024;

  /**
   * The least time, in milliseconds, between two lookups of a sequential reader of missed blocks:
   * the blocks it enters sooner after its last lookup (or while that is still unanswered) are
   * looked up together by its next one, which goes out when it enters a block after the interval,
   * stops reading missed blocks in order, unbuffers or closes, with their read reports. Each
   * block's miss is still counted and filled and its read report still reaches the slave; a
   * reader slower than a block per interval still makes one lookup per block. Kept below the
   * slaves' {@code mpcache.slave.fill.quiet.ms}, the slave still sees the reader's misses as
   * recent and holds its fills off. 0 looks every block up as the reader enters it.
   */
  public static final String MISS_LOOKUP_INTERVAL_MS_KEY =
      "mpcache.client.miss.lookup.interval.ms";
  public static final long MISS_LOOKUP_INTERVAL_MS_DEFAULT = 200;

  /**
   * The most blocks of one stream whose cache readers its positional reads keep between reads,
   * at least 1: a reader found for a block serves the block's later positional reads without
   * another lookup, and holds what the transport holds (a block file's descriptor and the
   * slave's connection and space for it, or a block stream). Past the bound the block read
   * least recently lets its reader go and is looked up again when next read. Whatever the
   * bound, a stream's readers are let go when it closes or unbuffers, when it is dropped
   * unclosed and collected, and when its FileSystem closes.
   */
  public static final String POSITIONAL_MAX_HELD_BLOCKS_KEY =
      "mpcache.client.positional.max-held-blocks";
  public static final int POSITIONAL_MAX_HELD_BLOCKS_DEFAULT = 8;

  /**
   * The most block files read through descriptors that one FileSystem keeps open while no stream
   * reads them, at least 0: a block another stream (or the same one, back again) opens while its
   * file is kept costs no exchange with the slave's descriptor server. Past the bound the file idle
   * longest is closed. 0 closes each file when its last reader lets it go. A kept file holds the
   * slave's lease on its block, and with it the block's space once the slave evicts it.
   */
  public static final String DESCRIPTOR_CACHE_MAX_IDLE_KEY =
      "mpcache.client.descriptor.cache.max-idle";
  public static final int DESCRIPTOR_CACHE_MAX_IDLE_DEFAULT = 256;

  /**
   * How long, in milliseconds, a block file read through a descriptor stays open after its last
   * reader let it go, at least 0: an evicted block's space stays held on the slave at most this
   * long after its readers are done. A kept file is never handed out again once a lookup of its
   * block misses, a read through it fails, or the slave closes its lease.
   */
  public static final String DESCRIPTOR_CACHE_IDLE_MS_KEY =
      "mpcache.client.descriptor.cache.idle.ms";
  public static final long DESCRIPTOR_CACHE_IDLE_MS_DEFAULT = 10_000;

  /** How long the client keeps the master's list of live slaves before asking again. */
  public static final String SLAVES_REFRESH_MS_KEY = "mpcache.client.slaves.refresh.ms";
  public static final long SLAVES_REFRESH_MS_DEFAULT = 10_000;

  /**
   * After a fault of a slave itself ({@link FallbackCause#slaveFault}), how long the client leaves
   * that slave alone (an error the slave answers with moves only its block to HDFS); after a failed
   * cached-hosts call, how long it places tasks by HDFS's locations without asking the master.
   */
  public static final String SLAVE_RETRY_MS_KEY = "mpcache.client.slave.retry.ms";
  public static final long SLAVE_RETRY_MS_DEFAULT = 30_000;

  /**
   * The most time, in milliseconds, the cache may add to one block before the rest of the block
   * is read from HDFS: it bounds each call to a slave (a slave that does not answer in time is
   * left alone for {@link #SLAVE_RETRY_MS_KEY}), the time a block's cache calls may take together,
   * and how long the first reader of a client waits for the master's list of slaves.
   */
  public static final String CACHE_DEADLINE_MS_KEY = "mpcache.client.cache.deadline.ms";
  public static final int CACHE_DEADLINE_MS_DEFAULT = 2_000;

  /**
   * Whether the FileSystem names the hosts whose slave holds a block as the block's hosts and
   * cached hosts ({@code BlockLocation.getHosts()}, which MapReduce places map tasks by, and
   * {@code getCachedHosts()}); false leaves HDFS's own locations.
   */
  public static final String CACHED_HOSTS_ENABLED_KEY = "mpcache.client.cached.hosts.enabled";
  public static final boolean CACHED_HOSTS_ENABLED_DEFAULT = true;

  /** How long the client uses the master's answer of which hosts cache a block. */
  public static final String CACHED_HOSTS_EXPIRY_MS_KEY = "mpcache.client.cached.hosts.expiry.ms";
  public static final long CACHED_HOSTS_EXPIRY_MS_DEFAULT = 5_000;

  private ClientConfigKeys() {
  }
}
