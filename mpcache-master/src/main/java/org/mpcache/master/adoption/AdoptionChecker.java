package org.mpcache.master.adoption;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import javax.annotation.concurrent.GuardedBy;
import org.apache.hadoop.service.AbstractService;
import org.mpcache.common.BlockKey;
import org.mpcache.master.arbitrator.HeldBlock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks the blocks adopted at slaves' registrations against HDFS, in the background, and has the
 * ones HDFS no longer has (file deleted or replaced, block appended to while the copy sat on the
 * SSD) ordered out. Registration does not wait for it: a stale copy is never read meanwhile, as
 * readers ask for blocks by the generation stamp the NameNode gives them, so it only takes room
 * until the check finds it.
 *
 * <p>A block is checked against its own file, the one the slave found it in at the NameNode
 * before it filled it and recorded with it ({@link HeldBlock#file}), never against the dataset's
 * input paths, which are the claim of the reader whose miss cached it: the master asks the
 * NameNode about one file per question, as its own user. A block without a recorded file is not
 * checked; it leaves the cache as the policy evicts it.
 *
 * <p>Each pass plans, calls, applies: it takes up to a batch of due blocks from the queue, asks
 * {@link GenerationStamps} once per file among them with no lock held, then hands each slave's
 * stale blocks to the {@link StaleCopies} sink (the arbitrator orders them out). When HDFS cannot
 * answer for a file, that file's blocks, and those of every file the pass had not asked about
 * yet, wait for the retry interval and are asked about again: a slow or absent NameNode delays
 * the check, it never evicts anything.
 *
 * <p>Thread-safe: the queue is guarded by this object's monitor, which is never held across a
 * call to HDFS or to the sink. One worker thread runs the passes once the service starts.
 */
public final class AdoptionChecker extends AbstractService {
  private static final Logger LOG = LoggerFactory.getLogger(AdoptionChecker.class);

  /** Where the blocks found stale go. */
  @FunctionalInterface
  public interface StaleCopies {
    /** {@code stale} blocks held by {@code slaveId} are ones HDFS no longer has. */
    void drop(String slaveId, List<BlockKey> stale);
  }

  /** One slave's copy of a block. */
  private record Copy(String slaveId, BlockKey block) {
  }

  /** A copy's file and the earliest time (monotonic ms) it may be checked. */
  private record Due(String file, long notBefore) {
  }

  private final GenerationStamps stamps;
  private final StaleCopies sink;
  private final int batchBlocks;
  private final long retryMs;
  private final LongSupplier clock;
  @GuardedBy("this")
  private final LinkedHashMap<Copy, Due> queue = new LinkedHashMap<>();
  @GuardedBy("this")
  private final Map<String, Integer> pendingBySlave = new HashMap<>();
  @GuardedBy("this")
  private boolean stopped;
  private Thread worker;

  /**
   * @param batchBlocks the most blocks one pass checks
   * @param retryMs how long blocks wait to be checked again when HDFS could not answer
   * @param clock a monotonic clock in milliseconds
   */
  public AdoptionChecker(GenerationStamps stamps, StaleCopies sink, int batchBlocks,
      long retryMs, LongSupplier clock) {
    super(AdoptionChecker.class.getSimpleName());
    if (batchBlocks < 1 || retryMs < 0) {
      throw new IllegalArgumentException("batch of " + batchBlocks + " blocks, retry after "
          + retryMs + " ms");
    }
    this.stamps = stamps;
    this.sink = sink;
    this.batchBlocks = batchBlocks;
    this.retryMs = retryMs;
    this.clock = clock;
  }

  /**
   * Queues the blocks a slave's registration adopted, to be checked at once; those without a
   * recorded file are not checked.
   */
  public synchronized void enqueue(String slaveId, List<HeldBlock> adopted) {
    long now = clock.getAsLong();
    for (HeldBlock h : adopted) {
      if (h.file() == null) {
        continue;
      }
      if (queue.put(new Copy(slaveId, h.block()), new Due(h.file(), now)) == null) {
        pendingBySlave.merge(slaveId, 1, Integer::sum);
      }
    }
    notifyAll();
  }

  /** How many blocks adopted on a slave wait for their check. */
  public synchronized int pending(String slaveId) {
    return pendingBySlave.getOrDefault(slaveId, 0);
  }

  /** How many adopted blocks wait for their check, on every slave. */
  public synchronized int pending() {
    return queue.size();
  }

  /**
   * One pass over up to a batch of due blocks; public so that tests can drive it without the
   * worker.
   *
   * @return how many blocks HDFS answered for (checked and taken off the queue)
   */
  public int checkOnce() {
    Map<String, Map<String, List<BlockKey>>> plan = new LinkedHashMap<>();
    synchronized (this) {
      long now = clock.getAsLong();
      int taken = 0;
      for (Iterator<Map.Entry<Copy, Due>> it = queue.entrySet().iterator();
          it.hasNext() && taken < batchBlocks; ) {
        Map.Entry<Copy, Due> e = it.next();
        if (e.getValue().notBefore() <= now) {
          plan.computeIfAbsent(e.getValue().file(), f -> new LinkedHashMap<>())
              .computeIfAbsent(e.getKey().slaveId(), s -> new ArrayList<>())
              .add(e.getKey().block());
          taken++;
        }
      }
    }
    int answered = 0;
    int staleTotal = 0;
    IOException failure = null;
    List<String> unanswered = new ArrayList<>();
    for (Map.Entry<String, Map<String, List<BlockKey>>> d : plan.entrySet()) {
      if (failure != null) {
        unanswered.add(d.getKey());
        continue;
      }
      List<BlockKey> all = new ArrayList<>();
      d.getValue().values().forEach(all::addAll);
      Set<BlockKey> stale;
      try {
        stale = stamps.stale(d.getKey(), all);
      } catch (IOException e) {
        failure = e;
        unanswered.add(d.getKey());
        continue;
      } catch (RuntimeException e) {
        // A file HDFS cannot be asked about (not a path it parses): nothing to check.
        LOG.warn("Cannot check file {} against HDFS; its adopted blocks are kept: {}",
            d.getKey(), e.toString());
        stale = Set.of();
      }
      for (Map.Entry<String, List<BlockKey>> s : d.getValue().entrySet()) {
        List<BlockKey> gone = s.getValue().stream().filter(stale::contains).toList();
        if (!gone.isEmpty()) {
          sink.drop(s.getKey(), gone);
          staleTotal += gone.size();
        }
      }
      answered += all.size();
      settle(d.getValue(), d.getKey(), false);
    }
    for (String d : unanswered) {
      settle(plan.get(d), d, true);
    }
    if (failure != null) {
      LOG.warn("HDFS could not say whether the blocks of {} adopted file(s) are current; they stay "
          + "cached and are checked again in {} ms: {}", unanswered.size(), retryMs,
          failure.toString());
    }
    if (answered > 0) {
      LOG.info("Checked {} adopted block(s) against HDFS: {} stale, ordered out", answered,
          staleTotal);
    }
    return answered;
  }

  /** Takes answered blocks off the queue, or puts unanswered ones back for later. */
  private synchronized void settle(Map<String, List<BlockKey>> bySlave, String file,
      boolean retry) {
    long later = clock.getAsLong() + retryMs;
    for (Map.Entry<String, List<BlockKey>> s : bySlave.entrySet()) {
      for (BlockKey b : s.getValue()) {
        Copy c = new Copy(s.getKey(), b);
        Due was = queue.remove(c);
        if (retry && was != null) {
          queue.put(c, new Due(file, later)); // to the end of the queue
        } else if (was != null) {
          pendingBySlave.computeIfPresent(s.getKey(), (k, n) -> n > 1 ? n - 1 : null);
        }
      }
    }
  }

  /** How long until the next block is due; 0 when one is due now, -1 when none is queued. */
  @GuardedBy("this")
  private long untilDue() {
    long now = clock.getAsLong();
    long next = Long.MAX_VALUE;
    for (Due d : queue.values()) {
      next = Math.min(next, d.notBefore());
    }
    return next == Long.MAX_VALUE ? -1 : Math.max(0, next - now);
  }

  @Override
  protected void serviceStart() throws Exception {
    worker = new Thread(this::run, "mpcache-adoption-check");
    worker.setDaemon(true);
    worker.start();
    super.serviceStart();
  }

  private void run() {
    while (true) {
      try {
        synchronized (this) {
          long wait;
          while (!stopped && (wait = untilDue()) != 0) {
            wait(Math.max(0, wait));
          }
          if (stopped) {
            return;
          }
        }
        checkOnce();
      } catch (InterruptedException e) {
        return;
      } catch (RuntimeException e) {
        LOG.error("A pass checking adopted blocks against HDFS failed", e);
        synchronized (this) {
          try {
            wait(Math.max(1, retryMs));
          } catch (InterruptedException ie) {
            return;
          }
        }
      }
    }
  }

  @Override
  protected void serviceStop() throws Exception {
    synchronized (this) {
      stopped = true;
      notifyAll();
    }
    if (worker != null) {
      worker.interrupt();
      worker.join(10_000);
    }
    super.serviceStop();
  }
}
