package org.mpcache.slave.cache;

/**
 * Where the client endpoint hands the blocks the slave is to read from HDFS itself for readers'
 * misses: each missed block whose lookup names its file. The fill is admitted as any other
 * ({@link FillAdmission}; {@code force} is never set). Implementations are thread-safe, never
 * block the caller, and collapse requests for a block already queued or being filled.
 */
@FunctionalInterface
public interface SlaveFills {
  /**
   * Queues a fill of {@code fill}'s block.
   *
   * @return true when it is queued or one is queued already; false when the queue is full or the
   *     path is not on the cluster's own HDFS (the refusal is counted and logged by the
   *     implementation)
   */
  boolean request(FillRequest fill);
}
