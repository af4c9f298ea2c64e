package org.mpcache.slave.fill;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.security.PrivilegedExceptionAction;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.util.DataTransferThrottler;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.service.AbstractService;
import org.apache.hadoop.util.Time;
import org.mpcache.common.BlockKey;
import org.mpcache.common.metrics.MetricsSupport;
import org.mpcache.slave.SlaveConfigKeys;
import org.mpcache.slave.cache.FillAdmission;
import org.mpcache.slave.cache.FillFailure;
import org.mpcache.slave.cache.FillRequest;
import org.mpcache.slave.cache.InputCache;
import org.mpcache.slave.cache.MissReason;
import org.mpcache.slave.cache.SlaveCounters;
import org.mpcache.slave.cache.SlaveFills;
import org.mpcache.slave.space.ForegroundActivity;
import org.mpcache.slave.store.BlockFill;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The slave's filler: it reads blocks from HDFS into the Input Cache itself, for readers' misses
 * ({@link SlaveFills}: each missed block whose lookup names its file) and the master's prefetch
 * commands ({@code mpcache admin prefetch}) alike, each asked for as a {@link FillRequest}, the
 * slave's own type (a prefetch command's proto is translated before it gets here). Each block is admitted as any miss's
 * ({@link FillAdmission}; the master skips its admission test when the operator forced a
 * prefetch), then read from HDFS with the slave's own {@link DistributedFileSystem}
 * ({@link FillFileSystems}, never through the cache) and stored with its checksums. A block whose
 * file changed since it was asked for (other block id or generation stamp at that offset) is
 * skipped.
 *
 * <p>Two queues, each with one background thread: readers' misses and prefetches. Prefetch commands beyond theirs
 * are dropped with a warning (the operator can prefetch again). Readers' fills are collapsed by
 * block (one fill however many readers miss it); beyond {@code mpcache.slave.fill.queue} they are
 * dropped, counted as failed, and the next reader's miss asks again. A failed reader's fill is
 * counted by cause ({@link FillFailure}, {@code FillsBySlaveFailed<Cause>}) and logged at WARN
 * once per cause. A reader's fill starts
 * only once the misses on its file have gone quiet ({@link FillHoldOff}), so that it does not
 * compete with the reader for the node's cores; the time fills waited so is counted. Every fill,
 * a reader's or a prefetch, also gives way to foreground work on the SSD ({@link FillYield}):
 * before it asks for admission and between the chunks it copies, it waits while hits and the
 * Localized Cache's writes keep the SSD busy ({@link ForegroundActivity}), with no lock held; the
 * time fills yielded so is counted too.
 *
 * <p>Blocks are read from the cluster's own HDFS only ({@link FillSources}): a command naming any
 * other file system is refused by the {@link FillSourceGate} before it is queued or asks for
 * admission, and the last check before a file system client is opened refuses it again, so the
 * slave never connects to a NameNode a caller chose. The DataNode beside the slave serves that
 * HDFS's block pools, whose checksums vouch for the bytes read.
 *
 * <p>HDFS is read as the slave's login user, never as a caller: a reader's fill was asked for in a
 * lookup that the block's access token authorized, and only that very block (pool, id, generation
 * stamp, checked on the read's own handle) is cached, so the caller gets nothing it could not read
 * from a DataNode with its token; every later read from the cache needs the token again. Encrypted
 * files are never cached this way (their plaintext stays off the SSD).
 *
 * <p>Thread-safe.
 *
 * <p>Not final only for tests: {@link #checked} is a seam in the window between checking a block
 * and reading it.
 */
public class BlockFiller extends AbstractService {
  private static final Logger LOG = LoggerFactory.getLogger(BlockFiller.class);
  private static final int READ_BYTES = 1 << 20;

  private final InputCache cache;
  private final SlaveCounters counters;
  private final FillAdmission admission;
  private final FillSourceGate sources;
  private final FillFileSystems fileSystems;
  private final int queueLimit;
  private final int readerQueueLimit;
  private final FillHoldOff holdOff;
  /**
   * When a miss on each file last asked for a fill, for {@link #holdOff}; at most about as many
   * files as the fill queue holds (clients name the files). A record older than the quiet time
   * decides nothing and is pruned first once the map outgrows the queue; then any other, which
   * only lets that file's fill start sooner.
   */
  private final Map<String, Long> lastMiss = new ConcurrentHashMap<>();
  private final AtomicLong heldOffMs = new AtomicLong();
  private final FillYield yield;
  private final ForegroundActivity foreground;
  private final AtomicLong yieldedMs = new AtomicLong();
  /**
   * The pace's period: a fill after a pause may read one period's worth at full speed, so a
   * short period keeps that burst small (3.2 MiB at 64 MiB/s; Hadoop's default of 500 ms lets
   * 32 MiB through at once, beside the reader whose miss asked for the fill).
   */
  private static final long PACE_PERIOD_MS = 50;
  /** Paces every fill's reads from HDFS; null without a limit. */
  private final DataTransferThrottler throttler;
  /** Readers' fills queued or under way, so that one block is filled once. */
  private final Set<BlockKey> readerFills = ConcurrentHashMap.newKeySet();
  private final AtomicLong filled = new AtomicLong();
  private final AtomicLong skipped = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final AtomicLong bytesRead = new AtomicLong();
  private final AtomicLong bytesReadLocally = new AtomicLong();
  private ThreadPoolExecutor executor;
  private ThreadPoolExecutor readerExecutor;
  /** The file each thread filled its last block from; each confined to its thread. */
  private final OpenSource prefetchSource = new OpenSource();
  private final OpenSource readerSource = new OpenSource();
  private UserGroupInformation loginUser;

  /**
   * @param sources lets through fills from the cluster's own HDFS only
   * @param fileSystems reads the blocks; closed when the service stops
   * @param queueLimit how many prefetch commands wait at most
   * @param readerQueueLimit how many readers' fills wait at most
   * @param bytesPerSec the most bytes per second all fills read from HDFS together, 0 for no
   *     limit
   * @param holdOff when readers' fills start
   * @param yield when fills give way to foreground work on the SSD
   * @param foreground the SSD's foreground work, which {@code yield} weighs
   */
  public BlockFiller(InputCache cache, FillAdmission admission, FillSourceGate sources,
      FillFileSystems fileSystems, int queueLimit, int readerQueueLimit, long bytesPerSec,
      FillHoldOff holdOff, FillYield yield, ForegroundActivity foreground) {
    super(BlockFiller.class.getSimpleName());
    this.cache = cache;
    this.counters = cache.counters();
    this.admission = admission;
    this.sources = sources;
    this.fileSystems = fileSystems;
    this.queueLimit = queueLimit;
    this.readerQueueLimit = readerQueueLimit;
    this.holdOff = holdOff;
    this.yield = yield;
    this.foreground = foreground;
    this.throttler = bytesPerSec > 0 ? new DataTransferThrottler(PACE_PERIOD_MS, bytesPerSec)
        : null;
  }

  @Override
  protected void serviceStart() throws Exception {
    loginUser = UserGroupInformation.getLoginUser();
    executor = singleThread("mpcache-prefetch", queueLimit);
    readerExecutor = singleThread("mpcache-slave-fill", readerQueueLimit);
    super.serviceStart();
  }

  private static ThreadPoolExecutor singleThread(String name, int queue) {
    return new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
        new LinkedBlockingQueue<>(queue), r -> {
          Thread t = new Thread(r, name);
          t.setDaemon(true);
          return t;
        });
  }

  @Override
  protected void serviceStop() throws Exception {
    for (ExecutorService e : new ExecutorService[] {executor, readerExecutor}) {
      if (e != null) {
        e.shutdownNow();
        e.awaitTermination(10, TimeUnit.SECONDS);
      }
    }
    prefetchSource.close();
    readerSource.close();
    fileSystems.close();
    super.serviceStop();
  }

  /**
   * Queues commands from a heartbeat; returns at once. A command naming a path off the cluster's
   * own HDFS is refused and counted as skipped.
   */
  public void submit(List<FillRequest> commands) {
    long askedAt = Time.monotonicNow();
    for (FillRequest command : commands) {
      String own = sources.admit(command.path(), "prefetch");
      if (own == null) {
        skipped.incrementAndGet();
        continue;
      }
      FillRequest c = command.withPath(own);
      try {
        executor.execute(() -> {
          try {
            prefetch(c, askedAt);
          } finally {
            prefetchSource.release(!executor.getQueue().isEmpty());
          }
        });
      } catch (RejectedExecutionException e) {
        LOG.warn("Prefetch queue full ({} blocks): dropping {} and the rest of this batch",
            queueLimit, c.key());
        skipped.addAndGet(1);
        return;
      }
    }
  }

  /**
   * Queues a fill a reader's miss asked for ({@link SlaveFills#request}); returns at once, on the
   * caller's RPC handler thread. False, and nothing queued, for a path off the cluster's own HDFS
   * (the client endpoint refuses those at the lookup already).
   */
  public boolean fillForReader(FillRequest request) {
    String own = sources.admit(request.path(), "reader's fill");
    if (own == null) {
      return false;
    }
    FillRequest c = request.path().equals(own) ? request : request.withPath(own);
    BlockKey key = c.key();
    long askedAt = Time.monotonicNow();
    if (holdOff.holdsOff()) {
      // A miss collapsed into a queued fill still says the file's reader is reading.
      lastMiss.put(c.path(), askedAt);
      if (lastMiss.size() > readerQueueLimit) {
        lastMiss.values().removeIf(t -> holdOff.delayMs(t, t, askedAt) == 0);
        Iterator<String> files = lastMiss.keySet().iterator();
        while (lastMiss.size() > readerQueueLimit && files.hasNext()) {
          if (!files.next().equals(c.path())) {
            files.remove();
          }
        }
      }
    }
    if (!readerFills.add(key)) {
      return true;
    }
    try {
      readerExecutor.execute(() -> {
        try {
          if (!awaitQuiet(c.path(), askedAt)) {
            return;
          }
          fillForReaderNow(c, askedAt);
        } finally {
          readerFills.remove(key);
          readerSource.release(!readerExecutor.getQueue().isEmpty());
        }
      });
      return true;
    } catch (RejectedExecutionException e) {
      readerFills.remove(key);
      if (readerExecutor.isShutdown()) {
        return false;
      }
      slaveFillFailed(key, FillFailure.QUEUE_FULL, "the queue of " + readerQueueLimit
          + " blocks (" + SlaveConfigKeys.SLAVE_FILL_QUEUE_KEY + ") is full");
      return false;
    }
  }

  /**
   * Waits until a fill asked for at {@code askedAt} of a block of {@code path} may start
   * ({@link FillHoldOff}); false when the service stopped meanwhile.
   */
  private boolean awaitQuiet(String path, long askedAt) {
    long waitedFrom = Time.monotonicNow();
    try {
      while (true) {
        long now = Time.monotonicNow();
        long delay = holdOff.delayMs(askedAt, lastMiss.getOrDefault(path, askedAt), now);
        if (delay == 0) {
          heldOffMs.addAndGet(now - waitedFrom);
          return true;
        }
        Thread.sleep(delay);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * Milliseconds readers' fills waited, since start, for the misses on their files to go quiet
   * ({@link FillHoldOff}).
   */
  public long heldOffMs() {
    return heldOffMs.get();
  }

  /**
   * Waits while foreground work keeps the SSD busy ({@link FillYield}), for a fill of
   * {@code key} asked for at {@code askedAt} (monotonic ms): the longest delay counts from then,
   * queueing and holding off included, so fills queued behind a waiting one are not each delayed
   * in turn. Holds no lock; counts the time slept in {@link #yieldedMs}.
   *
   * @throws InterruptedIOException when the service stops meanwhile
   */
  private void yieldToForeground(BlockKey key, long askedAt) throws InterruptedIOException {
    long delay;
    while ((delay = yield.delayMs(foreground.recentBytes(),
        Math.max(0, Time.monotonicNow() - askedAt))) > 0) {
      long from = Time.monotonicNow();
      try {
        Thread.sleep(delay);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("stopped while " + key + "'s fill yielded");
      }
      yieldedMs.addAndGet(Time.monotonicNow() - from);
    }
  }

  /**
   * Milliseconds fills (readers' and prefetches') waited, since start, for foreground work on the
   * SSD to drop ({@link FillYield}).
   */
  public long yieldedMs() {
    return yieldedMs.get();
  }

  /** Files whose last miss the hold-off remembers, for tests. */
  public int missRecords() {
    return lastMiss.size();
  }

  /** Readers' fills queued or under way, for tests. */
  public int readerFillsPending() {
    return readerFills.size();
  }

  private void fillForReaderNow(FillRequest c, long askedAt) {
    try {
      // The handler thread that queued the first fill may have run as a caller: read as the
      // slave itself, whoever created this thread.
      if (loginUser.doAs((PrivilegedExceptionAction<Boolean>) () -> admitAndFill(c,
          readerSource, askedAt))) {
        counters.filledBySlave();
      }
    } catch (IOException | RuntimeException e) {
      slaveFillFailed(c.key(), FillFailedException.of(e), "filling from " + c.path() + ": " + e);
      cache.notCached(c.key());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void slaveFillFailed(BlockKey key, FillFailure cause, String why) {
    if (counters.slaveFillFailed(cause)) {
      LOG.warn("Could not fill {} from HDFS for a reader: {} (logged once per cause: {}; see"
          + " FillsBySlaveFailed{})", key, why, cause, MetricsSupport.name(cause.name()));
    } else {
      LOG.debug("Could not fill {} from HDFS for a reader: {}", key, why);
    }
  }

  /** Blocks cached by prefetch since start. */
  public long filled() {
    return filled.get();
  }

  /**
   * Prefetch commands not carried out: already cached, not admitted, changed file, full queue,
   * or a path off the cluster's own HDFS.
   */
  public long skipped() {
    return skipped.get();
  }

  /** Bytes prefetch read from HDFS into the cache. */
  public long bytesRead() {
    return bytesRead.get();
  }

  /**
   * Of {@link #bytesRead}, those read from the local DataNode's block files directly (HDFS's
   * short-circuit reads), not through the DataNode.
   */
  public long bytesReadLocally() {
    return bytesReadLocally.get();
  }

  /** Prefetch commands that failed reading HDFS or writing the SSD. */
  public long failed() {
    return failed.get();
  }

  private void prefetch(FillRequest c, long askedAt) {
    BlockKey key = c.key();
    try {
      if (admitAndFill(c, prefetchSource, askedAt)) {
        filled.incrementAndGet();
      } else {
        skipped.incrementAndGet();
      }
    } catch (IOException | RuntimeException e) {
      failed.incrementAndGet();
      LOG.warn("Prefetch of {} from {} failed: {}", key, c.path(), e.toString());
      cache.notCached(key);
    }
  }

  /**
   * Admits the block ({@link FillAdmission}) and reads it from HDFS into the store; false when it
   * is cached or being filled already, not the file's block at the offset named, not admitted,
   * or cannot be cached as planned.
   *
   * @throws IOException when the NameNode, the master or the SSD failed the admission, or the
   *     read failed
   */
  private boolean admitAndFill(FillRequest c, OpenSource source, long askedAt)
      throws IOException {
    BlockKey key = c.key();
    if (cache.store().state(key).isPresent()) {
      return false;
    }
    // Before admission: the arbitrator's answer, and the evictions it orders, are acted on at
    // once, not after a wait.
    yieldToForeground(key, askedAt);
    FillAdmission.Result a = admission.admit(c);
    if (a.error() != null) {
      throw new FillFailedException(FillFailure.of(a.refusal()), a.error());
    }
    if (a.refusal() == MissReason.NO_SPACE) {
      cache.notCached(key);
    }
    if (!a.admitted()) {
      LOG.debug("Not filling {}: {}", key, a.missReason());
      return false;
    }
    if (fill(c, a.fill(), source, askedAt)) {
      cache.cached(key, c.datasetId());
      return true;
    }
    cache.notCached(key);
    return false;
  }

  /**
   * Reads the block from HDFS into {@code fill}, yielding to foreground work between chunks
   * until the fill's longest delay from {@code askedAt} has passed; false, and the fill aborted,
   * when it cannot be cached as planned.
   */
  private boolean fill(FillRequest c, BlockFill fill, OpenSource source, long askedAt)
      throws IOException {
    BlockKey key = c.key();
    long length = c.length();
    Path path = new Path(c.path());
    try {
      HdfsDataInputStream in = source.open(path, key, c.offset(), length);
      if (in == null) {
        fill.abort();
        return false;
      }
      checked(key, path);
      long local = in.getReadStatistics().getTotalShortCircuitBytesRead();
      byte[] buf = source.buffer;
      in.seek(c.offset());
      long done = 0;
      while (done < length) {
        if (done > 0) {
          yieldToForeground(key, askedAt);
        }
        int n = (int) Math.min(buf.length, length - done);
        in.readFully(buf, 0, n);
        if (!FillFileSystems.isKey(in.getCurrentBlock(), key)) {
          LOG.info("Not filling {} from HDFS: {} changed while it was read", key, path);
          fill.abort();
          return false;
        }
        try {
          fill.append(done, ByteBuffer.wrap(buf, 0, n));
        } catch (IOException e) {
          throw new FillFailedException(FillFailure.SSD_ERROR, e);
        }
        done += n;
        if (throttler != null) {
          throttler.throttle(n);
          if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedIOException("stopped while filling " + key);
          }
        }
      }
      try {
        fill.commit();
      } catch (IOException e) {
        throw new FillFailedException(FillFailure.SSD_ERROR, e);
      }
      bytesRead.addAndGet(length);
      bytesReadLocally.addAndGet(in.getReadStatistics().getTotalShortCircuitBytesRead() - local);
      return true;
    } catch (IOException | RuntimeException e) {
      fill.abort();
      source.close();
      throw e;
    }
  }

  /**
   * The file a fill thread read its last block from, kept open while more fills are queued
   * behind it: the blocks of one file are mostly filled one after another, and reopening the
   * file for each would cost the NameNode two calls per block. Confined to its fill thread.
   */
  private final class OpenSource {
    /** What each read from HDFS fills: one per thread, not one per block. */
    final byte[] buffer = new byte[READ_BYTES];
    private Path path;
    private HdfsDataInputStream in;

    /**
     * The file at {@code path}, open, with its block at {@code offset} checked to be {@code key}
     * of {@code length} bytes on the stream's own block list (a stream opened before the path
     * was replaced lists the old file's blocks, so it is reopened and checked again); null when
     * the block should not be filled (the file changed, or is encrypted).
     */
    HdfsDataInputStream open(Path p, BlockKey key, long offset, long length) throws IOException {
      if (in != null && p.equals(path) && streamHas(in, key, offset, length)) {
        return in;
      }
      close();
      DistributedFileSystem fs = fileSystems.get(p.toUri());
      if (fs.getFileStatus(p).isEncrypted()) {
        LOG.info("Not filling {} from HDFS: {} is encrypted; its plaintext stays off the SSD",
            key, p);
        return null;
      }
      HdfsDataInputStream opened = (HdfsDataInputStream) fs.open(p);
      // The block is checked and read on one handle: checked against the stream's own block
      // list, then read sequentially with the stream's current block checked after every read,
      // so that a path replaced at any moment cannot put another file's bytes under this key.
      if (!streamHas(opened, key, offset, length)) {
        IOUtils.closeStream(opened);
        LOG.info("Not filling {} from HDFS: {} changed since the fill was asked for", key, p);
        return null;
      }
      path = p;
      in = opened;
      return in;
    }

    /** Closes the file unless {@code more} fills are queued behind the one that just ran. */
    void release(boolean more) {
      if (!more) {
        close();
      }
    }

    void close() {
      IOUtils.closeStream(in);
      in = null;
      path = null;
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
        return FillFileSystems.isKey(lb.getBlock(), key) && lb.getBlockSize() == length;
      }
    }
    return false;
  }
}
