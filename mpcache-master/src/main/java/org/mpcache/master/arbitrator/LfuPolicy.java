package org.mpcache.master.arbitrator;

/**
 * Least Frequently Used at block granularity, the classic frequency baseline of cache replacement:
 * every miss is admitted (outside the write-budget mode), and when the requesting slave is full
 * its cached blocks with the fewest accesses since they were admitted are evicted first (ties:
 * least recently accessed) until the new block fits. Counts are not aged. Pure and deterministic; not thread-safe.
 */
final class LfuPolicy extends BlockEvictionPolicy {

  LfuPolicy(PlacementIndex placement, PolicyParameters params) {
    super(placement, params);
  }

  @Override
  public String name() {
    return CachePolicies.LFU;
  }

  /** The rank is the access count: the fewest accesses go first, ties least recent first. */
  @Override
  long rank(BlockCopy c) {
    return c.accesses;
  }
}
