package org.mpcache.slave.master;

import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;

/**
 * What the slave tells the master about its Input Cache's blocks: those cached, those removed
 * and the hits on them. {@link MasterLink} queues each for its next report. Implementations are
 * thread-safe and never block.
 */
public interface MasterReports {
  void reportCached(BlockKey key);

  void reportRemoved(BlockKey key);

  void reportHit(BlockAccessProto access);
}
