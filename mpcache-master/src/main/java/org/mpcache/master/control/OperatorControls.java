package org.mpcache.master.control;

import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.ToLongFunction;
import org.apache.hadoop.fs.Path;
import org.mpcache.common.proto.AdminProtos.ControlsProto;
import org.mpcache.common.proto.MasterStateProtos.MasterStateProto;
import org.mpcache.common.proto.MpCacheProtos.PathTtlProto;
import org.mpcache.common.proto.MpCacheProtos.QuotaProto;
import org.mpcache.master.arbitrator.CacheDecision;
import org.mpcache.master.status.DatasetPaths;

/**
 * What operators set to steer the Replace Arbitrator (docs/policy.md, "Operator controls"): pinned
 * paths (their datasets are never chosen as victims), times to live (a dataset not read for that
 * long is evicted whole), quotas (a block whose admission would put a user's or a directory's
 * cached bytes past the limit is refused) and the configured {@link AdmissionFilter}. A dataset
 * is governed by a time to live, a quota or a filter when one of its input paths is the
 * control's path or lies under it ({@link DatasetPaths#matches}), and pinned only when every one
 * of its input paths is. A user's quota charges the datasets under the user's home
 * directory {@code /user/<name>}; a directory's quota those under the directory; as in HDFS cache
 * pools, bytes are charged to where the data sits, not to whoever reads it.
 *
 * <p>Pure: it answers questions and holds no clock (times arrive as arguments). Not thread-safe:
 * the Replace Arbitrator guards it with its lock.
 */
public final class OperatorControls {
  /** The prefix of the home directory a user's quota charges, as HDFS's default. */
  public static final String HOME_PREFIX = "/user/";

  private final TreeSet<String> pins = new TreeSet<>();
  private final TreeMap<String, PathTtlProto> ttls = new TreeMap<>();
  /** Keyed by kind and name. */
  private final TreeMap<String, QuotaProto> quotas = new TreeMap<>();
  private AdmissionFilter filter = AdmissionFilter.ALL;

  /**
   * A path as controls keep it: absolute or qualified, without a trailing slash.
   *
   * @throws IllegalArgumentException when it is neither absolute nor qualified
   */
  public static String normalize(String path) {
    Path p = new Path(path);
    if (!p.isAbsolute() && p.toUri().getScheme() == null) {
      throw new IllegalArgumentException("path '" + path + "' must be absolute");
    }
    return p.toString();
  }

  /** Pins a path; false when it was pinned already. */
  public boolean pin(String path) {
    return pins.add(normalize(path));
  }

  /** Unpins a path; false when it was not pinned. */
  public boolean unpin(String path) {
    return pins.remove(normalize(path));
  }

  /**
   * Sets the time to live of the datasets under a path, counted from {@code nowMs} for datasets
   * read before; {@code ttlMs} 0 clears it.
   *
   * @return false when nothing changed
   */
  public boolean setTtl(String path, long ttlMs, long nowMs) {
    String p = normalize(path);
    if (ttlMs < 0) {
      throw new IllegalArgumentException("time to live must not be negative: " + ttlMs);
    }
    if (ttlMs == 0) {
      return ttls.remove(p) != null;
    }
    PathTtlProto old = ttls.put(p, PathTtlProto.newBuilder().setPath(p).setTtlMs(ttlMs)
        .setSetMs(nowMs).build());
    return old == null || old.getTtlMs() != ttlMs;
  }

  /**
   * Sets a quota; {@code limitBytes} 0 clears it.
   *
   * @param name a user name, or a directory's path
   * @return false when nothing changed
   */
  public boolean setQuota(QuotaProto.Kind kind, String name, long limitBytes) {
    if (limitBytes < 0) {
      throw new IllegalArgumentException("quota must not be negative: " + limitBytes);
    }
    String n = kind == QuotaProto.Kind.DIR ? normalize(name) : user(name);
    String key = kind + ":" + n;
    if (limitBytes == 0) {
      return quotas.remove(key) != null;
    }
    QuotaProto old = quotas.put(key, QuotaProto.newBuilder().setKind(kind).setName(n)
        .setLimitBytes(limitBytes).build());
    return old == null || old.getLimitBytes() != limitBytes;
  }

  private static String user(String name) {
    if (name.isEmpty() || name.contains("/") || name.contains(",")) {
      throw new IllegalArgumentException("user name '" + name + "' is empty or has a / or ,");
    }
    return name;
  }

  /** Replaces the admission filters (from the configuration, at start and on refresh). */
  public void setFilter(AdmissionFilter filter) {
    this.filter = filter;
  }

  /**
   * Whether a dataset is pinned: each of its input paths is at or under a pinned path. One pinned
   * input path is not enough: a job that lists a pinned directory beside its own input would pin
   * its own blocks.
   */
  public boolean pinned(String datasetId) {
    if (pins.isEmpty()) {
      return false;
    }
    for (String part : datasetId.split(",")) {
      boolean covered = false;
      for (String p : pins) {
        covered |= DatasetPaths.matches(part, p, true);
      }
      if (!covered) {
        return false;
      }
    }
    return true;
  }

