package org.mpcache.hdfs;

import java.io.IOException;
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
   * Threads making the calls off a client's readers' threads (lookups ahead of sequential
   * readers, batched miss lookups, read reports): one short task each; a reader whose lookup
   * ahead has not started looks its block up itself.
   */
  private static final int BACKGROUND_THREADS = 4;

  private boolean enabled;
  /** The streams' shared parts; null when the cache is off. */
  private ClientContext client;
  private DatasetResolver datasets;
  /** Null when cached hosts are off (or the cache is). */
  private CachedHosts cachedHosts;

  @Override
  public void initialize(URI uri, Configuration conf) throws IOException {
    enabled = conf.getBoolean(ClientConfigKeys.ENABLED_KEY, ClientConfigKeys.ENABLED_DEFAULT);
    // Checked before HDFS is touched: a bad value fails here, not as a cast gone negative.
    ClientConf settings = enabled ? new ClientConf(conf) : null;
    if (enabled && conf.get(HdfsClientConfigKeys.Read.PREFETCH_SIZE_KEY) == null) {
      // Every block's location at the open, in the one NameNode call HDFS makes there.
      conf = new Configuration(conf);
      conf.setLong(HdfsClientConfigKeys.Read.PREFETCH_SIZE_KEY, Long.MAX_VALUE);
    }
    super.initialize(uri, conf);
    if (!enabled) {
      return;
    }
    SlaveDirectory directory = new SlaveDirectory(conf, settings, Time::monotonicNow);
    if (settings.cachedHosts) {
      cachedHosts = new CachedHosts(conf, settings, Time::monotonicNow);
    }
    client = new ClientContext(settings, directory,
        new BackgroundCalls("mpcache-client-ahead", BACKGROUND_THREADS, settings.deadlineMs),
        new OpenStreams(), new DescriptorCache(settings.descriptorCacheMaxIdle,
            settings.descriptorCacheIdleNanos, System::nanoTime),
        new DescriptorGate(settings.descriptorsAfterBytes), statistics);
    datasets = new DatasetResolver(this, conf);
    ClientMetrics.registerOnce();
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    FSDataInputStream in = super.open(f, bufferSize);
    if (!enabled || !(in.getWrappedStream() instanceof DFSInputStream)
        || client.conf().bypasses(f)) {
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
    return new FSDataInputStream(new CachingInputStream(dfsIn, makeQualified(f).toString(),
        blocks, cacheable, client, datasets.resolve(makeQualified(f), Math.max(1,
        blocks.size()), located.getFileLength()), System::nanoTime));
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
      // Calls under way get up to the cache deadline to finish, while the slave proxies are open.
      if (client != null) {
        // Streams left open let their block files go: the slaves free what they hold for them.
        client.openStreams().close();
        // After the streams: the files they let go are idle, closed here.
        client.descriptors().close();
        client.background().close();
        client.directory().close();
      }
      if (cachedHosts != null) {
        cachedHosts.close();
      }
    } finally {
      super.close();
    }
  }
}
