package org.mpcache.hdfs;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.util.Time;
import org.mpcache.common.BlockKey;
import org.mpcache.common.ConfigChecks;
import org.mpcache.common.MpCacheConfigKeys;

/**
 * The drop-in {@code hdfs://} FileSystem that reads through mpCache: set
 * {@code fs.hdfs.impl=org.mpcache.hdfs.MpCacheFileSystem} in core-site.xml and unmodified jobs
 * read their cached input blocks from the slaves' SSDs. Everything but {@link #open} is plain
 * {@link DistributedFileSystem}; files HDFS encrypts, erasure-codes or is still writing the last
 * block of are read (or partly read) from HDFS only, and HDFS's permission checks happen at open
 * exactly as without the cache.
 *
 * <p>Thread-safe, like {@link DistributedFileSystem}.
 */
public class MpCacheFileSystem extends DistributedFileSystem {
  private boolean enabled;
  private boolean fillEnabled;
  private int fillWriteBytes;
  private long fillQueueBytes;
  private int readBytes;
  private boolean descriptors;
  private int deadlineMs;
  private int fillThreads;
  private SlaveDirectory directory;
  private FillSenders senders;
  private DatasetResolver datasets;

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
    super.initialize(uri, conf);
    if (!enabled) {
      return;
    }
    fillEnabled = conf.getBoolean(ClientConfigKeys.FILL_ENABLED_KEY,
        ClientConfigKeys.FILL_ENABLED_DEFAULT);
    deadlineMs = ConfigChecks.intAtLeast(conf, ClientConfigKeys.CACHE_DEADLINE_MS_KEY,
        ClientConfigKeys.CACHE_DEADLINE_MS_DEFAULT, 1);
    directory = new SlaveDirectory(conf,
        ConfigChecks.address(conf, MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY,
            MpCacheConfigKeys.MASTER_RPC_ADDRESS_DEFAULT),
        ConfigChecks.intAtLeast(conf, MpCacheConfigKeys.RPC_TIMEOUT_MS_KEY,
            MpCacheConfigKeys.RPC_TIMEOUT_MS_DEFAULT, 1), deadlineMs,
        ConfigChecks.longAtLeast(conf, ClientConfigKeys.SLAVES_REFRESH_MS_KEY,
            ClientConfigKeys.SLAVES_REFRESH_MS_DEFAULT, 0),
        ConfigChecks.longAtLeast(conf, ClientConfigKeys.SLAVE_RETRY_MS_KEY,
            ClientConfigKeys.SLAVE_RETRY_MS_DEFAULT, 0),
        Time::monotonicNow);
    senders = new FillSenders(fillThreads, deadlineMs);
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
    String src = makeQualified(f).toUri().getPath();
    LocatedBlocks located;
    try {
      located = getClient().getLocatedBlocks(src, 0, Long.MAX_VALUE);
    } catch (IOException e) {
      return in;
    }
    if (located == null || located.isLastBlockComplete() && located.getLocatedBlocks().isEmpty()
        || located.getErasureCodingPolicy() != null) {
      return in;
    }
    List<LocatedBlock> blocks = located.getLocatedBlocks();
    int cacheable = located.isUnderConstruction() ? Math.max(0, blocks.size() - 1)
        : blocks.size();
    if (!sameBlocks(blocks, dfsIn, cacheable)) {
      ClientCounters.get().fallback("file-changed-during-open", src + " was replaced while it"
          + " was opened; this stream reads from HDFS only", null);
      return in;
    }
    CachingInputStream.Context ctx = new CachingInputStream.Context(directory, senders,
        datasets.resolve(makeQualified(f), Math.max(1, blocks.size())),
        getConf().get("mapreduce.job.id", ""), fillEnabled, fillWriteBytes, fillQueueBytes,
        readBytes, deadlineMs, statistics, descriptors);
    return new FSDataInputStream(new CachingInputStream(dfsIn, makeQualified(f).toString(),
        blocks, cacheable, ctx));
  }

  /**
   * Whether the first {@code cacheable} blocks of {@code byPath}, the file's blocks as the NameNode
   * listed them after the stream opened, are the very blocks the stream reads: a path renamed over
   * or recreated in between gives other block ids, and caching under them would store one file's
   * bytes under another file's block.
   */
  private static boolean sameBlocks(List<LocatedBlock> byPath, DFSInputStream stream,
      int cacheable) {
    List<LocatedBlock> streams;
    try {
      streams = stream.getAllBlocks();
    } catch (IOException e) {
      return false;
    }
    if (streams.size() < cacheable) {
      return false;
    }
    for (int i = 0; i < cacheable; i++) {
      LocatedBlock a = byPath.get(i);
      LocatedBlock b = streams.get(i);
      if (!keyOf(a).equals(keyOf(b)) || a.getStartOffset() != b.getStartOffset()
          || a.getBlockSize() != b.getBlockSize()) {
        return false;
      }
    }
    return true;
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
      if (directory != null) {
        directory.close();
      }
    } finally {
      super.close();
    }
  }
}