  /** Whether any time to live is set (else {@link #expiresAtMs} need not be asked). */
  public boolean hasTtls() {
    return !ttls.isEmpty();
  }

  /**
   * When a dataset expires: its shortest time to live after its last read, or after the time to
   * live was set when that is later; {@link Long#MAX_VALUE} when none applies.
   *
   * @param lastAccessMs the dataset's last read, wall clock; 0 when unknown
   */
  public long expiresAtMs(String datasetId, long lastAccessMs) {
    long at = Long.MAX_VALUE;
    for (PathTtlProto t : ttls.values()) {
      if (DatasetPaths.matches(datasetId, t.getPath(), true)) {
        at = Math.min(at, Math.max(lastAccessMs, t.getSetMs()) + t.getTtlMs());
      }
    }
    return at;
  }

  /** Whether a quota charges a dataset's bytes. */
  public static boolean charges(QuotaProto q, String datasetId) {
    String dir = q.getKind() == QuotaProto.Kind.USER ? HOME_PREFIX + q.getName() : q.getName();
    return DatasetPaths.matches(datasetId, dir, true);
  }

  /** Whether any quota is set. */
  public boolean hasQuotas() {
    return !quotas.isEmpty();
  }

  /** Why the admission filters refuse a dataset, or null when they let it through. */
  public CacheDecision.Reason filterRefusal(String datasetId) {
    return filter.refusal(datasetId);
  }

  /**
   * Whether a quota refuses a block of a dataset: one that charges the dataset cannot hold the
   * block's {@code blockBytes} besides the {@code used} bytes it charges now.
   *
   * @param used the bytes cached now that a quota charges
   * @return {@code REJECTED_QUOTA}, or null when every quota holds it
   */
  public CacheDecision.Reason quotaRefusal(String datasetId, long blockBytes,
      ToLongFunction<QuotaProto> used) {
    for (QuotaProto q : quotas.values()) {
      if (charges(q, datasetId) && used.applyAsLong(q) + blockBytes > q.getLimitBytes()) {
        return CacheDecision.Reason.REJECTED_QUOTA;
      }
    }
    return null;
  }

  /** Every control, with each quota's usage, for operators. */
  public ControlsProto report(ToLongFunction<QuotaProto> used) {
    ControlsProto.Builder b = ControlsProto.newBuilder().addAllPins(pins)
        .addAllTtls(ttls.values()).addAllInclude(filter.include())
        .addAllExclude(filter.exclude());
    for (QuotaProto q : quotas.values()) {
      b.addQuotas(q.toBuilder().setUsedBytes(used.applyAsLong(q)));
    }
    return b.build();
  }

  /** Adds the pins, quotas and times to live to the master's checkpoint. */
  public void exportTo(MasterStateProto.Builder state) {
    state.addAllPins(pins).addAllQuotas(quotas.values()).addAllTtls(ttls.values());
  }

  /**
   * Restores the pins, quotas and times to live of a checkpoint, replacing these; all are checked
   * before any is taken.
   *
   * @throws IllegalArgumentException naming the section and entry that is invalid
   */
  public void restore(MasterStateProto state) {
    OperatorControls c = parse(state);
    pins.clear();
    pins.addAll(c.pins);
    quotas.clear();
    quotas.putAll(c.quotas);
    ttls.clear();
    ttls.putAll(c.ttls);
  }

  /**
   * Checks the pins, quotas and times to live of a checkpoint without taking them.
   *
   * @throws IllegalArgumentException naming the section and entry that is invalid
   */
  public static void check(MasterStateProto state) {
    parse(state);
  }

  private static OperatorControls parse(MasterStateProto state) {
    OperatorControls c = new OperatorControls();
    for (String p : state.getPinsList()) {
      try {
        c.pin(p);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("pins: " + e.getMessage(), e);
      }
    }
    for (QuotaProto q : state.getQuotasList()) {
      try {
        if (q.getLimitBytes() <= 0) {
          throw new IllegalArgumentException("limitBytes must be positive: " + q.getLimitBytes());
        }
        c.setQuota(q.getKind(), q.getName(), q.getLimitBytes());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("quotas: " + q.getKind() + " " + q.getName() + ": "
            + e.getMessage(), e);
      }
    }
    for (PathTtlProto t : state.getTtlsList()) {
      try {
        if (t.getTtlMs() <= 0) {
          throw new IllegalArgumentException("ttlMs must be positive: " + t.getTtlMs());
        }
        c.setTtl(t.getPath(), t.getTtlMs(), t.getSetMs());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("ttls: " + t.getPath() + ": " + e.getMessage(), e);
      }
    }
    return c;
  }

  /** How many pins, times to live and quotas there are, for a log line. */
  public String summary() {
    return pins.size() + " pins, " + ttls.size() + " times to live, " + quotas.size() + " quotas";
  }
}
