package org.mpcache.common;

/**
 * The rendezvous hash that names, among the slaves that could hold a block, the one every reader
 * asks (the highest score wins): clients choose with it, and the master's prefetch places a block
 * where readers will look for it. Stateless.
 */
public final class SlaveRendezvous {

  private SlaveRendezvous() {
  }

  /** A block's score on a slave: SplitMix64's finalizer over the block id and the slave id. */
  public static long score(long blockId, String slaveId) {
    long z = blockId * 0x9E3779B97F4A7C15L + slaveId.hashCode();
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
