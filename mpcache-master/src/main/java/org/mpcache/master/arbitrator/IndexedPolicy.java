package org.mpcache.master.arbitrator;

import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import org.mpcache.common.BlockKey;

/**
 * The base of the master's cache policies: it keeps the Replace Arbitrator's {@link PlacementIndex}
 * in step with what slaves report (blocks stored, blocks removed, slaves lost), once for every
 * policy, and then lets the policy react through its hooks. Subclasses record their own
 * admissions in the index ({@link PlacementIndex#fill}) and plan against it.
 *
 * <p>Not thread-safe: the caller serializes every call, and the index is guarded by the same
 * caller.
 */
abstract class IndexedPolicy implements CachePolicy {
  /** Where every block copy is; shared with the arbitrator, which owns it. */
  final PlacementIndex placement;
  /** Pins nothing: the predicate until {@link #setPinned} is called (the simulator never is). */
  private static final Predicate<String> NOTHING_PINNED = id -> false;
  /** The datasets operators pinned: never victims. */
  Predicate<String> pinned = NOTHING_PINNED;
  /** Whether the cluster is over its SSD write budget now (asked at admissions). */
  BooleanSupplier overWriteBudget = () -> false;

  IndexedPolicy(PlacementIndex placement) {
    this.placement = placement;
  }

  @Override
  public final void setPinned(Predicate<String> pinned) {
    this.pinned = pinned;
  }

  /**
   * Whether a block's dataset is pinned. Without a pin predicate the block's dataset is not
   * looked up: the block baselines ask this of every victim, and the lookup cost them a hash
   * probe each.
   */
  final boolean pinnedBlock(BlockKey block) {
    if (pinned == NOTHING_PINNED) {
      return false;
    }
    String owner = placement.datasetOf(block);
    return owner != null && pinned.test(owner);
  }

  @Override
  public final void setOverWriteBudget(BooleanSupplier overBudget) {
    this.overWriteBudget = overBudget;
  }

  @Override
  public final void onCached(String slaveId, BlockKey block) {
    PlacementIndex.Stored what = placement.cached(slaveId, block);
    if (what == PlacementIndex.Stored.STRAY) {
      onStray(slaveId, block);
    } else if (what == PlacementIndex.Stored.NEWLY_STORED) {
      afterStored(slaveId, block);
    }
  }

  @Override
  public final void adopt(String slaveId, BlockKey block, long blockBytes, String datasetId,
      int datasetBlocks) {
    if (blockBytes < 0 || datasetBlocks < 1) {
      throw new IllegalArgumentException("blockBytes must not be negative and datasetBlocks must "
          + "be at least 1: " + blockBytes + ", " + datasetBlocks);
    }
    if (placement.holders(block).contains(slaveId)) {
      return;
    }
    placement.fill(datasetId, block, blockBytes, slaveId);
    placement.cached(slaveId, block);
    // A block that joined another dataset (the one its other copies are in) says nothing of
    // that dataset's size.
    String joined = placement.datasetOf(block);
    afterAdopted(slaveId, block, blockBytes, joined,
        joined.equals(datasetId) ? datasetBlocks : 1);
  }

  @Override
  public final void onRemoved(String slaveId, BlockKey block) {
    afterRemoved(slaveId, block, placement.removed(slaveId, block));
  }

  @Override
  public final void onSlaveLost(String slaveId) {
    afterSlaveLost(slaveId, placement.slaveLost(slaveId));
  }

  /**
   * A slave stored a block the policy did not admit there (its dataset was evicted while it
   * filled, or the slave had it from before). The index holds it as a stray; by default it is
   * queued for eviction.
   */
  void onStray(String slaveId, BlockKey block) {
    placement.evictStray(slaveId, block);
  }

  /**
   * A block the policy admitted is stored now ({@link PlacementIndex#datasetOf} names its
   * dataset, for the policies that need it: the block baselines do not).
   */
  void afterStored(String slaveId, BlockKey block) {
  }

  /**
   * A block was adopted as stored for {@code datasetId} (the dataset it was first admitted for,
   * when another copy was); no access is counted.
   *
   * @param datasetBlocks the dataset's size as the slave recorded it; 1 when the block joined
   *     another dataset than the one the slave named
   */
  abstract void afterAdopted(String slaveId, BlockKey block, long blockBytes, String datasetId,
      int datasetBlocks);

  /**
   * A slave no longer holds a block; {@code datasetId} is the dataset that lost a live copy, or
   * null when none did.
   */
  void afterRemoved(String slaveId, BlockKey block, String datasetId) {
  }

  /** A slave is gone; {@code datasets} lost live copies with it. */
  void afterSlaveLost(String slaveId, Set<String> datasets) {
  }
}
