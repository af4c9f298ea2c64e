package org.mpcache.hdfs;

import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.mpcache.common.ConfigChecks;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.common.stream.BlockStreamConnection;

/**
 * The client's settings ({@link ClientConfigKeys}), read and checked once when a
 * {@link MpCacheFileSystem} is initialized, as HDFS's {@code DfsClientConf} is: the streams,
 * and slave directory of that FileSystem read these fields instead of the configuration.
 * A bad value fails here, naming its key, the bound and the fix.
 *
 * <p>Immutable, hence thread-safe.
 */
final class ClientConf {
  final boolean fillEnabled;
  /** Bytes asked of a slave per cached read call or block-stream request. */
  final int readBytes;
  /** Whether local hits read the block file through a descriptor the slave passes. */
  final boolean descriptors;
  /**
   * Bytes read from the cache before local hits take descriptors; 0 when they do from the first
   * hit (always so when hits without a descriptor would go through RPC).
   */
  final long descriptorsAfterBytes;
  /**
   * Bytes a sequential reader of a slave's block stream asks for ahead; negative when hits that
   * have no descriptor read through the slave's RPC instead of its stream (streams off, or
   * Kerberos or RPC protection on, where the RPC protects block bytes and the stream would not).
   */
  final int streamReadahead;
  /** The least time between two lookups of a sequential reader of missed blocks. */
  final long missLookupIntervalNanos;
  /** The most blocks whose readers a stream's positional reads keep between reads. */
  final int positionalMaxHeldBlocks;
  /** The most block files read through descriptors kept open while no stream reads them. */
  final int descriptorCacheMaxIdle;
  /** How long a block file read through a descriptor stays open once no stream reads it. */
  final long descriptorCacheIdleNanos;
  /** The most time the cache may add to one block before the rest is read from HDFS. */
  final int deadlineMs;
  final long deadlineNanos;
  final InetSocketAddress masterAddress;
  /** The time limit of a call to the master. */
  final int rpcTimeoutMs;
  /** How long a faulty slave, or a failed cached-hosts call, is left alone. */
  final long retryMs;
  final long slavesRefreshMs;
  /** Whether block locations name the hosts whose slave holds each block. */
  final boolean cachedHosts;
  final long cachedHostsExpiryMs;
  /** The job this client reads for, as lookups name it; empty outside a job. */
  final String jobId;
  /** Names of directories whose files are read from HDFS without the cache. */
  final Set<String> bypassDirNames;

