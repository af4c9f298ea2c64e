package org.mpcache.hdfs;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.HdfsBlockLocation;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathFilter;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.OpenedBlockList;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsLocatedFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.util.Time;
import org.mpcache.common.BlockKey;
import org.mpcache.common.ConfigChecks;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.common.stream.BlockStreamConnection;

/**
 * The drop-in {@code hdfs://} FileSystem that reads through mpCache: set
 * {@code fs.hdfs.impl=org.mpcache.hdfs.MpCacheFileSystem} in core-site.xml and unmodified jobs
 * read their cached input blocks from the slaves' SSDs, and their map tasks are placed beside
 * those blocks: the block locations it lists name the hosts whose slave holds each block as
 * the block's hosts and cached hosts. Everything else is plain {@link DistributedFileSystem};
 * files HDFS encrypts, erasure-codes or is still writing the last block of are read (or partly
 * read) from HDFS only, and HDFS's permission checks happen at open exactly as without the cache.
 *
 * <p>Thread-safe, like {@link DistributedFileSystem}.
 */
public class MpCacheFileSystem extends DistributedFileSystem {
  /**
   * Threads making the lookups ahead of a client's sequential readers: one task per block,
   * short; a reader whose lookup ahead has not started looks its block up itself.
   */
  private static final int LOOK_AHEAD_THREADS = 4;

  private boolean enabled;
  private boolean fillEnabled;
  private int fillWriteBytes;
  private long fillQueueBytes;
  private int readBytes;
  private boolean descriptors;
  /** Bytes a block stream reads ahead; negative when hits do not use streams. */
  private int streamReadahead;
  /** The least time between two lookups of a sequential reader of missed blocks. */
  private long missLookupIntervalMs;
  private int deadlineMs;
  private int fillThreads;
  private SlaveDirectory directory;
  private BackgroundCalls senders;
  private BackgroundCalls lookAhead;
  private boolean writeThrough;
  private DatasetResolver datasets;
  /** Null when cached hosts are off (or the cache is). */
  private CachedHosts cachedHosts;

