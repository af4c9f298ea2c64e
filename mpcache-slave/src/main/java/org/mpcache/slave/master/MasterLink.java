package org.mpcache.slave.master;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import javax.annotation.concurrent.GuardedBy;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.service.AbstractService;
import org.apache.hadoop.util.Time;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.proto.MpCacheProtos.JobSpacePredictionProto;
import org.mpcache.common.proto.MpCacheProtos.JobSpaceQueryProto;
import org.mpcache.common.proto.MpCacheProtos.JobSpaceUsageProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveInfoProto;
import org.mpcache.common.proto.MpCacheProtos.SpaceReportProto;
import org.mpcache.common.proto.SlaveMasterProtos.BlockReportRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.CachedBlockProto;
import org.mpcache.common.proto.SlaveMasterProtos.HeartbeatRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.HeartbeatResponseProto;
import org.mpcache.common.proto.SlaveMasterProtos.HitReportRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.HitReportResponseProto;
import org.mpcache.common.proto.SlaveMasterProtos.PrefetchCommandProto;
import org.mpcache.common.proto.SlaveMasterProtos.ReclaimRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.ReclaimResponseProto;
import org.mpcache.common.proto.SlaveMasterProtos.RegisterSlaveRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.RegisterSlaveResponseProto;
import org.mpcache.common.proto.SlaveMasterProtos.ReplaceRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.ReplaceResponseProto;
import org.mpcache.common.proto.SlaveMasterProtos.UnregisterSlaveRequestProto;
import org.mpcache.common.protocolPB.LocalizedJob;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.common.protocolPB.RpcSupport;
import org.mpcache.common.protocolPB.SlaveMasterProtocolPB;
import org.mpcache.slave.localized.SpaceManagerLink;
import org.mpcache.slave.store.CachedBlock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The slave's connection to the master: it registers (with every block the slave holds), sends
 * heartbeats with the space split, counters and the per-dataset figures that changed, the
 * localized space of jobs that ended, the jobs that started (whose predicted localized need the
 * answer carries back) and the predictions in use,
 * forwards block and hit reports in batches, carries replace and reclaim requests, and hands the
 * evictions the master queues for this slave to a listener.
 *
 * <p>The link registers again only when the master answers that it does not know the slave
 * ({@code reregister}: it restarted, or expired the slave). A timeout, a lost connection or an
 * error answer leaves the registration as it is: the link marks the master unreachable, retries
 * with a backoff from the heartbeat interval up to {@value #MAX_BACKOFF_MS} ms, and keeps a block
 * report that did not go through to send first. While the master is unreachable the slave serves
 * its hits as usual and asks for no fill ({@link #requestReplace} and {@link #requestReclaim}
 * fail at once); hits the master did not receive are dropped (they only inform its policy), and
 * so is a batch the master refused.
 *
 * <p>One daemon thread does the periodic work; {@link #requestReplace} and {@link #requestReclaim}
 * block their caller for at most the RPC timeout. Thread-safe: reports are queued in concurrent
 * queues, registration state is volatile.
 */
public final class MasterLink extends AbstractService implements SpaceManagerLink, MasterReports {
  private static final Logger LOG = LoggerFactory.getLogger(MasterLink.class);
  private static final int MAX_BATCH = 1_000;
  /** The longest wait between two attempts to reach an unreachable master. */
  static final long MAX_BACKOFF_MS = 10_000;

  /** What the link needs from the slave it serves. */
  public interface SlaveState {
    SlaveInfoProto info();

    SpaceReportProto space();

    SlaveCountersProto counters();

    /** The slave's figures per dataset, whose changes each heartbeat carries. */
    DatasetCounters datasetCounters();

    /** Every block the store holds, with the dataset each was cached for. */
    List<CachedBlock> cachedBlocks();

    /** Evicts blocks the master asked this slave to drop; removals are reported back. */
    void evict(List<BlockKey> blocks);

    /** Starts caching blocks the master asked this slave to read from HDFS; returns at once. */
    void prefetch(List<PrefetchCommandProto> commands);

    /** Per described job running on the slave, the prediction its split started from. */
    List<JobSpacePredictionProto> predictionsInUse();

    /** The master's predictions for jobs that started; applied at once, without blocking. */
    void predictions(List<JobSpacePredictionProto> answers);

    /**
     * Puts the SSD directories out of service back in service ({@code mpcache admin refresh});
     * returns at once.
     */
    void returnVolumes();
  }

  private final InetSocketAddress masterAddress;
  private final int rpcTimeoutMs;
  private final Supplier<SlaveState> state;
  private final Queue<BlockKey> cached = new ConcurrentLinkedQueue<>();
  private final Queue<BlockKey> removed = new ConcurrentLinkedQueue<>();
  /** The most hits that wait for a report; more are dropped (they only inform its policy). */
  public static final int MAX_QUEUED_HITS = 10_000;
  private final Queue<BlockAccessProto> hits = new ConcurrentLinkedQueue<>();
  /** The size of {@link #hits}, kept apart: the queue's own size() walks it. */
  private final AtomicInteger hitsWaiting = new AtomicInteger();
  private final AtomicLong hitsDropped = new AtomicLong();
  private final Queue<JobSpaceUsageProto> finishedJobs = new ConcurrentLinkedQueue<>();
  private final Queue<JobSpaceQueryProto> startedJobs = new ConcurrentLinkedQueue<>();
  private final Object wake = new Object();
  private volatile SlaveMasterProtocolPB proxy;
  private volatile boolean registered;
  /** Whether the last call of the link's own thread reached the master. */
  private volatile boolean reachable = true;
  /** A block report that did not reach the master, sent again before newer ones; link thread only. */
  private BlockReportRequestProto unsent;
  /** Consecutive failed passes of the link's loop, for the backoff; link thread only. */
  private int failures;
  private volatile boolean unregisterOnStop = true;
  private volatile long heartbeatIntervalMs = 1_000;
  @GuardedBy("wake")
  private boolean running;
  private Thread thread;
  /** Runs the calls of callers who wait for the master, so that the wait can be bounded. */
  private ExecutorService callers;
  private boolean warnedUnreachable;

  public MasterLink(InetSocketAddress masterAddress, int rpcTimeoutMs, Supplier<SlaveState> state) {
    super(MasterLink.class.getSimpleName());
    this.masterAddress = masterAddress;
    this.rpcTimeoutMs = rpcTimeoutMs;
    this.state = state;
  }

  @Override
  protected void serviceStart() throws Exception {
    proxy = RpcSupport.proxy(SlaveMasterProtocolPB.class, masterAddress, getConfig(),
        rpcTimeoutMs);
    callers = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "mpcache-master-call");
      t.setDaemon(true);
      return t;
    });
    synchronized (wake) {
      running = true;
    }
    thread = new Thread(this::run, "mpcache-master-link");
    thread.setDaemon(true);
    thread.start();
    super.serviceStart();
  }

  @Override
  protected void serviceStop() throws Exception {
    synchronized (wake) {
      running = false;
      wake.notifyAll();
    }
    if (thread != null) {
      thread.join(10_000);
    }
    unregister();
    if (callers != null) {
      callers.shutdown();
    }
    RpcSupport.close(proxy);
    super.serviceStop();
  }

  /**
   * Whether stopping the link tells the master the slave is leaving (the default). Tests that
   * stand for a crashed slave turn it off, so that the master only learns of it by expiry.
   */
  public void setUnregisterOnStop(boolean on) {
    unregisterOnStop = on;
  }

  /** Whether the master has accepted this slave's registration. */
  public boolean isRegistered() {
    return registered;
  }

  /** Whether the link's last call reached the master (its answer, error or not, came back). */
  public boolean isMasterReachable() {
    return reachable;
  }

  /** Refuses a call that needs the master's answer while the link cannot count on one. */
  private void checkConnected() throws IOException {
    if (!registered) {
      throw new IOException("not registered with the master at " + masterAddress);
    }
    if (!reachable) {
      throw new IOException("the master at " + masterAddress + " did not answer the last call");
    }
  }

  @Override
  public void reportCached(BlockKey key) {
    cached.add(key);
    poke();
  }

  @Override
  public void reportRemoved(BlockKey key) {
    removed.add(key);
    poke();
  }

  /**
   * Queues a hit for the next report; dropped (and counted) when {@link #MAX_QUEUED_HITS} wait
   * already, as while the master is away or slow.
   */
  @Override
  public void reportHit(BlockAccessProto access) {
    if (hitsWaiting.incrementAndGet() > MAX_QUEUED_HITS) {
      hitsWaiting.decrementAndGet();
      hitsDropped.incrementAndGet();
      return;
    }
    hits.add(access);
  }

  /** Hits waiting for the next report to the master. */
  public int hitsQueued() {
    return hitsWaiting.get();
  }

  /** Hits dropped since start because {@link #MAX_QUEUED_HITS} were waiting. */
  public long hitsDropped() {
    return hitsDropped.get();
  }

  /** Takes the hits waiting, for a report or to forget them. */
  private List<BlockAccessProto> takeHits() {
    List<BlockAccessProto> taken = drain(hits);
    hitsWaiting.addAndGet(-taken.size());
    return taken;
  }

  /**
   * Queues a finished job's localized space for the next heartbeat (kept across re-registration).
   */
  @Override
  public void jobFinished(LocalizedJob job, long peakBytes) {
    finishedJobs.add(JobSpaceUsageProto.newBuilder().setJobType(job.jobType())
        .setInputBytes(job.inputBytes()).setLocalizedBytes(peakBytes).build());
  }

  /**
   * Queues a question for the job's predicted localized need for the next heartbeat, whose answer
   * goes to {@link SlaveState#predictions} (kept across re-registration).
   */
  @Override
  public void jobStarted(LocalizedJob job) {
    startedJobs.add(JobSpaceQueryProto.newBuilder().setJobType(job.jobType())
        .setInputBytes(job.inputBytes()).build());
  }

  private void poke() {
    synchronized (wake) {
      wake.notifyAll();
    }
  }

  /**
   * Asks the master whether to cache a block (Algorithm 1's replace request) of the file
   * {@code path} at {@code offset}, which the master checks at the NameNode before it admits the
   * block for its dataset (null: not known, and the master refuses); {@code force} (an operator's
   * prefetch -force) asks the master to skip its admission test.
   *
   * @throws IOException when the slave is not registered or the master cannot be reached
   */
  public ReplaceResponseProto requestReplace(BlockAccessProto access, long freeBytes,
      boolean force, String path, long offset) throws IOException {
    checkConnected();
    ReplaceRequestProto.Builder req = ReplaceRequestProto.newBuilder()
        .setSlaveId(state.get().info().getSlaveId()).setAccess(access).setFreeBytes(freeBytes)
        .setForce(force);
    if (path != null) {
      req.setPath(path).setOffset(offset);
    }
    ReplaceResponseProto r = withinTimeout(() -> proxy.requestReplace(null, req.build()));
    if (r.getReregister()) {
      registered = false;
      poke();
    }
    return r;
  }

  /**
   * Asks the master which cached input to give up so that {@code bytes} of the Input Cache go to
   * localized data (the Replace Arbitrator's choice of whole datasets).
   *
   * @return this slave's blocks to evict now; empty when the master frees nothing
   * @throws IOException when the slave is not registered or the master cannot be reached
   */
  public List<BlockKey> requestReclaim(long bytes) throws IOException {
    checkConnected();
    ReclaimResponseProto r = withinTimeout(() -> proxy.requestReclaim(null,
        ReclaimRequestProto.newBuilder().setSlaveId(state.get().info().getSlaveId())
            .setBytes(bytes).build()));
    if (r.getReregister()) {
      registered = false;
      poke();
    }
    return ProtoConverters.fromProtos(r.getEvictList());
  }

  /**
   * Makes a call to the master for a caller that is waiting (a reader's lookup, a task's space
   * request), giving up after the RPC timeout. Hadoop's own timeout fires only when the connection
   * falls silent, which the heartbeats sharing it prevent, so a master stuck on one call would
   * otherwise hold the caller for as long as it is stuck. The call itself goes on, on a daemon
   * thread, until the master answers or the connection drops.
   */
  private <T> T withinTimeout(RpcSupport.Call<T> call) throws IOException {
    Future<T> f = callers.submit(() -> RpcSupport.call(call));
    try {
      return f.get(rpcTimeoutMs, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      f.cancel(false);
      throw new SocketTimeoutException("the master at " + masterAddress
          + " did not answer within " + rpcTimeoutMs + " ms");
    } catch (ExecutionException e) {
      throw e.getCause() instanceof IOException ? (IOException) e.getCause()
          : new IOException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted waiting for the master at " + masterAddress);
    }
  }

  private void run() {
    long nextHeartbeat = 0;
    while (true) {
      synchronized (wake) {
        if (!running) {
          return;
        }
      }
      try {
        if (!registered) {
          register();
          nextHeartbeat = 0;
        }
        if (registered) {
          sendReports();
          long now = Time.monotonicNow();
          if (now >= nextHeartbeat) {
            heartbeat();
            nextHeartbeat = now + heartbeatIntervalMs;
          }
        }
        if (warnedUnreachable) {
          LOG.info("The mpCache master at {} answers again", masterAddress);
        }
        warnedUnreachable = false;
        reachable = true;
        failures = 0;
      } catch (IOException | RuntimeException e) {
        if (!warnedUnreachable) {
          LOG.warn("Cannot reach the mpCache master at {}: {}; retrying{}", masterAddress,
              e.getMessage(), registered ? ", still registered and serving hits" : "");
          warnedUnreachable = true;
        }
        reachable = false;
        failures++;
      }
      synchronized (wake) {
        boolean reportsWaiting = !cached.isEmpty() || !removed.isEmpty();
        if (running && (failures > 0 || !reportsWaiting)) {
          try {
            wake.wait(failures > 0 ? backoffMs()
                : registered ? Math.min(heartbeatIntervalMs, 200) : 1_000);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
          }
        }
      }
    }
  }

  /** The wait after {@code failures} failed passes: doubling from the heartbeat interval. */
  private long backoffMs() {
    long base = Math.max(100, heartbeatIntervalMs);
    return Math.min(MAX_BACKOFF_MS, base << Math.min(failures - 1, 16));
  }

  private void register() throws IOException {
    SlaveState s = state.get();
    cached.clear();
    removed.clear();
    takeHits();
    unsent = null;
    RegisterSlaveResponseProto r = RpcSupport.call(() -> proxy.registerSlave(null,
        RegisterSlaveRequestProto.newBuilder().setSlave(s.info()).setSpace(s.space())
            .addAllCachedBlocks(held(s.cachedBlocks())).build()));
    heartbeatIntervalMs = r.getHeartbeatIntervalMs();
    registered = true;
    // A master that did not know this slave has none of its figures per dataset.
    s.datasetCounters().resendAll();
    LOG.info("Registered with the mpCache master at {} as {}", masterAddress,
        s.info().getSlaveId());
    if (r.getEvictCount() > 0) {
      s.evict(ProtoConverters.fromProtos(r.getEvictList()));
    }
  }

  private static List<CachedBlockProto> held(List<CachedBlock> blocks) {
    List<CachedBlockProto> out = new ArrayList<>(blocks.size());
    for (CachedBlock b : blocks) {
      CachedBlockProto.Builder p = CachedBlockProto.newBuilder()
          .setBlock(ProtoConverters.toProto(b.key())).setLength(b.length())
          .setDatasetId(b.datasetId()).setDatasetBlocks(b.datasetBlocks());
      if (!b.file().isEmpty()) {
        p.setFile(b.file());
      }
      out.add(p.build());
    }
    return out;
  }

  /**
   * Tells the master this slave is leaving, so that it stops sending clients here and forgets the
   * slave's blocks now rather than after the expiry interval. Best effort: a master that cannot be
   * reached expires the slave as usual.
   */
  private void unregister() {
    if (proxy == null || !registered || !unregisterOnStop) {
      return;
    }
    registered = false;
    String id = state.get().info().getSlaveId();
    try {
      RpcSupport.call(() -> proxy.unregisterSlave(null,
          UnregisterSlaveRequestProto.newBuilder().setSlaveId(id).build()));
      LOG.info("Unregistered {} from the mpCache master at {}", id, masterAddress);
    } catch (IOException | RuntimeException e) {
      LOG.warn("Could not unregister {} from the mpCache master at {}: {}; it will expire there",
          id, masterAddress, e.getMessage());
    }
  }

  private void sendReports() throws IOException {
    String id = state.get().info().getSlaveId();
    while (unsent != null || !cached.isEmpty() || !removed.isEmpty()) {
      if (unsent == null) {
        // Kept until the master has it: reports are applied in order, so a failed one goes
        // first when the master answers again.
        unsent = BlockReportRequestProto.newBuilder().setSlaveId(id)
            .addAllCached(ProtoConverters.toProtos(drain(cached)))
            .addAllRemoved(ProtoConverters.toProtos(drain(removed))).build();
      }
      BlockReportRequestProto report = unsent;
      boolean again;
      try {
        again = RpcSupport.call(() -> proxy.blockReport(null, report)).getReregister();
      } catch (RemoteException refused) {
        // The master answered but would not apply it: sending it again would not help, and
        // dropping it would leave the master wrong about this slave. A registration carries
        // every block held, and the master adopts them, so it costs no cached bytes.
        LOG.warn("The master refused a block report; registering again to resend the whole "
            + "state: {}", refused.getMessage());
        again = true;
      }
      unsent = null;
      if (again) {
        registered = false;
        return;
      }
    }
    while (!hits.isEmpty()) {
      List<BlockAccessProto> h = takeHits();
      HitReportResponseProto r;
      try {
        r = RpcSupport.call(() -> proxy.reportHits(null, HitReportRequestProto.newBuilder()
            .setSlaveId(id).addAllHits(h).build()));
      } catch (RemoteException refused) {
        // The master answered: registering again would not help, and would cost the whole cache.
        // Hits only inform its policy, so the batch is dropped.
        LOG.warn("The master refused a report of {} hits; dropped them: {}", h.size(),
            refused.getMessage());
        continue;
      }
      if (r.getReregister()) {
        registered = false;
        return;
      }
    }
  }

  private static <T> List<T> drain(Queue<T> q) {
    List<T> out = new ArrayList<>();
    T t;
    while (out.size() < MAX_BATCH && (t = q.poll()) != null) {
      out.add(t);
    }
    return out;
  }

  private void heartbeat() throws IOException {
    SlaveState s = state.get();
    List<JobSpaceUsageProto> jobs = drain(finishedJobs);
    List<JobSpaceQueryProto> started = drain(startedJobs);
    DatasetCounters.Report datasets = s.datasetCounters().changed();
    HeartbeatResponseProto r;
    try {
      r = RpcSupport.call(() -> proxy.heartbeat(null,
          HeartbeatRequestProto.newBuilder().setSlaveId(s.info().getSlaveId())
              .setSpace(s.space()).setCounters(s.counters()).addAllFinishedJobs(jobs)
              .addAllStartedJobs(started).addAllPredictionsInUse(s.predictionsInUse())
              .addAllDatasets(datasets.datasets()).build()));
    } catch (IOException | RuntimeException e) {
      finishedJobs.addAll(jobs);
      startedJobs.addAll(started);
      throw e;
    }
    // The master answered: the commands below (a prefetch asks for admission on its own thread)
    // must not find the link still marked unreachable from before this answer.
    reachable = true;
    if (r.getReregister()) {
      finishedJobs.addAll(jobs);
      startedJobs.addAll(started);
      LOG.info("The master does not know this slave; registering again");
      registered = false;
      return;
    }
    datasets.taken();
    if (r.getEvictCount() > 0) {
      s.evict(ProtoConverters.fromProtos(r.getEvictList()));
    }
    if (r.getPrefetchCount() > 0) {
      s.prefetch(r.getPrefetchList());
    }
    if (r.getPredictionsCount() > 0) {
      s.predictions(r.getPredictionsList());
    }
    if (r.getReturnVolumes()) {
      s.returnVolumes();
    }
  }
}