  /**
   * Reads the client's keys from {@code conf}.
   *
   * @throws IllegalArgumentException naming the key, when a value is out of its bounds
   */
  ClientConf(Configuration conf) {
    readBytes = (int) ConfigChecks.bytesBetween(conf, ClientConfigKeys.READ_BYTES_KEY,
        ClientConfigKeys.READ_BYTES_DEFAULT, 4096, ClientConfigKeys.MAX_CALL_BYTES);
    descriptors = conf.getBoolean(ClientConfigKeys.DOMAIN_SOCKET_ENABLED_KEY,
        ClientConfigKeys.DOMAIN_SOCKET_ENABLED_DEFAULT);
    boolean streams = conf.getBoolean(ClientConfigKeys.STREAM_ENABLED_KEY,
        ClientConfigKeys.STREAM_ENABLED_DEFAULT) && BlockStreamConnection.allowed(conf);
    int readahead = (int) ConfigChecks.bytesBetween(conf,
        ClientConfigKeys.STREAM_READAHEAD_BYTES_KEY,
        ClientConfigKeys.STREAM_READAHEAD_BYTES_DEFAULT, 0, ClientConfigKeys.MAX_CALL_BYTES);
    streamReadahead = streams ? readahead : -1;
    long after = ConfigChecks.bytesAtLeast(conf, ClientConfigKeys.DOMAIN_SOCKET_AFTER_BYTES_KEY,
        ClientConfigKeys.DOMAIN_SOCKET_AFTER_BYTES_DEFAULT, 0);
    descriptorsAfterBytes = streams ? after : 0;
    missLookupIntervalNanos = TimeUnit.MILLISECONDS.toNanos(ConfigChecks.longAtLeast(conf,
        ClientConfigKeys.MISS_LOOKUP_INTERVAL_MS_KEY,
        ClientConfigKeys.MISS_LOOKUP_INTERVAL_MS_DEFAULT, 0));
    positionalMaxHeldBlocks = ConfigChecks.intAtLeast(conf,
        ClientConfigKeys.POSITIONAL_MAX_HELD_BLOCKS_KEY,
        ClientConfigKeys.POSITIONAL_MAX_HELD_BLOCKS_DEFAULT, 1);
    descriptorCacheMaxIdle = ConfigChecks.intAtLeast(conf,
        ClientConfigKeys.DESCRIPTOR_CACHE_MAX_IDLE_KEY,
        ClientConfigKeys.DESCRIPTOR_CACHE_MAX_IDLE_DEFAULT, 0);
    descriptorCacheIdleNanos = TimeUnit.MILLISECONDS.toNanos(ConfigChecks.longAtLeast(conf,
        ClientConfigKeys.DESCRIPTOR_CACHE_IDLE_MS_KEY,
        ClientConfigKeys.DESCRIPTOR_CACHE_IDLE_MS_DEFAULT, 0));
    fillEnabled = conf.getBoolean(ClientConfigKeys.FILL_ENABLED_KEY,
        ClientConfigKeys.FILL_ENABLED_DEFAULT);
    deadlineMs = ConfigChecks.intAtLeast(conf, ClientConfigKeys.CACHE_DEADLINE_MS_KEY,
        ClientConfigKeys.CACHE_DEADLINE_MS_DEFAULT, 1);
    deadlineNanos = TimeUnit.MILLISECONDS.toNanos(deadlineMs);
    masterAddress = ConfigChecks.address(conf, MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY,
        MpCacheConfigKeys.MASTER_RPC_ADDRESS_DEFAULT);
    rpcTimeoutMs = ConfigChecks.intAtLeast(conf, MpCacheConfigKeys.RPC_TIMEOUT_MS_KEY,
        MpCacheConfigKeys.RPC_TIMEOUT_MS_DEFAULT, 1);
    retryMs = ConfigChecks.longAtLeast(conf, ClientConfigKeys.SLAVE_RETRY_MS_KEY,
        ClientConfigKeys.SLAVE_RETRY_MS_DEFAULT, 0);
    slavesRefreshMs = ConfigChecks.longAtLeast(conf, ClientConfigKeys.SLAVES_REFRESH_MS_KEY,
        ClientConfigKeys.SLAVES_REFRESH_MS_DEFAULT, 0);
    cachedHosts = conf.getBoolean(ClientConfigKeys.CACHED_HOSTS_ENABLED_KEY,
        ClientConfigKeys.CACHED_HOSTS_ENABLED_DEFAULT);
    cachedHostsExpiryMs = ConfigChecks.longAtLeast(conf,
        ClientConfigKeys.CACHED_HOSTS_EXPIRY_MS_KEY,
        ClientConfigKeys.CACHED_HOSTS_EXPIRY_MS_DEFAULT, 0);
    jobId = conf.get("mapreduce.job.id", "");
    bypassDirNames = Set.copyOf(Arrays.asList(conf.getTrimmedStrings(
        ClientConfigKeys.BYPASS_DIR_NAMES_KEY,
        ClientConfigKeys.BYPASS_DIR_NAMES_DEFAULT.split(","))));
    for (String name : bypassDirNames) {
      if (name.contains(Path.SEPARATOR)) {
        throw new IllegalArgumentException(ClientConfigKeys.BYPASS_DIR_NAMES_KEY + " has \""
            + name + "\": give directory names without a '/', e.g. "
            + ClientConfigKeys.BYPASS_DIR_NAMES_DEFAULT);
      }
    }
  }

  /** Whether {@code file} lies in a directory named in {@link #bypassDirNames}. */
  boolean bypasses(Path file) {
    if (bypassDirNames.isEmpty()) {
      return false;
    }
    for (Path p = file.getParent(); p != null; p = p.getParent()) {
      if (bypassDirNames.contains(p.getName())) {
        return true;
      }
    }
    return false;
  }
}