  @Override
  public void initialize(URI uri, Configuration conf) throws IOException {
    enabled = conf.getBoolean(ClientConfigKeys.ENABLED_KEY, ClientConfigKeys.ENABLED_DEFAULT);
    if (enabled) {
      // Checked before HDFS is touched: a bad value fails here, not as a cast gone negative.
      fillWriteBytes = (int) ConfigChecks.bytesBetween(conf,
          ClientConfigKeys.FILL_WRITE_BYTES_KEY, ClientConfigKeys.FILL_WRITE_BYTES_DEFAULT, 4096,
          ClientConfigKeys.MAX_CALL_BYTES);
      readBytes = (int) ConfigChecks.bytesBetween(conf, ClientConfigKeys.READ_BYTES_KEY,
          ClientConfigKeys.READ_BYTES_DEFAULT, 4096, ClientConfigKeys.MAX_CALL_BYTES);
      descriptors = conf.getBoolean(ClientConfigKeys.DOMAIN_SOCKET_ENABLED_KEY,
          ClientConfigKeys.DOMAIN_SOCKET_ENABLED_DEFAULT);
      streamReadahead = (int) ConfigChecks.bytesBetween(conf,
          ClientConfigKeys.STREAM_READAHEAD_BYTES_KEY,
          ClientConfigKeys.STREAM_READAHEAD_BYTES_DEFAULT, 0, ClientConfigKeys.MAX_CALL_BYTES);
      if (!conf.getBoolean(ClientConfigKeys.STREAM_ENABLED_KEY,
          ClientConfigKeys.STREAM_ENABLED_DEFAULT) || !BlockStreamConnection.allowed(conf)) {
        // Under Kerberos or RPC protection the RPC protects block bytes; the stream would not.
        streamReadahead = -1;
      }
      missLookupIntervalMs = ConfigChecks.longAtLeast(conf,
          ClientConfigKeys.MISS_LOOKUP_INTERVAL_MS_KEY,
          ClientConfigKeys.MISS_LOOKUP_INTERVAL_MS_DEFAULT, 0);
      fillQueueBytes = ConfigChecks.bytesBetween(conf, ClientConfigKeys.FILL_QUEUE_BYTES_KEY,
          ClientConfigKeys.FILL_QUEUE_BYTES_DEFAULT, 4096, ClientConfigKeys.MAX_FILL_QUEUE_BYTES);
      if (fillQueueBytes < fillWriteBytes) {
        throw new IllegalArgumentException("Invalid size " + fillQueueBytes + " for "
            + ClientConfigKeys.FILL_QUEUE_BYTES_KEY + ": it must be at least "
            + ClientConfigKeys.FILL_WRITE_BYTES_KEY + " (" + fillWriteBytes + "), or no"
            + " write-through could start. Reconfigure " + ClientConfigKeys.FILL_QUEUE_BYTES_KEY
            + ".");
      }
      fillThreads = ConfigChecks.intAtLeast(conf, ClientConfigKeys.FILL_THREADS_KEY,
          ClientConfigKeys.FILL_THREADS_DEFAULT, 1);
      if (fillThreads > ClientConfigKeys.MAX_FILL_THREADS) {
        throw new IllegalArgumentException("Invalid value " + fillThreads + " for "
            + ClientConfigKeys.FILL_THREADS_KEY + ": it must be at most "
            + ClientConfigKeys.MAX_FILL_THREADS + ". Reconfigure "
            + ClientConfigKeys.FILL_THREADS_KEY + ".");
      }
    }
    if (enabled && conf.get(HdfsClientConfigKeys.Read.PREFETCH_SIZE_KEY) == null) {
      // Every block's location at the open, in the one NameNode call HDFS makes there.
      conf = new Configuration(conf);
      conf.setLong(HdfsClientConfigKeys.Read.PREFETCH_SIZE_KEY, Long.MAX_VALUE);
    }
    super.initialize(uri, conf);
    if (!enabled) {
      return;
    }
    fillEnabled = conf.getBoolean(ClientConfigKeys.FILL_ENABLED_KEY,
        ClientConfigKeys.FILL_ENABLED_DEFAULT);
    writeThrough = conf.getBoolean(ClientConfigKeys.FILL_WRITE_THROUGH_KEY,
        ClientConfigKeys.FILL_WRITE_THROUGH_DEFAULT);
    deadlineMs = ConfigChecks.intAtLeast(conf, ClientConfigKeys.CACHE_DEADLINE_MS_KEY,
        ClientConfigKeys.CACHE_DEADLINE_MS_DEFAULT, 1);
    InetSocketAddress masterAddress = ConfigChecks.address(conf,
        MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY, MpCacheConfigKeys.MASTER_RPC_ADDRESS_DEFAULT);
    int rpcTimeoutMs = ConfigChecks.intAtLeast(conf, MpCacheConfigKeys.RPC_TIMEOUT_MS_KEY,
        MpCacheConfigKeys.RPC_TIMEOUT_MS_DEFAULT, 1);
    long retryMs = ConfigChecks.longAtLeast(conf, ClientConfigKeys.SLAVE_RETRY_MS_KEY,
        ClientConfigKeys.SLAVE_RETRY_MS_DEFAULT, 0);
    directory = new SlaveDirectory(conf, masterAddress, rpcTimeoutMs, deadlineMs,
        ConfigChecks.longAtLeast(conf, ClientConfigKeys.SLAVES_REFRESH_MS_KEY,
            ClientConfigKeys.SLAVES_REFRESH_MS_DEFAULT, 0),
        retryMs, Time::monotonicNow);
    if (conf.getBoolean(ClientConfigKeys.CACHED_HOSTS_ENABLED_KEY,
        ClientConfigKeys.CACHED_HOSTS_ENABLED_DEFAULT)) {
      cachedHosts = new CachedHosts(conf, masterAddress,
          Math.min(rpcTimeoutMs, deadlineMs),
          ConfigChecks.longAtLeast(conf, ClientConfigKeys.CACHED_HOSTS_EXPIRY_MS_KEY,
              ClientConfigKeys.CACHED_HOSTS_EXPIRY_MS_DEFAULT, 0), retryMs, Time::monotonicNow);
    }
    senders = new BackgroundCalls("mpcache-client-fill", fillThreads, deadlineMs);
    lookAhead = new BackgroundCalls("mpcache-client-ahead", LOOK_AHEAD_THREADS, deadlineMs);
    datasets = new DatasetResolver(this, conf);
    ClientMetrics.registerOnce();
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    FSDataInputStream in = super.open(f, bufferSize);
    if (!enabled || !(in.getWrappedStream() instanceof DFSInputStream)) {
      return in;
    }
    DFSInputStream dfsIn = (DFSInputStream) in.getWrappedStream();
    // The blocks the stream's own open fetched: those it reads, whatever the path names since.
    LocatedBlocks located = OpenedBlockList.of(dfsIn);
    if (located == null || located.getLocatedBlocks().isEmpty()
        || located.getErasureCodingPolicy() != null) {
      return in;
    }
    List<LocatedBlock> blocks = located.getLocatedBlocks();
    LocatedBlock last = blocks.get(blocks.size() - 1);
    boolean listsAll = last.getStartOffset() + last.getBlockSize() >= located.getFileLength();
    int cacheable = listsAll && located.isUnderConstruction() ? blocks.size() - 1
        : blocks.size();
    CachingInputStream.Context ctx = new CachingInputStream.Context(directory, senders,
        lookAhead, datasets.resolve(makeQualified(f), Math.max(1, blocks.size())),
        getConf().get("mapreduce.job.id", ""), fillEnabled, writeThrough, fillWriteBytes,
        fillQueueBytes, readBytes, deadlineMs, statistics, descriptors, streamReadahead,
        missLookupIntervalMs);
    return new FSDataInputStream(new CachingInputStream(dfsIn, makeQualified(f).toString(),
        blocks, cacheable, ctx));
  }

