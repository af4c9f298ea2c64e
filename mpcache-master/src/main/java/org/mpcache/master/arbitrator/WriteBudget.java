package org.mpcache.master.arbitrator;

import java.util.HashMap;
import java.util.Map;

/**
 * The master's measure of the SSD write budget ({@code mpcache.master.admission.write.budget},
 * bytes per hour per slave): the bytes the live slaves wrote to their SSDs for the Input Cache,
 * learned from the growth of each slave's {@code ssdBytesWritten} counter at its heartbeats, in
 * a {@link WriteRateMeter} (a leaky bucket) that drains at the budget times the slaves reporting.
 * The budget is the cluster's: the policy admits whole datasets, whose blocks spread over every
 * slave, so one verdict serves all of them. The bucket is as deep as the live slaves' Input
 * Caches (their capacity at their latest heartbeat), so a cold cache fills once at full speed.
 * It is the mechanism that feeds the policy's
 * write-budget mode ({@link CachePolicy#setOverWriteBudget}).
 *
 * <p>Accounting: a slave's first report after it registered with this master sets its
 * baseline (its earlier writes are not charged, so a restarted master does not see a burst); a
 * counter smaller than the last one means the slave restarted, and all of it is charged. Writes
 * are charged when the heartbeat arrives, so the measure lags the SSDs by up to a heartbeat
 * interval and errs low by a lost slave's writes since its last heartbeat.
 *
 * <p>Not thread-safe: the Replace Arbitrator calls it under its lock.
 */
final class WriteBudget {
  private final long bytesPerHourPerSlave;
  private final WriteRateMeter meter = new WriteRateMeter();
  /** Each reporting slave's counter at its last heartbeat. */
  private final Map<String, Long> lastCounter = new HashMap<>();
  /** Each reporting slave's Input Cache capacity at its last heartbeat. */
  private final Map<String, Long> capacity = new HashMap<>();
  /** The sum of {@link #capacity}. */
  private long totalCapacity;

  /** @param bytesPerHourPerSlave the budget; 0 for none */
  WriteBudget(long bytesPerHourPerSlave) {
    if (bytesPerHourPerSlave < 0) {
      throw new IllegalArgumentException("write budget must not be negative: "
          + bytesPerHourPerSlave);
    }
    this.bytesPerHourPerSlave = bytesPerHourPerSlave;
  }

  /** The budget, bytes per hour per slave; 0 when there is none. */
  long bytesPerHourPerSlave() {
    return bytesPerHourPerSlave;
  }

  /**
   * A slave's heartbeat reported its {@code ssdBytesWritten} counter and its Input Cache
   * capacity at {@code nowMs}.
   */
  void reported(String slaveId, long ssdBytesWritten, long inputCacheCapacity, long nowMs) {
    Long lastCapacity = capacity.put(slaveId, inputCacheCapacity);
    totalCapacity += inputCacheCapacity - (lastCapacity == null ? 0 : lastCapacity);
    long rate = clusterRate();
    Long last = lastCounter.put(slaveId, ssdBytesWritten);
    if (last != null) {
      meter.add(nowMs, ssdBytesWritten >= last ? ssdBytesWritten - last : ssdBytesWritten, rate);
    }
  }

  /** A slave is gone: its next report, if it comes back, sets a new baseline. */
  void slaveLost(String slaveId) {
    lastCounter.remove(slaveId);
    Long lastCapacity = capacity.remove(slaveId);
    totalCapacity -= lastCapacity == null ? 0 : lastCapacity;
  }

  /** The budget of every slave reporting, bytes per hour. */
  private long clusterRate() {
    return bytesPerHourPerSlave * Math.max(1, lastCounter.size());
  }

  /**
   * The bytes written beyond what the budget drained, per slave reporting, as of {@code nowMs};
   * without a budget, the bytes written since the master started (nothing drains).
   */
  long backlogPerSlave(long nowMs) {
    return meter.backlog(nowMs, clusterRate()) / Math.max(1, lastCounter.size());
  }

  /**
   * Whether the backlog is more than an hour of the budget and more than the live slaves' Input
   * Cache capacity ({@link WriteRateMeter#over}); never without a budget.
   */
  boolean over(long nowMs) {
    return bytesPerHourPerSlave > 0 && meter.over(nowMs, clusterRate(), totalCapacity);
  }
}
