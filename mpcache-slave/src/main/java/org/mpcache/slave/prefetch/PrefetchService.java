package org.mpcache.slave.prefetch;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.annotation.concurrent.GuardedBy;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.service.AbstractService;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.SlaveMasterProtos.PrefetchCommandProto;
import org.mpcache.common.proto.SlaveMasterProtos.ReplaceResponseProto;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.slave.cache.CacheMaster;
import org.mpcache.slave.cache.SlaveCounters;
import org.mpcache.slave.master.MasterLink;
import org.mpcache.slave.store.BlockFill;
import org.mpcache.slave.store.FileBlockStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out the master's prefetch commands ({@code mpcache admin prefetch}): for each block it
 * asks the Replace Arbitrator as for any miss (skipping the admission test when the operator
 * forced it), evicts what the answer says, then reads the block from HDFS itself with its own
 * {@link DistributedFileSystem} (never through the cache) and stores it as a client's
 * write-through would, checksums included. A block whose file changed since the master planned
 * (other block id or generation stamp at that offset) is skipped.
 *
 * <p>One background thread works through a bounded queue; commands beyond it are dropped with a
 * warning (the operator can prefetch again). Thread-safe.
 *
 * <p>Not final only for tests: {@link #checked} is a seam in the window between checking a block
 * and reading it.
 */
public class PrefetchService extends AbstractService {
  private static final Logger LOG = LoggerFactory.getLogger(PrefetchService.class);
  private static final int READ_BYTES = 1 << 20;

  private final FileBlockStore store;
  private final CacheMaster cacheMaster;
  private final MasterLink masterLink;
  private final SlaveCounters counters;
  private final int queueLimit;
  private final AtomicLong filled = new AtomicLong();
  private final AtomicLong skipped = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final AtomicLong bytesRead = new AtomicLong();
  @GuardedBy("this")
  private final Map<String, FileSystem> fileSystems = new HashMap<>();
  private ExecutorService executor;

  public PrefetchService(FileBlockStore store, CacheMaster cacheMaster, MasterLink masterLink,
      SlaveCounters counters, int queueLimit) {
    super(PrefetchService.class.getSimpleName());
    this.store = store;
    this.cacheMaster = cacheMaster;
    this.masterLink = masterLink;
    this.counters = counters;
    this.queueLimit = queueLimit;
  }

  @Override
  protected void serviceStart() throws Exception {
    executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
        new LinkedBlockingQueue<>(queueLimit), r -> {
          Thread t = new Thread(r, "mpcache-prefetch");
          t.setDaemon(true);
          return t;
        });
    super.serviceStart();
  }

  @Override
  protected void serviceStop() throws Exception {
    if (executor != null) {
      executor.shutdownNow();
      executor.awaitTermination(10, TimeUnit.SECONDS);
    }
    synchronized (this) {
      for (FileSystem fs : fileSystems.values()) {
        IOUtils.closeStream(fs);
      }
      fileSystems.clear();
    }
    super.serviceStop();
  }

  /** Queues commands from a heartbeat; returns at once. */
  public void submit(List<PrefetchCommandProto> commands) {
    for (PrefetchCommandProto c : commands) {
      try {
        executor.execute(() -> prefetch(c));
      } catch (RejectedExecutionException e) {
        LOG.warn("Prefetch queue full ({} blocks): dropping {} and the rest of this batch",
            queueLimit, c.getAccess().getBlock());
        skipped.addAndGet(1);
        return;
      }
    }
  }

  /** Blocks cached by prefetch since start. */
  public long filled() {
    return filled.get();
  }

  /** Prefetch commands not carried out: already cached, not admitted, changed file, full queue. */
  public long skipped() {
    return skipped.get();
  }

  /** Bytes prefetch read from HDFS into the cache. */
  public long bytesRead() {
    return bytesRead.get();
  }

  /** Prefetch commands that failed reading HDFS or writing the SSD. */
  public long failed() {
    return failed.get();
  }

  private void prefetch(PrefetchCommandProto c) {
    BlockKey key = ProtoConverters.fromProto(c.getAccess().getBlock());
    if (store.state(key).isPresent()) {
      skipped.incrementAndGet();
      return;
    }
    try {
      ReplaceResponseProto d = masterLink.requestReplace(c.getAccess(),
          store.space().freeBytes(), c.getForce());
      if (!d.getAdmitted()) {
        LOG.debug("Prefetch of {} not admitted: {}", key, d.getReason());
        skipped.incrementAndGet();
        return;
      }
      cacheMaster.evict(ProtoConverters.fromProtos(d.getEvictList()));
      if (fill(key, c)) {
        filled.incrementAndGet();
        counters.blockCached();
        masterLink.reportCached(key);
      } else {
        skipped.incrementAndGet();
        masterLink.reportRemoved(key);
      }
    } catch (IOException | RuntimeException e) {
      failed.incrementAndGet();
      LOG.warn("Prefetch of {} from {} failed: {}", key, c.getPath(), e.toString());
      masterLink.reportRemoved(key);
    }
  }

  /** Reads the block from HDFS into the store; false when it cannot be cached as planned. */
  private boolean fill(BlockKey key, PrefetchCommandProto c) throws IOException {
    long length = c.getAccess().getBlockBytes();
    Path path = new Path(c.getPath());
    DistributedFileSystem fs = fileSystem(path.toUri());
    if (fs.getFileStatus(path).isEncrypted()) {
      LOG.info("Not prefetching {}: {} is encrypted; its plaintext stays off the SSD", key, path);
      return false;
    }
    // The block is checked and read on one handle: checked against the stream's own block list,
    // then read sequentially with the stream's current block checked after every read, so that a
    // path replaced at any moment cannot put another file's bytes under this key.
    try (HdfsDataInputStream in = (HdfsDataInputStream) fs.open(path)) {
      if (!streamHas(in, key, c.getOffset(), length)) {
        LOG.info("Not prefetching {}: {} changed since the master planned it", key, path);
        return false;
      }
      checked(key, path);
      Optional<BlockFill> opened = store.beginFill(key, length, c.getAccess().getDatasetId(),
          c.getAccess().getDatasetBlocks());
      if (opened.isEmpty()) {
        return false;
      }
      BlockFill fill = opened.get();
      try {
        byte[] buf = new byte[(int) Math.min(READ_BYTES, Math.max(1, length))];
        in.seek(c.getOffset());
        long done = 0;
        while (done < length) {
          int n = (int) Math.min(buf.length, length - done);
          in.readFully(buf, 0, n);
          if (!isKey(in.getCurrentBlock(), key)) {
            LOG.info("Not prefetching {}: {} changed while it was read", key, path);
            fill.abort();
            return false;
          }
          fill.append(done, ByteBuffer.wrap(buf, 0, n));
          done += n;
        }
        fill.commit();
        bytesRead.addAndGet(length);
        return true;
      } catch (IOException | RuntimeException e) {
        fill.abort();
        throw e;
      }
    }
  }

  /**
   * Called on the prefetch thread once {@code key} has been found in the file's block list and
   * before any of its bytes are read: the window in which {@code path} may be replaced. Does
   * nothing; a seam for tests of that race.
   */
  protected void checked(BlockKey key, Path path) throws IOException {
  }

  /** Whether the stream's own block at {@code offset} is {@code key}, {@code length} bytes long. */
  private static boolean streamHas(HdfsDataInputStream in, BlockKey key, long offset, long length)
      throws IOException {
    for (LocatedBlock lb : in.getAllBlocks()) {
      if (lb.getStartOffset() == offset) {
        return isKey(lb.getBlock(), key) && lb.getBlockSize() == length;
      }
    }
    return false;
  }

  private static boolean isKey(ExtendedBlock b, BlockKey key) {
    return b != null && b.getBlockPoolId().equals(key.getBlockPoolId())
        && b.getBlockId() == key.getBlockId() && b.getGenerationStamp() == key.getGenerationStamp();
  }

  private synchronized DistributedFileSystem fileSystem(URI uri) throws IOException {
    String authority = uri.getScheme() + "://" + uri.getAuthority();
    FileSystem fs = fileSystems.get(authority);
    if (fs == null) {
      Configuration conf = new Configuration(getConfig());
      conf.setClass("fs.hdfs.impl", DistributedFileSystem.class, FileSystem.class);
      fs = FileSystem.newInstance(URI.create(authority), conf);
      fileSystems.put(authority, fs);
    }
    if (!(fs instanceof DistributedFileSystem)) {
      throw new IOException("prefetch reads HDFS only, not " + uri);
    }
    return (DistributedFileSystem) fs;
  }
}
