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

  /** Whether the blocks a client misses get cached, however it reads them. */
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

  /** Whether local hits read the block file through a passed descriptor. */
  public static final String DOMAIN_SOCKET_ENABLED_KEY = "mpcache.client.domain.socket.enabled";
  public static final boolean DOMAIN_SOCKET_ENABLED_DEFAULT = true;

  /** Bytes a FileSystem reads from the cache before its local hits take descriptors. */
  public static final String DOMAIN_SOCKET_AFTER_BYTES_KEY =
      "mpcache.client.domain.socket.after.bytes";
  public static final long DOMAIN_SOCKET_AFTER_BYTES_DEFAULT = 256L * 1024 * 1024;

  /** Whether hits not read through a descriptor use the slave's block stream. */
  public static final String STREAM_ENABLED_KEY = "mpcache.client.stream.enabled";
  public static final boolean STREAM_ENABLED_DEFAULT = true;

  /** How many bytes a sequential block stream reader asks for ahead. */
  public static final String STREAM_READAHEAD_BYTES_KEY = "mpcache.client.stream.readahead.bytes";
  public static final int STREAM_READAHEAD_BYTES_DEFAULT = 4 * 1024 * 1024;

  /** The least time between two lookups of a sequential reader of misses. */
  public static final String MISS_LOOKUP_INTERVAL_MS_KEY =
      "mpcache.client.miss.lookup.interval.ms";
  public static final long MISS_LOOKUP_INTERVAL_MS_DEFAULT = 200;

  /** The most blocks whose readers a stream's positional reads keep. */
  public static final String POSITIONAL_MAX_HELD_BLOCKS_KEY =
      "mpcache.client.positional.max-held-blocks";
  public static final int POSITIONAL_MAX_HELD_BLOCKS_DEFAULT = 8;

  /** The most idle descriptor-read block files one FileSystem keeps open. */
  public static final String DESCRIPTOR_CACHE_MAX_IDLE_KEY =
      "mpcache.client.descriptor.cache.max-idle";
  public static final int DESCRIPTOR_CACHE_MAX_IDLE_DEFAULT = 256;

  /** How long an idle descriptor-read block file stays open. */
  public static final String DESCRIPTOR_CACHE_IDLE_MS_KEY =
      "mpcache.client.descriptor.cache.idle.ms";
  public static final long DESCRIPTOR_CACHE_IDLE_MS_DEFAULT = 10_000;

  /** How long the client keeps the master's list of live slaves before asking again. */
  public static final String SLAVES_REFRESH_MS_KEY = "mpcache.client.slaves.refresh.ms";
  public static final long SLAVES_REFRESH_MS_DEFAULT = 10_000;

  /** How long the client leaves a faulty slave, or a failed master, alone. */
  public static final String SLAVE_RETRY_MS_KEY = "mpcache.client.slave.retry.ms";
  public static final long SLAVE_RETRY_MS_DEFAULT = 30_000;

  /** The most time the cache may add to one block before HDFS reads the rest. */
  public static final String CACHE_DEADLINE_MS_KEY = "mpcache.client.cache.deadline.ms";
  public static final int CACHE_DEADLINE_MS_DEFAULT = 2_000;

  /** Whether a block's hosts are those whose slave caches it. */
  public static final String CACHED_HOSTS_ENABLED_KEY = "mpcache.client.cached.hosts.enabled";
  public static final boolean CACHED_HOSTS_ENABLED_DEFAULT = true;

  /** How long the client uses the master's answer of which hosts cache a block. */
  public static final String CACHED_HOSTS_EXPIRY_MS_KEY = "mpcache.client.cached.hosts.expiry.ms";
  public static final long CACHED_HOSTS_EXPIRY_MS_DEFAULT = 5_000;

  /**
   * Names of directories whose files, at any depth, are read from HDFS without the cache: the
   * job staging directories every task reads once and no job reads again.
   */
  public static final String BYPASS_DIR_NAMES_KEY = "mpcache.client.bypass.dir-names";
  public static final String BYPASS_DIR_NAMES_DEFAULT = ".staging,.sparkStaging";

  private ClientConfigKeys() {
  }
}
