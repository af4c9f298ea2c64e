package org.mpcache.master.arbitrator;

import java.util.Comparator;
import org.mpcache.common.proto.MasterStateProtos.DatasetStateProto;

/**
 * What a dataset policy ({@link DatasetEvictionPolicy} and its variations) knows of one dataset: its
 * size in blocks, its access counts and stamps, the terms of its priority (paper Equations 1-2, or
 * a baseline's), and its last admission verdict. Each policy uses the fields its rule needs. Where
 * its blocks are is the {@link PlacementIndex}. Not thread-safe: owned by one policy.
 */
final class DatasetState {
  /** Orders the priority queue: lowest priority first, ties by id so the order is total. */
  static final Comparator<DatasetState> BY_PRIORITY =
      Comparator.comparingDouble((DatasetState d) -> d.priority).thenComparing(d -> d.id);

  final String id;
  /** Size(jd): the dataset's blocks, as the largest estimate any reader reported. */
  int size;
  /** Dataset accesses, as the policy counts them (kept, aged or forgotten with the record). */
  long accesses;
  /** Blocks_Access(jd): block accesses since the dataset last entered the main cache. */
  long blocksAccess;
  /** Whether every block of the dataset is cached (the Full term applies). */
  boolean full;
  /** The Clock value the priority was last computed with. */
  double clockBase;
  /**
   * Pr(jd) for mpCache (the queue's key, changed only while the dataset is out of the queue), or a
   * baseline's priority ({@link GdsfPolicy}).
   */
  double priority;
  /** The number of dataset accesses (cluster-wide) at this dataset's last access; 0: never. */
  long lastAccessSeq;
  long lastAccessTime;
  /** Accesses between this dataset's two most recent accesses (its Delta), at least 1. */
  long delta = 1;
  /** Whether the dataset was in the auxiliary cache when its current access began. */
  boolean wasInAuxiliary;
  String lastJob;
  /** The {@code lastAccessSeq} of the access whose admission verdict {@code verdict} holds. */
  long verdictSeq;
  /** The admission verdict of that access: null admitted, else why not. */
  CacheDecision.Reason verdict;

  DatasetState(String id, int size) {
    this.id = id;
    this.size = size;
  }

  /** Fr(jd) = Blocks_Access / Size (Equation 1). */
  double frequency() {
    return blocksAccess / (double) size;
  }

  /** Pr(jd) = Full + Clock + Fr / Size (Equation 2). */
  double computePriority(double fullBonus) {
    return (full ? fullBonus : 0) + clockBase + frequency() / size;
  }

  /** The record as plain data for the master's checkpoint. */
  DatasetStateProto toProto() {
    DatasetStateProto.Builder b = DatasetStateProto.newBuilder().setId(id).setSize(size)
        .setAccesses(accesses).setBlocksAccess(blocksAccess).setFull(full).setClockBase(clockBase)
        .setPriority(priority).setLastAccessSeq(lastAccessSeq).setLastAccessTime(lastAccessTime)
        .setDelta(delta).setWasInAuxiliary(wasInAuxiliary).setVerdictSeq(verdictSeq);
    if (lastJob != null) {
      b.setLastJob(lastJob);
    }
    if (verdict != null) {
      b.setVerdict(verdict.name());
    }
    return b.build();
  }

  /**
   * A record from a checkpoint.
   *
   * @throws IllegalArgumentException naming the dataset and the field out of range
   */
  static DatasetState fromProto(DatasetStateProto p) {
    if (p.getId().isEmpty()) {
      throw new IllegalArgumentException("a dataset record has an empty id");
    }
    DatasetState d = new DatasetState(p.getId(), p.getSize());
    d.accesses = p.getAccesses();
    d.blocksAccess = p.getBlocksAccess();
    d.full = p.getFull();
    d.clockBase = p.getClockBase();
    d.priority = p.getPriority();
    d.lastAccessSeq = p.getLastAccessSeq();
    d.lastAccessTime = p.getLastAccessTime();
    d.delta = p.hasDelta() ? p.getDelta() : 1;
    d.wasInAuxiliary = p.getWasInAuxiliary();
    d.lastJob = p.hasLastJob() ? p.getLastJob() : null;
    d.verdictSeq = p.getVerdictSeq();
    String bad = d.size < 1 ? "size" : d.accesses < 0 ? "accesses"
        : d.blocksAccess < 0 ? "blocksAccess" : d.lastAccessSeq < 0 ? "lastAccessSeq"
        : d.delta < 1 ? "delta" : d.verdictSeq < 0 ? "verdictSeq"
        : !Double.isFinite(d.clockBase) ? "clockBase" : !Double.isFinite(d.priority) ? "priority"
        : null;
    if (bad != null) {
      throw new IllegalArgumentException("dataset " + d.id + ": field " + bad + " out of range");
    }
    if (p.hasVerdict()) {
      try {
        d.verdict = CacheDecision.Reason.valueOf(p.getVerdict());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("dataset " + d.id + ": field verdict names no reason: "
            + p.getVerdict(), e);
      }
    }
    return d;
  }

  @Override
  public String toString() {
    return id + "{size=" + size + ", access=" + blocksAccess + ", full=" + full + ", pr="
        + priority + "}";
  }
}
