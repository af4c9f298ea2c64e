package org.mpcache.master.arbitrator;

/**
 * Least Recently Used at block granularity, the classic baseline of cache replacement (as in the
 * mpCache paper's evaluation): every miss is admitted (outside the write-budget mode), and when
 * the requesting slave is full its least recently accessed cached blocks are evicted until the new
 * block fits. Of datasets it knows only which were accessed recently (for the write-budget mode). Pure and deterministic; not thread-safe.
 */
final class LruPolicy extends BlockEvictionPolicy {

  LruPolicy(PlacementIndex placement, PolicyParameters params) {
    super(placement, params);
  }

  @Override
  public String name() {
    return CachePolicies.LRU;
  }

  /** Every copy has the same rank: the order is recency alone. */
  @Override
  long rank(BlockCopy c) {
    return 0;
  }
}
