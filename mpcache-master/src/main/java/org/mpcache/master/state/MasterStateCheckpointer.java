package org.mpcache.master.state;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.apache.hadoop.service.AbstractService;
import org.mpcache.common.proto.AdminProtos.CheckpointStatusProto;
import org.mpcache.common.proto.MasterStateProtos.MasterStateProto;
import org.mpcache.common.proto.MasterStateProtos.PolicyStateProto;
import org.mpcache.master.MasterConfigKeys;
import org.mpcache.master.admin.PrefetchPlanner;
import org.mpcache.master.arbitrator.ReplaceArbitrator;
import org.mpcache.master.control.OperatorControls;
import org.mpcache.master.registry.SlaveRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the master's state directory ({@code mpcache.master.state.dir}): at start, before the RPC
 * server opens, it restores what the last checkpoint holds (the policy's per-dataset state,
 * operators' pins, quotas and times to live, decommission flags, queued prefetches); then it
 * checkpoints every {@code mpcache.master.state.checkpoint.interval.ms} and once more at stop.
 * Slaves re-register afterwards and their blocks are adopted into the restored datasets, which
 * keep their standing. Without a state directory it does nothing and the report says so.
 *
 * <p>A checkpoint that cannot be read never stops the master: the error, naming the file, is
 * logged, the file is moved aside to {@code master-state.corrupt}, and the master relearns. A
 * checkpoint that cannot be written is logged and counted; the previous one stays.
 *
 * <p>Thread-safe. Each part is snapshotted under its owner's lock, one at a time, and the file
 * is written holding none; writes run on one thread (the periodic one, then, once it is shut
 * down, the stopping one), so they never overlap.
 */
public final class MasterStateCheckpointer extends AbstractService {
  private static final Logger LOG = LoggerFactory.getLogger(MasterStateCheckpointer.class);

  private final MasterStateFile file;
  private final long intervalMs;
  private final ReplaceArbitrator arbitrator;
  private final SlaveRegistry registry;
  private final PrefetchPlanner prefetch;
  private final LongSupplier wallClock;
  private final AtomicLong written = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private volatile long lastMs;
  private volatile long lastBytes;
  private volatile String lastError;
  private volatile String restored = "nothing";
  private ScheduledExecutorService timer;

  /**
   * @param file the checkpoint file; null when no state directory is set
   * @param intervalMs the time between two periodic checkpoints, at least 1
   */
  public MasterStateCheckpointer(MasterStateFile file, long intervalMs,
      ReplaceArbitrator arbitrator, SlaveRegistry registry, PrefetchPlanner prefetch,
      LongSupplier wallClock) {
    super(MasterStateCheckpointer.class.getSimpleName());
    this.file = file;
    this.intervalMs = intervalMs;
    this.arbitrator = arbitrator;
    this.registry = registry;
    this.prefetch = prefetch;
    this.wallClock = wallClock;
  }

  @Override
  protected void serviceStart() throws Exception {
    if (file == null) {
      LOG.info("{} is not set: the policy's dataset state, decommission flags and queued "
          + "prefetches are kept in memory only, and relearned after a restart",
          MasterConfigKeys.STATE_DIR_KEY);
      return;
    }
    OwnerOnlyFiles.createDirectories(file.path().getParent());
    restore();
    timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "MasterStateCheckpointer");
      t.setDaemon(true);
      return t;
    });
    timer.scheduleWithFixedDelay(this::checkpoint, intervalMs, intervalMs, TimeUnit.MILLISECONDS);
  }

  /** Loads the checkpoint and hands each part to its owner; a bad one is moved aside. */
  private void restore() throws IOException {
    Optional<MasterStateProto> loaded;
    try {
      loaded = file.load();
      if (loaded.isPresent()) {
        restored = apply(loaded.get());
        // Until this master writes its own, the last checkpoint is the one it restored.
        lastMs = loaded.get().getWrittenMs();
        lastBytes = Files.size(file.path());
      }
    } catch (MasterStateFile.FormatException | IllegalArgumentException e) {
      Path aside = file.moveAside();
      restored = "nothing: " + e.getMessage() + " (moved to " + aside + ")";
      LOG.error("Cannot restore the master's state from {}: {}; moved it to {}, relearning",
          file.path(), e.getMessage(), aside);
      return;
    }
    if (loaded.isPresent()) {
      LOG.info("Restored {} from {}", restored, file.path());
    } else {
      LOG.info("No checkpoint in {}: the master starts with what slaves report", file.path()
          .getParent());
    }
  }

  /**
   * The operators' controls are checked first, then the policy validates everything before it
   * changes anything: a bad checkpoint changes nothing.
   */
  private String apply(MasterStateProto s) {
    try {
      OperatorControls.check(s);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file.path() + ": " + e.getMessage(), e);
    }
    String policy = "no policy state";
    if (s.hasPolicy()) {
      PolicyStateProto p = s.getPolicy();
      try {
        policy = arbitrator.restorePolicyState(p) ? p.getDatasetsCount() + " datasets"
            : "no policy state (written by policy " + p.getPolicy() + ", not "
                + arbitrator.policyName() + ")";
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(file.path() + ": policy state: " + e.getMessage(), e);
      }
    }
    String controls = arbitrator.restoreControls(s);
    registry.restoreDecommissioned(s.getDecommissionedList());
    int queued = 0;
    int dropped = 0;
    if (s.hasPrefetch()) {
      dropped = prefetch.restore(s.getPrefetch());
      queued = s.getPrefetch().getQueuedList().stream().mapToInt(q -> q.getCommandsCount()).sum()
          - dropped;
    }
    if (dropped > 0) {
      LOG.warn("{} queued prefetch commands dropped: more than {}", dropped,
          MasterConfigKeys.PREFETCH_QUEUE_MAX_BLOCKS_KEY);
    }
    return policy + ", " + controls + ", " + s.getDecommissionedCount()
        + " decommissioned slaves, " + queued
        + " queued prefetches (checkpoint of " + s.getWrittenMs() + " ms)";
  }

  /** The master's state now, each part snapshotted under its owner's lock. */
  MasterStateProto snapshot() {
    MasterStateProto.Builder b = MasterStateProto.newBuilder().setWrittenMs(
        wallClock.getAsLong());
    PolicyStateProto policy = arbitrator.policyState();
    if (policy != null) {
      b.setPolicy(policy);
    }
    arbitrator.exportControls(b);
    return b.addAllDecommissioned(registry.decommissionFlags())
        .setPrefetch(prefetch.queueState()).build();
  }

  /** Writes one checkpoint; a failure is logged and counted, never thrown. */
  void checkpoint() {
    try {
      MasterStateProto s = snapshot();
      lastBytes = file.save(s);
      lastMs = s.getWrittenMs();
      lastError = null;
      written.incrementAndGet();
    } catch (IOException | RuntimeException e) {
      failed.incrementAndGet();
      lastError = e.getMessage();
      LOG.error("Checkpoint of the master's state to {} failed: {}", file.path(), e.toString());
    }
  }

  @Override
  protected void serviceStop() throws Exception {
    if (timer != null) {
      timer.shutdown();
      if (!timer.awaitTermination(60, TimeUnit.SECONDS)) {
        LOG.warn("A checkpoint still runs after 60 s; the last one is skipped");
        return;
      }
      checkpoint();
    }
  }

  /** Checkpoints written since start. */
  public long written() {
    return written.get();
  }

  /** Checkpoints that failed since start. */
  public long failed() {
    return failed.get();
  }

  /**
   * What {@code mpcache admin report} shows of the checkpoints: the last one is this master's, or
   * the one it restored at start.
   */
  public CheckpointStatusProto status() {
    CheckpointStatusProto.Builder b = CheckpointStatusProto.newBuilder()
        .setWritten(written.get()).setFailed(failed.get());
    if (file == null) {
      return b.build();
    }
    b.setStateDir(file.path().getParent().toString()).setRestored(restored);
    if (lastMs != 0) {
      b.setLastMs(lastMs).setLastBytes(lastBytes);
    }
    String error = lastError;
    if (error != null) {
      b.setLastError(error);
    }
    return b.build();
  }
}
