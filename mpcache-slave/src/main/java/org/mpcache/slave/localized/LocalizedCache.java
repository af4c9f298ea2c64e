package org.mpcache.slave.localized;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Predicate;
import javax.annotation.concurrent.GuardedBy;
import org.apache.hadoop.classification.VisibleForTesting;
import org.mpcache.common.BlockKey;
import org.mpcache.common.protocolPB.LocalizedGrant;
import org.mpcache.common.protocolPB.LocalizedJob;
import org.mpcache.common.protocolPB.RequestChecks;
import org.mpcache.slave.space.DynamicSpaceTuner;
import org.mpcache.slave.space.EvictionPlan;
import org.mpcache.slave.space.ForegroundActivity;
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
 * to the master's Dynamic Space Manager through the {@link SpaceManagerLink}. The peak counts
 * granted bytes, so it errs low for a job the SSD turned away.
 *
 * <p>The loop closes at a job's start: the first request that describes a job asks the master for
 * its prediction (without waiting) and applies the last prediction this cache received for the same
 * job type and input size, if any; a prediction that arrives later applies to the job's
 * applications still running here. A prediction from history makes the tuner hold pool units for
 * the job's remaining need ({@link DynamicSpaceTuner#holdForLocalized}) until its application
 * ends; a cold-start answer leaves the fixed split. Each application applies one prediction from
 * history at most: a fresher one serves the next job.
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
  private final Predicate<BlockKey> heldByReaders;
  private final Consumer<List<BlockKey>> excludedInputDeleter;
  private final SpaceManagerLink spaceManager;
  /** Hears of the bytes granted: the SSD writes a task makes next. */
  private final ForegroundActivity foreground;
  /** By attempt id. */
  @GuardedBy("spaceLock")
  private final Map<String, AttemptGrants> attempts = new HashMap<>();
  /** By application id: the applications holding or having held grants here. */
  @GuardedBy("spaceLock")
  private final Map<String, AppUsage> apps = new HashMap<>();
  private final AtomicLong bytesGranted = new AtomicLong();
  private final AtomicLong bytesDenied = new AtomicLong();
  private final AtomicLong bytesReturned = new AtomicLong();
  private final AtomicLong predictionsApplied = new AtomicLong();
  /** The last prediction received per job type and input size, least recently used first. */
  @GuardedBy("spaceLock")
  private final Map<LocalizedJob, SpacePrediction> predictions =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<LocalizedJob, SpacePrediction> eldest) {
          return size() > MAX_PREDICTIONS;
        }
      };
  /** How many predictions the cache keeps, and how many running jobs' predictions are reported. */
  static final int MAX_PREDICTIONS = RequestChecks.MAX_JOBS_PER_HEARTBEAT;

  /**
   * @param tuner the slave's tuner, shared with its Input Cache
   * @param spaceLock the lock the slave holds around every call to {@code tuner}
   * @param excluder asks the master which cached datasets to drop for localized data
   * @param heldByReaders whether readers hold a cached input block open (its bytes stay on the
   *     SSD, and accounted, until they close it)
   * @param excludedInputDeleter deletes input blocks the tuner excluded, and the plan's blocks
   *     readers held (called without the lock, before the grant that needed them is returned)
   * @param spaceManager hears of described jobs' starts and peaks (called without the lock)
   * @param foreground counts the bytes granted as foreground work on the SSD
   */
  public LocalizedCache(DynamicSpaceTuner tuner, Object spaceLock, InputExcluder excluder,
      Predicate<BlockKey> heldByReaders, Consumer<List<BlockKey>> excludedInputDeleter,
      SpaceManagerLink spaceManager, ForegroundActivity foreground) {
    this.heldByReaders = Objects.requireNonNull(heldByReaders, "heldByReaders");
    this.spaceManager = Objects.requireNonNull(spaceManager, "spaceManager");
    this.foreground = Objects.requireNonNull(foreground, "foreground");
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
    boolean started;
    synchronized (spaceLock) {
      requireOwnAttemptLocked(applicationId, containerId, attemptId);
      started = jobStartedLocked(applicationId, job);
      r = tuner.reserveLocalized(bytes);
      shortfall = r.reserved() ? Optional.empty() : tuner.shortfall(bytes);
      recordGrantLocked(r, applicationId, containerId, attemptId, bytes);
    }
    if (started) {
      spaceManager.jobStarted(job);
    }
    List<BlockKey> held = List.of();
    if (shortfall.isPresent()) {
      DynamicSpaceTuner.Shortfall s = shortfall.get();
      EvictionPlan plan = excluder.planExclusion(s.dir(), s.lacking());
      // Blocks readers hold open stay accounted until the store releases them, when the last
      // reader closes: removed now, their room is not granted yet.
      held = plan.blocks().stream().filter(heldByReaders).toList();
      Set<BlockKey> heldSet = Set.copyOf(held);
      synchronized (spaceLock) {
        requireOwnAttemptLocked(applicationId, containerId, attemptId);
        r = tuner.reserveLocalizedExcluding(bytes, s.dir(), plan, heldSet::contains);
        recordGrantLocked(r, applicationId, containerId, attemptId, bytes);
      }
    }
    if (!r.excluded().isEmpty() || !held.isEmpty()) {
      LOG.info("Excluded {} cached input blocks from the Dynamic Pool for {} localized bytes"
          + " ({} more that readers hold open go when they close them)", r.excluded().size(),
          bytes, held.size());
      List<BlockKey> removed = new ArrayList<>(r.excluded());
      removed.addAll(held);
      excludedInputDeleter.accept(removed);
    }
    (r.reserved() ? bytesGranted : bytesDenied).addAndGet(bytes);
    if (!r.reserved()) {
      return LocalizedGrant.denied("No room for " + bytes + " localized bytes on the SSD");
    }
    foreground.record(bytes);
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

  /**
   * Notes the application and, the first time a request describes its job, applies the last
   * prediction received for that job.
   *
   * @return whether the job started here now (its prediction is to be asked for)
   */
  @GuardedBy("spaceLock")
  private boolean jobStartedLocked(String applicationId, LocalizedJob job) {
    AppUsage app = apps.computeIfAbsent(applicationId, a -> new AppUsage());
    if (!job.isKnown() || app.job.isKnown()) {
      return false;
    }
    app.job = job;
    SpacePrediction known = predictions.get(job);
    if (known != null) {
      applyLocked(applicationId, app, known);
    }
    return true;
  }

  /**
   * A prediction the master answered: kept for the next jobs of its type and input size, and
   * applied to the running applications of that job that have none from history yet.
   */
  public void predictionArrived(SpacePrediction prediction) {
    synchronized (spaceLock) {
      predictions.put(prediction.job(), prediction);
      for (Map.Entry<String, AppUsage> e : apps.entrySet()) {
        if (e.getValue().job.equals(prediction.job())) {
          applyLocked(e.getKey(), e.getValue(), prediction);
        }
      }
    }
  }

  /**
   * Starts an application's split from a prediction: a prediction from history holds pool units
   * for what the job is predicted to need beyond what it holds already; a cold-start one changes
   * nothing. An application that applied a prediction from history keeps it.
   */
  @GuardedBy("spaceLock")
  private void applyLocked(String applicationId, AppUsage app, SpacePrediction prediction) {
    if (app.prediction != null && app.prediction.fromHistory()) {
      return;
    }
    app.prediction = prediction;
    if (!prediction.fromHistory()) {
      return;
    }
    long remaining = Math.max(0, prediction.localizedBytes() - grantedBytesLocked(applicationId));
    long lent = tuner.holdForLocalized(applicationId, remaining);
    predictionsApplied.incrementAndGet();
    LOG.info("Application {} ({} of {} input bytes) starts from a predicted {} localized bytes: "
        + "{} bytes of pool units lent up front", applicationId, prediction.job().jobType(),
        prediction.job().inputBytes(), prediction.localizedBytes(), lent);
  }

  /**
   * The prediction each described job running here started from, by application id (at most
   * {@value #MAX_PREDICTIONS}): from history, or the cold-start default (the Localized Cache's own
   * capacity) while none from history applies.
   */
  public List<SpacePrediction> predictionsInUse() {
    synchronized (spaceLock) {
      long own = tuner.snapshot().localizedCacheCapacity();
      List<SpacePrediction> out = new ArrayList<>();
      for (AppUsage app : new TreeMap<>(apps).values()) {
        if (out.size() == MAX_PREDICTIONS) {
          break;
        }
        if (app.prediction != null && app.prediction.fromHistory()) {
          out.add(app.prediction);
        } else if (app.job.isKnown()) {
          out.add(new SpacePrediction(app.job, own, false));
        }
      }
      return out;
    }
  }

  /** Predictions from history applied to applications since the slave started. */
  public long predictionsApplied() {
    return predictionsApplied.get();
  }

  @GuardedBy("spaceLock")
  private void recordGrantLocked(Reservation r, String applicationId, String containerId,
      String attemptId, long bytes) {
    if (!r.reserved()) {
      return;
    }
    AttemptGrants grants = attempts.computeIfAbsent(attemptId,
        a -> new AttemptGrants(applicationId, containerId));
    grants.reserved.merge(r.dir(), bytes, Long::sum);
    AppUsage app = apps.computeIfAbsent(applicationId, a -> new AppUsage());
    app.peak = Math.max(app.peak, grantedBytesLocked(applicationId));
  }

  /**
   * The bytes an attempt leaves in {@code dir} after its container ends: its grant there shrinks
   * to them (never grows beyond the grant).
   */
  public void reportRetained(String applicationId, String containerId, String attemptId,
      String dir, long bytes) {
    synchronized (spaceLock) {
      AttemptGrants grants = grantsInLocked(applicationId, containerId, attemptId, dir, bytes,
          "Retained");
      long reserved = grants.reserved.get(dir);
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

  /**
   * Gives back {@code bytes} of an attempt's grant in {@code dir} before its container ends: a
   * task asks for room by an estimate (a spill's records before its combiner, a merge's inputs),
   * and once the file is written or deleted the rest would otherwise stay reserved until the
   * container ends, pushing later requests into the pool and into excluding cached input. At most
   * the grant beyond the attempt's retained bytes is given back; lent pool units return by the
   * guard rule as at a container's end.
   *
   * @throws IllegalArgumentException when the attempt holds no grant in {@code dir}
   */
  public void returnSpace(String applicationId, String containerId, String attemptId,
      String dir, long bytes) {
    synchronized (spaceLock) {
      AttemptGrants grants = grantsInLocked(applicationId, containerId, attemptId, dir, bytes,
          "Returned");
      long reserved = grants.reserved.get(dir);
      long back = Math.min(bytes, reserved - grants.retained.getOrDefault(dir, 0L));
      if (back > 0) {
        tuner.releaseLocalized(dir, back);
        grants.reserved.put(dir, reserved - back);
        bytesReturned.addAndGet(back);
      }
    }
  }

  /**
   * The grants of an attempt of the caller's own that holds one in {@code dir}, for a call about
   * {@code bytes} of it ({@code what}: retained or returned).
   *
   * @throws IllegalArgumentException when {@code bytes} is negative, the attempt is another
   *     application's or container's, or it holds no grant in {@code dir}
   */
  @GuardedBy("spaceLock")
  private AttemptGrants grantsInLocked(String applicationId, String containerId,
      String attemptId, String dir, long bytes, String what) {
    if (bytes < 0) {
      throw new IllegalArgumentException(what + " bytes must not be negative: " + bytes
          + " (attempt " + attemptId + ")");
    }
    requireOwnAttemptLocked(applicationId, containerId, attemptId);
    AttemptGrants grants = attempts.get(attemptId);
    if (grants == null || !grants.reserved.containsKey(dir)) {
      throw new IllegalArgumentException("Invalid dir " + dir + ": attempt " + attemptId
          + " holds no grant there; ask for space before writing there");
    }
    return grants;
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
      tuner.releaseHold(applicationId);
      app = apps.remove(applicationId);
    }
    // An application that was never granted room here held nothing worth recording.
    if (app != null && app.job.isKnown() && app.peak > 0) {
      spaceManager.jobFinished(app.job, app.peak);
    }
  }

  /**
   * The NodeManager's view of this node: every container not in {@code containerIds} ends as at
   * {@link #containerFinished}, and every application not in {@code applicationIds} as at
   * {@link #applicationFinished}.
   */
  public void runningOnNode(Collection<String> applicationIds, Collection<String> containerIds) {
    Set<String> apps = Set.copyOf(applicationIds);
    Set<String> running = Set.copyOf(containerIds);
    Set<String> endedApps = new TreeSet<>();
    Set<String> endedContainers = new TreeSet<>();
    synchronized (spaceLock) {
      for (String app : this.apps.keySet()) {
        if (!apps.contains(app)) {
          endedApps.add(app);
        }
      }
      for (AttemptGrants grants : attempts.values()) {
        if (!apps.contains(grants.applicationId)) {
          endedApps.add(grants.applicationId);
        } else if (!running.contains(grants.containerId)
            && !grants.reserved.equals(grants.retained)) {
          endedContainers.add(grants.containerId);
        }
      }
    }
    if (!endedApps.isEmpty() || !endedContainers.isEmpty()) {
      LOG.info("The NodeManager no longer runs applications {} and containers {} that held"
          + " localized grants here: their finish notices never arrived; ending their grants",
          endedApps, endedContainers);
    }
    // Each is idempotent: a notice that arrives meanwhile finds nothing left to release.
    endedContainers.forEach(this::containerFinished);
    endedApps.forEach(this::applicationFinished);
  }

  /** Bytes requested and granted on the SSD since the slave started (requests, not writes). */
  public long bytesGranted() {
    return bytesGranted.get();
  }

  /** Bytes requested and denied (so written to the HDDs) since the slave started. */
  public long bytesDenied() {
    return bytesDenied.get();
  }

  /**
   * Granted bytes tasks gave back before their containers ended ({@link #returnSpace}): what
   * their estimates exceeded the files they wrote, and the files they deleted.
   */
  public long bytesReturned() {
    return bytesReturned.get();
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

  /**
   * One application's job, peak granted bytes and the prediction from history it started from
   * (null: none yet) on this node; guarded by {@code spaceLock}.
   */
  private static final class AppUsage {
    LocalizedJob job = LocalizedJob.UNKNOWN;
    long peak;
    SpacePrediction prediction;
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