  /**
   * HDFS's locations, a cached block's naming the hosts whose slave holds it as its hosts and
   * cached hosts ({@link CachedHosts}; never failing for want of them).
   * {@link #getFileBlockLocations(FileStatus, long, long)} comes here.
   */
  @Override
  public BlockLocation[] getFileBlockLocations(Path p, long start, long len) throws IOException {
    BlockLocation[] locations = super.getFileBlockLocations(p, start, len);
    if (cachedHosts != null && locations != null) {
      List<LocatedBlock> blocks = new ArrayList<>(locations.length);
      for (BlockLocation l : locations) {
        blocks.add(l instanceof HdfsBlockLocation ? ((HdfsBlockLocation) l).getLocatedBlock()
            : null);
      }
      cachedHosts.addTo(locations, blocks);
    }
    return locations;
  }

  /**
   * HDFS's listing, each file's block locations with their slaves' hosts as
   * {@link #getFileBlockLocations(Path, long, long)} gives them: what
   * {@code FileInputFormat.getSplits} places map tasks by. One request to the master per file, as
   * the caller takes it from the iterator.
   */
  @Override
  protected RemoteIterator<LocatedFileStatus> listLocatedStatus(Path p, PathFilter filter)
      throws IOException {
    RemoteIterator<LocatedFileStatus> it = super.listLocatedStatus(p, filter);
    if (cachedHosts == null) {
      return it;
    }
    return new RemoteIterator<>() {
      @Override
      public boolean hasNext() throws IOException {
        return it.hasNext();
      }

      @Override
      public LocatedFileStatus next() throws IOException {
        LocatedFileStatus s = it.next();
        // HDFS lists one location per located block, in order, as plain BlockLocations.
        if (s instanceof HdfsLocatedFileStatus
            && ((HdfsLocatedFileStatus) s).getLocatedBlocks() != null) {
          cachedHosts.addTo(s.getBlockLocations(),
              ((HdfsLocatedFileStatus) s).getLocatedBlocks().getLocatedBlocks());
        }
        return s;
      }
    };
  }

  /** The cache key of a block: pool, id and generation stamp (HDFS's equals ignores the last). */
  static BlockKey keyOf(LocatedBlock b) {
    ExtendedBlock e = b.getBlock();
    return new BlockKey(e.getBlockPoolId(), e.getBlockId(), e.getGenerationStamp());
  }

  @Override
  public void close() throws IOException {
    try {
      // Fills under way get up to the cache deadline to finish, while the slave proxies are open.
      if (senders != null) {
        senders.close();
      }
      if (lookAhead != null) {
        lookAhead.close();
      }
      if (directory != null) {
        directory.close();
      }
      if (cachedHosts != null) {
        cachedHosts.close();
      }
    } finally {
      super.close();
    }
  }
}
