package org.mpcache.master.arbitrator;

import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.MasterStateProtos.PolicyStateProto;

/**
 * The master's decision of which input blocks the cluster keeps in its SSD Input Caches: admission
 * and replacement (mpCache paper, Section 2.2 and Algorithm 1). The master's mechanism
 * ({@code ReplaceArbitrator}'s caller) feeds it the events slaves report and carries out the plans it
 * returns; the simulator feeds it a trace. Implementations are pure and deterministic: no I/O, no
 * threads, no wall clock (time arrives in the events).
 *
 * <p>Not thread-safe: the caller serializes every call.
 */
public interface CachePolicy {

  /** The name this policy is selected by in {@code mpcache.master.policy}. */
  String name();

  /**
   * A slave served a block of a dataset from its cache (Algorithm 1, lines 1-5).
   */
  void onHit(BlockAccess access);

  /**
   * A slave missed a block and asks whether it may cache it (Algorithm 1, lines 6-32). The slave
   * says how much Input Cache space it has free; the decision says whether to cache and which of the
   * slave's blocks it must evict first. Blocks of the same evicted datasets held by other slaves are
   * queued for them and returned by {@link #pendingEvictions}.
   *
   * @param slaveFreeBytes the requesting slave's free Input Cache bytes, before this block
   */
  CacheDecision onMiss(BlockAccess access, long slaveFreeBytes);

  /**
   * A slave (re)registered with {@code freeBytes} of its Input Cache free: a policy that admits by
   * the cache's room counts them until the slave's next request says otherwise. By default
   * nothing.
   */
  default void onSlaveRoom(String slaveId, long freeBytes) {
  }

  /**
   * As {@link #onMiss(BlockAccess, long)}, for an operator's prefetch: with {@code force} the
   * policy skips its admission test (it still needs room, evicting as usual). Policies without an
   * admission test have nothing to skip; this default ignores {@code force}.
   */
  default CacheDecision onMiss(BlockAccess access, long slaveFreeBytes, boolean force) {
    return onMiss(access, slaveFreeBytes);
  }

  /**
   * How the policy ranks a dataset, for operators' reports; null when it keeps no ranking for it.
   * Read-only: it changes nothing.
   */
  default DatasetStanding standing(String datasetId) {
    return null;
  }

  /**
   * A slave needs {@code bytes} of its Input Cache back because localized data outgrew its Localized
   * Cache and no Dynamic Pool unit is free (mpCache paper, Section 2.1: cached input is excluded by
   * the scheme of Section 2.2). The policy chooses victims as it would for a miss; blocks of the same
   * evicted datasets held by other slaves are queued for them.
   *
   * @return the requesting slave's blocks to evict now; empty when the policy cannot free
   *     {@code bytes} there, in which case nothing is evicted. The default frees nothing.
   */
  default List<BlockKey> onReclaim(String slaveId, long bytes) {
    return List.of();
  }

  /**
   * A registering slave already stores a block the policy does not track there (cached before a
   * restart of the slave or of the master): records it as cached on that slave for its dataset of
   * {@code datasetBlocks} blocks, without counting an access. A block another slave holds for
   * another dataset joins that one. A dataset whose blocks are all adopted is complete, and its
   * standing is computed from what the policy records of it, as for a dataset it admitted. A block
   * already tracked on that slave is left as it is.
   *
   * @param blockBytes the block's length, not negative
   * @param datasetBlocks the dataset's blocks as the slave recorded them, at least 1
   */
  void adopt(String slaveId, BlockKey block, long blockBytes, String datasetId, int datasetBlocks);

  /** A slave finished storing a block that {@link #onMiss} admitted. */
  void onCached(String slaveId, BlockKey block);

  /**
   * A slave no longer holds a block: evicted as planned, found corrupt, failed to fill, or dropped
   * for any other reason. Unknown blocks are ignored.
   */
  void onRemoved(String slaveId, BlockKey block);

  /** A slave is gone (expired or decommissioned): forget every block it held. */
  void onSlaveLost(String slaveId);

  /**
   * The policy's own state that slaves cannot report after a restart (per-dataset frequencies and
   * priority terms, the Clock, the auxiliary cache), as plain data for the master to checkpoint;
   * null when the policy keeps nothing worth keeping (the block-granularity baselines and
   * {@code none} relearn). Where blocks are is not in it. Read-only: it changes nothing.
   */
  default PolicyStateProto exportState() {
    return null;
  }

  /**
   * Resumes from what {@link #exportState} returned, before the policy has seen any event (the
   * master restores at start, before slaves can register, so blocks adopted afterwards join the
   * restored datasets with their standing). The caller passes only a state exported by a policy
   * of the same {@link #name()}. This default ignores it.
   *
   * @throws IllegalArgumentException naming the dataset and field when the state is invalid;
   *     nothing is restored then
   * @throws IllegalStateException when the policy has already seen events
   */
  default void restoreState(PolicyStateProto state) {
  }

  /**
   * Tells the policy which datasets operators pinned (by dataset id): it never chooses them as
   * victims, and refuses an admission ({@code REJECTED_PINNED}) that only evicting them would make
   * room for. The predicate is asked during calls, so it must answer as of each call; by default
   * nothing is pinned. Policies that evict nothing ignore it.
   */
  default void setPinned(Predicate<String> pinned) {
  }

  /**
   * Tells the policy whether the cluster is over its SSD write budget now (the mechanism measures
   * the rate; {@code WriteRateMeter}): while it is, a policy with a write-budget mode admits a
   * dataset only on its second access within its memory of datasets, and refuses a first one
   * with {@code REJECTED_WRITE_BUDGET}; once under budget again it admits as usual. The supplier
   * is asked during calls, so it must answer as of each call; by default the cluster is never
   * over budget. Policies that admit nothing ignore it.
   */
  default void setOverWriteBudget(BooleanSupplier overBudget) {
  }

  /**
   * An operator's time to live ran out for a dataset: the dataset is evicted whole, its blocks
   * queued in the To_Del lists of their slaves ({@link #pendingEvictions}), without counting as
   * a replacement (no Clock or inflation change). Unknown datasets and datasets holding no block
   * are ignored.
   *
   * @return whether the policy evicted it; false also for policies that keep no datasets (the
   *     block-granularity baselines), which hand out no To_Del lists
   */
  default boolean expire(String datasetId) {
    return false;
  }

  /**
   * Takes the evictions planned for a slave that it has not been told yet (the To_Del list of
   * Algorithm 1). Each call returns a block at most once.
   */
  List<BlockKey> pendingEvictions(String slaveId);

  /**
   * The slaves {@link #pendingEvictions} has blocks for now, or null when the policy cannot say
   * (the caller then asks every slave): for a caller that hands out To_Del lists to many slaves
   * at once, as the simulator does after each job. A policy that answers promises that asking any
   * other slave returns nothing and changes nothing. The set may be a view: copy it before
   * taking any slave's evictions.
   */
  default Set<String> slavesWithPendingEvictions() {
    return null;
  }
}
