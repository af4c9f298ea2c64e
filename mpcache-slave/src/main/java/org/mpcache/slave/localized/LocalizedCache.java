package org.mpcache.slave.localized;

import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import javax.annotation.concurrent.GuardedBy;
import org.apache.hadoop.classification.VisibleForTesting;
import org.mpcache.common.BlockKey;
import org.mpcache.common.protocolPB.LocalizedGrant;
import org.mpcache.common.protocolPB.LocalizedJob;
import org.mpcache.slave.space.DynamicSpaceTuner;
import org.mpcache.slave.space.EvictionPlan;
import org.mpcache.slave.space.InputExcluder;
import org.mpcache.slave.space.Reservation;
import org.mpcache.slave.space.SpaceSnapshot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The slave's Localized Cache: grants task attempts room for localized data on the SSD through the
 * {@link DynamicSpaceTuner} and remembers every grant by application, container and attempt, so that
 * the space comes back when the container ends (spills, reduce-side merges) or when the application
 * ends (retained map outputs, which the ShuffleHandler serves until then).
 *
 * <p>A grant's state goes GRANTED (reserved before the task writes) to RETAINED (the attempt reported
 * the bytes it leaves behind) to released; a container's end releases GRANTED bytes, an application's
 * end releases everything. Reservations err high: tasks ask with MapTask's estimates scaled up, and a
 * report of retained bytes shrinks the reservation to what was written. When a grant needs cached
 * input excluded from the Dynamic Pool, the excluded blocks are handed to the slave's deleter before
 * the grant is returned, so no writer gets space that still holds input data.
 *
 * <p>Per application it also keeps the job's type and input size (as its tasks describe it) and the
 * peak localized bytes it held on this node; when the application ends, a described job's peak goes
 * to the job listener (the slave reports it to the master's Dynamic Space Manager). The peak counts
 * granted bytes, so it errs low for a job the SSD turned away.
 *
 * <p>It trusts its callers: who may ask for and release which container's room is decided before,
 * by {@link OwnerCheckedLocalized}, which serves it over RPC.
 *
 * <p>Thread-safe. Lock order: 1. {@code spaceLock} (the slave's lock around its tuner); the
 * excluder (a call to the master) and the deleter run without it.
 */
public final class LocalizedCache {
  private static final Logger LOG = LoggerFactory.getLogger(LocalizedCache.class);

  private final DynamicSpaceTuner tuner;
  private final Object spaceLock;
  private final InputExcluder excluder;
  private final Consumer<List<BlockKey>> excludedInputDeleter;
  private final BiConsumer<LocalizedJob, Long> jobFinished;
  /** By attempt id. */
  @GuardedBy("spaceLock")
  private final Map<String, AttemptGrants> attempts = new HashMap<>();
  /** By application id: the applications holding or having held grants here. */
  @GuardedBy("spaceLock")
  private final Map<String, AppUsage> apps = new HashMap<>();
  private final AtomicLong bytesGranted = new AtomicLong();
  private final AtomicLong bytesDenied = new AtomicLong();

  /**
   * @param tuner the slave's tuner, shared with its Input Cache
   * @param spaceLock the lock the slave holds around every call to {@code tuner}
   * @param excluder asks the master which cached datasets to drop for localized data
   * @param excludedInputDeleter deletes input blocks the tuner excluded (called without the lock,
   *     before the grant that needed them is returned)
   * @param jobFinished receives a described job's peak localized bytes on this node when its
   *     application ends (called without the lock)
   */
  public LocalizedCache(DynamicSpaceTuner tuner, Object spaceLock, InputExcluder excluder,
      Consumer<List<BlockKey>> excludedInputDeleter, BiConsumer<LocalizedJob, Long> jobFinished) {
    this.jobFinished = Objects.requireNonNull(jobFinished, "jobFinished");
    this.tuner = Objects.requireNonNull(tuner, "tuner");
    this.spaceLock = Objects.requireNonNull(spaceLock, "spaceLock");
    this.excluder = Objects.requireNonNull(excluder, "excluder");
    this.excludedInputDeleter = Objects.requireNonNull(excludedInputDeleter,
        "excludedInputDeleter");
  }

  /**
   * Grants room for about {@code bytes} localized bytes of an attempt, excluding cached input when
   * the Localized Cache and the pool lack it; denial is an ordinary outcome.
   *
   * @throws IllegalArgumentException when an id is empty, {@code bytes} is not positive, or the
   *     attempt holds grants under another application or container
   */
  public LocalizedGrant requestSpace(String applicationId, String containerId, String attemptId,
      long bytes, LocalizedJob job) {
    requireId(applicationId, "application id");
    requireId(containerId, "container id");
    requireId(attemptId, "attempt id");
    if (bytes <= 0) {
      throw new IllegalArgumentException("Requested localized bytes must be positive: " + bytes
          + " (attempt " + attemptId + ")");
    }
    // Plan under the lock, ask the master outside it, then act under it again: a slow master
    // delays this request only, never heartbeats, fills or other tasks' space calls.
    Reservation r;
    Optional<DynamicSpaceTuner.Shortfall> shortfall;
    synchronized (spaceLock) {
      requireOwnAttemptLocked(applicationId, containerId, attemptId);
      r = tuner.reserveLocalized(bytes);
      shortfall = r.reserved() ? Optional.empty() : tuner.shortfall(bytes);
      recordGrantLocked(r, applicationId, containerId, attemptId, bytes, job);
    }
    if (shortfall.isPresent()) {
      DynamicSpaceTuner.Shortfall s = shortfall.get();
      EvictionPlan plan = excluder.planExclusion(s.dir(), s.lacking());
      synchronized (spaceLock) {
        requireOwnAttemptLocked(applicationId, containerId, attemptId);
        r = tuner.reserveLocalizedExcluding(bytes, s.dir(), plan);
        recordGrantLocked(r, applicationId, containerId, attemptId, bytes, job);
      }
    }
    if (!r.excluded().isEmpty()) {
      LOG.info("Excluded {} cached input blocks from the Dynamic Pool for {} localized bytes",
          r.excluded().size(), bytes);
      excludedInputDeleter.accept(r.excluded());
    }
    (r.reserved() ? bytesGranted : bytesDenied).addAndGet(bytes);
    if (!r.reserved()) {
      return LocalizedGrant.denied("No room for " + bytes + " localized bytes on the SSD");
    }
    return LocalizedGrant.granted(r.dir());
  }

  /**
   * Refuses a request naming an attempt that holds grants under another application or container:
   * its grants would otherwise be merged into that attempt's and outlive the caller's container
   * and application.
   */
  @GuardedBy("spaceLock")
  private void requireOwnAttemptLocked(String applicationId, String containerId,
      String attemptId) {
    AttemptGrants grants = attempts.get(attemptId);
    if (grants != null && !(grants.applicationId.equals(applicationId)
        && grants.containerId.equals(containerId))) {
      throw new IllegalArgumentException("Invalid attemptId " + attemptId + ": it holds grants "
          + "of applicationId " + grants.applicationId + " and containerId "
          + grants.containerId + ", not " + applicationId + " and " + containerId);
    }
  }

  @GuardedBy("spaceLock")
  private void recordGrantLocked(Reservation r, String applicationId, String containerId,
      String attemptId, long bytes, LocalizedJob job) {
    if (!r.reserved()) {
      return;
    }
    AttemptGrants grants = attempts.computeIfAbsent(attemptId,
        a -> new AttemptGrants(applicationId, containerId));
    grants.reserved.merge(r.dir(), bytes, Long::sum);
    AppUsage app = apps.computeIfAbsent(applicationId, a -> new AppUsage());
    if (job.isKnown()) {
      app.job = job;
    }
    app.peak = Math.max(app.peak, grantedBytesLocked(applicationId));
  }

  /**
   * The bytes an attempt leaves in {@code dir} after its container ends: its grant there shrinks
   * to them (never grows beyond the grant).
   */
  public void reportRetained(String applicationId, String containerId, String attemptId,
      String dir, long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("Retained bytes must not be negative: " + bytes
          + " (attempt " + attemptId + ")");
    }
    synchronized (spaceLock) {
      requireOwnAttemptLocked(applicationId, containerId, attemptId);
      AttemptGrants grants = attempts.get(attemptId);
      Long reserved = grants == null ? null : grants.reserved.get(dir);
      if (reserved == null) {
        throw new IllegalArgumentException("Invalid dir " + dir + ": attempt " + attemptId
            + " holds no grant there; ask for space before writing there");
      }
      long kept = Math.min(bytes, reserved);
      if (bytes > reserved) {
        LOG.warn("Attempt {} wrote {} bytes in {} beyond its grant of {}", attemptId, bytes, dir,
            reserved);
      }
      tuner.releaseLocalized(dir, reserved - kept);
      grants.reserved.put(dir, kept);
      grants.retained.put(dir, kept);
    }
  }

  /** A container stopped: the grants of its attempts end, except retained bytes. */
  public void containerFinished(String containerId) {
    synchronized (spaceLock) {
      for (Iterator<AttemptGrants> it = attempts.values().iterator(); it.hasNext();) {
        AttemptGrants grants = it.next();
        if (grants.containerId.equals(containerId)) {
          for (Map.Entry<String, Long> e : grants.reserved.entrySet()) {
            tuner.releaseLocalized(e.getKey(),
                e.getValue() - grants.retained.getOrDefault(e.getKey(), 0L));
          }
          grants.reserved.clear();
          grants.reserved.putAll(grants.retained);
          if (grants.reserved.isEmpty()) {
            it.remove();
          }
        }
      }
    }
  }

  /** An application finished on this node: all its grants end. */
  public void applicationFinished(String applicationId) {
    AppUsage app;
    synchronized (spaceLock) {
      for (Iterator<AttemptGrants> it = attempts.values().iterator(); it.hasNext();) {
        AttemptGrants grants = it.next();
        if (grants.applicationId.equals(applicationId)) {
          grants.reserved.forEach(tuner::releaseLocalized);
          it.remove();
        }
      }
      app = apps.remove(applicationId);
    }
    if (app != null && app.job.isKnown()) {
      jobFinished.accept(app.job, app.peak);
    }
  }

  /** Bytes requested and granted on the SSD since the slave started (requests, not writes). */
  public long bytesGranted() {
    return bytesGranted.get();
  }

  /** Bytes requested and denied (so written to the HDDs) since the slave started. */
  public long bytesDenied() {
    return bytesDenied.get();
  }

  /** The node's SSD split as the tuner accounts it now. */
  public SpaceSnapshot snapshot() {
    synchronized (spaceLock) {
      return tuner.snapshot();
    }
  }

  /** Localized bytes currently granted to an application's attempts on this node. */
  @VisibleForTesting
  long grantedBytes(String applicationId) {
    synchronized (spaceLock) {
      return grantedBytesLocked(applicationId);
    }
  }

  @GuardedBy("spaceLock")
  private long grantedBytesLocked(String applicationId) {
    long sum = 0;
    for (AttemptGrants grants : attempts.values()) {
      if (grants.applicationId.equals(applicationId)) {
        for (long b : grants.reserved.values()) {
          sum += b;
        }
      }
    }
    return sum;
  }

  private static void requireId(String id, String what) {
    if (id == null || id.isEmpty()) {
      throw new IllegalArgumentException("The " + what + " must not be empty");
    }
  }

  /** One application's job and peak granted bytes on this node; guarded by {@code spaceLock}. */
  private static final class AppUsage {
    LocalizedJob job = LocalizedJob.UNKNOWN;
    long peak;
  }

  /** One attempt's grants, by SSD directory; guarded by {@code spaceLock}. */
  private static final class AttemptGrants {
    final String applicationId;
    final String containerId;
    final Map<String, Long> reserved = new HashMap<>();
    final Map<String, Long> retained = new HashMap<>();

    AttemptGrants(String applicationId, String containerId) {
      this.applicationId = applicationId;
      this.containerId = containerId;
    }
  }
}
