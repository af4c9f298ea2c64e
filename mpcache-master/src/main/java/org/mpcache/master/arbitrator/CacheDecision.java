package org.mpcache.master.arbitrator;

import java.util.List;
import java.util.Objects;
import org.mpcache.common.BlockKey;

/**
 * The answer to a slave's replace request: whether it may cache the block it missed, why, and which
 * of its own cached blocks it must evict first (an eviction plan the slave carries out). Immutable.
 */
public final class CacheDecision {

  /** Why a block was or was not admitted. */
  public enum Reason {
    /** The slave had room; nothing is evicted. */
    ADMITTED_FREE_SPACE,
    /** Admitted after evicting lower-priority datasets. */
    ADMITTED_BY_REPLACEMENT,
    /** The block's dataset is already (partly) cached and keeps its place. */
    ADMITTED_DATASET_CACHED,
    /** An operator's forced prefetch: admitted without the admission test. */
    ADMITTED_BY_FORCE,
    /** No room, and the dataset was not in the auxiliary cache: remembered for next time. */
    REJECTED_NOT_IN_AUXILIARY_CACHE,
    /** No room, and evicting the candidates would cost more than admitting gains. */
    REJECTED_NOT_PROFITABLE,
    /** The block or its dataset is larger than the slave's cache could ever hold. */
    REJECTED_TOO_LARGE,
    /** The policy never admits (the null policy). */
    REJECTED_BY_POLICY,
    /** The slave is being decommissioned: it takes no new blocks. */
    REJECTED_SLAVE_DECOMMISSIONED,
    /** An input path matches none of the include filters (mpcache.master.admission.include). */
    REJECTED_NOT_INCLUDED,
    /** An input path matches an exclude filter (mpcache.master.admission.exclude). */
    REJECTED_EXCLUDED,
    /** Caching the dataset would put a user's or a directory's quota past its limit. */
    REJECTED_QUOTA,
    /** Only evicting pinned datasets would make room: the pins hold, the block is not cached. */
    REJECTED_PINNED,
    /**
     * The cluster is over its SSD write budget (mpcache.master.admission.write.budget) and the
     * dataset was not accessed in the hour before this access: it is remembered, so an access
     * within the hour may be admitted.
     */
    REJECTED_WRITE_BUDGET,
    /**
     * The block's file, as the NameNode has it, lies under none of the dataset's input paths, or
     * the slave did not say which file the block is of: a reader may name any dataset, so a
     * block is cached only for a dataset it belongs to.
     */
    REJECTED_NOT_IN_DATASET
  }

  /** The decisions that evict nothing, one per reason, shared (they are immutable). */
  private static final CacheDecision[] PLAIN = new CacheDecision[Reason.values().length];

  static {
    for (Reason r : Reason.values()) {
      PLAIN[r.ordinal()] = new CacheDecision(r, List.of());
    }
  }

  private final Reason reason;
  private final List<BlockKey> evict;

  private CacheDecision(Reason reason, List<BlockKey> evict) {
    this.reason = Objects.requireNonNull(reason, "reason");
    this.evict = List.copyOf(evict);
  }

  /** Admit, evicting {@code evict} on the requesting slave first (empty when there was room). */
  public static CacheDecision admit(Reason reason, List<BlockKey> evict) {
    if (!reason.name().startsWith("ADMITTED")) {
      throw new IllegalArgumentException("Not an admitting reason: " + reason);
    }
    return evict.isEmpty() ? PLAIN[reason.ordinal()] : new CacheDecision(reason, evict);
  }

  /** Reject: the slave serves the block from HDFS and does not cache it. */
  public static CacheDecision reject(Reason reason) {
    if (reason.name().startsWith("ADMITTED")) {
      throw new IllegalArgumentException("Not a rejecting reason: " + reason);
    }
    return PLAIN[reason.ordinal()];
  }

  public boolean admitted() {
    return reason.name().startsWith("ADMITTED");
  }

  public Reason reason() {
    return reason;
  }

  /** Blocks the requesting slave must evict before caching; empty when rejected. */
  public List<BlockKey> evict() {
    return evict;
  }

  @Override
  public String toString() {
    return "CacheDecision{" + reason + (evict.isEmpty() ? "" : ", evict=" + evict) + "}";
  }
}
