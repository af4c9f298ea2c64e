package org.mpcache.master.registry;

import java.util.List;
import org.mpcache.common.proto.MpCacheProtos.JobSpacePredictionProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveInfoProto;
import org.mpcache.common.proto.MpCacheProtos.SpaceReportProto;
import org.mpcache.common.protocolPB.SlaveFigures;

/**
 * What the master knows of one registered slave: its addresses, who registered it, its latest
 * space and counter figures, the predictions in use, when it last heartbeated, and what became
 * of the blocks it held when it registered (which blocks it holds is the placement index's record).
 *
 * <p>Not thread-safe: owned by {@link SlaveRegistry}, which guards every access with its lock.
 */
final class SlaveRecord {
  final SlaveInfoProto info;
  final SlaveIdentity identity;
  long lastHeartbeat;
  SpaceReportProto space;
  SlaveCountersProto counters;
  /** Per described job running on the slave, the predicted localized need its split started from. */
  List<JobSpacePredictionProto> predictions = List.of();
  /** Of the blocks it held at registration: kept (adopted or known), then found stale. */
  int adopted;
  int stale;
  /** Of the blocks it held at registration: handed back, and why. */
  int unknownDataset;
  int overCapacity;
  /** An operator's refresh asked it to return its SSD directories out of service. */
  boolean returnVolumes;

  SlaveRecord(SlaveInfoProto info, SlaveIdentity identity, SpaceReportProto space, long now) {
    this.info = info;
    this.identity = identity;
    this.space = space;
    this.lastHeartbeat = now;
    this.counters = SlaveFigures.zeroCounters().build();
  }
}
