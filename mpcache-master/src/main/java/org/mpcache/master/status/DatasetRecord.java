package org.mpcache.master.status;

import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import org.mpcache.master.arbitrator.CacheDecision;

/**
 * The master's bounded record of one dataset for operators: its size and last access, the Replace
 * Arbitrator's last admission verdict and a count per verdict
 * reason, and the last eviction with its cause. Its size does not grow with the dataset's history:
 * only the last verdict and the last eviction are kept.
 *
 * <p>Not thread-safe: owned by {@link DatasetCatalog}.
 */
final class DatasetRecord {
  final String id;
  int size;
  long lastAccessMs;
  String lastJob = "";
  CacheDecision.Reason lastReason;
  boolean lastAdmitted;
  long lastVerdictMs;
  String lastVerdictSlave;
  String lastVerdictJob;
  final Map<CacheDecision.Reason, Long> verdicts = new EnumMap<>(CacheDecision.Reason.class);
  EvictionCause lastEvictionCause;
  long lastEvictionMs;
  int lastEvictionBlocks;
  String lastEvictionDetail;

  DatasetRecord(String id, int size) {
    this.id = id;
    this.size = size;
  }

  void verdict(CacheDecision d, String slaveId, String jobId, long now) {
    lastReason = d.reason();
    lastAdmitted = d.admitted();
    lastVerdictMs = now;
    lastVerdictSlave = slaveId;
    lastVerdictJob = jobId;
    verdicts.merge(d.reason(), 1L, Long::sum);
  }

  /**
   * Notes that {@code blocks} replicas were ordered out for {@code cause}: a run of orders with the
   * same cause and detail adds up into one eviction record.
   */
  void evicted(EvictionCause cause, String detail, int blocks, long now) {
    if (cause == lastEvictionCause && Objects.equals(detail, lastEvictionDetail)
        && now - lastEvictionMs < 60_000) {
      lastEvictionBlocks += blocks;
    } else {
      lastEvictionCause = cause;
      lastEvictionDetail = detail;
      lastEvictionBlocks = blocks;
    }
    lastEvictionMs = now;
  }
}
