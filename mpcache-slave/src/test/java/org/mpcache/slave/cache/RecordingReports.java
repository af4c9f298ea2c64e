package org.mpcache.slave.cache;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.slave.master.MasterReports;

/** Reports to a master that is not there, kept for the tests to look at. Thread-safe. */
final class RecordingReports implements MasterReports {
  final List<BlockKey> cached = new CopyOnWriteArrayList<>();
  final List<BlockKey> removed = new CopyOnWriteArrayList<>();
  final List<BlockAccessProto> hits = new CopyOnWriteArrayList<>();

  @Override
  public void reportCached(BlockKey key) {
    cached.add(key);
  }

  @Override
  public void reportRemoved(BlockKey key) {
    removed.add(key);
  }

  @Override
  public void reportHit(BlockAccessProto access) {
    hits.add(access);
  }
}
