package org.mpcache.slave.cache;

import java.util.List;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.slave.master.MasterReports;
import org.mpcache.slave.store.FileBlockStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Input Cache as the slave's services change it: the block store, the slave's counters and
 * the reports to the master, kept in step. A block evicted, dropped as corrupt or newly cached
 * is counted and reported here and nowhere else, so that the master's view follows the store
 * whichever service acted. Made before the services, which take it in their constructors.
 *
 * <p>Thread-safe: the store, the counters and the reports are.
 */
public final class InputCache {
  private static final Logger LOG = LoggerFactory.getLogger(InputCache.class);

  private final FileBlockStore store;
  private final SlaveCounters counters;
  private final MasterReports master;

  public InputCache(FileBlockStore store, SlaveCounters counters, MasterReports master) {
    this.store = store;
    this.counters = counters;
    this.master = master;
  }

  public FileBlockStore store() {
    return store;
  }

  public SlaveCounters counters() {
    return counters;
  }

  /** Evicts blocks the master chose and reports each removal back. */
  public void evict(List<BlockKey> blocks) {
    for (BlockKey k : blocks) {
      String datasetId = store.datasetOf(k);
      if (store.remove(k)) {
        counters.evicted(datasetId);
      }
      master.reportRemoved(k);
    }
  }

  /** Drops a cached block found corrupt: counted, logged and reported to the master. */
  public void drop(BlockKey key, String why) {
    if (store.remove(key)) {
      counters.blocksCorrupt.incrementAndGet();
      LOG.warn("Dropped cached block {}: {}", key, why);
      master.reportRemoved(key);
    }
  }

  /**
   * Counts a hit on the block {@code access} names: in the slave's counters, for the dataset it
   * was cached for, and in the master's figures of its dataset.
   */
  public void hit(BlockAccessProto access) {
    counters.hit(store.datasetOf(ProtoConverters.fromProto(access.getBlock())));
    master.reportHit(access);
  }

  /** A fill of {@code key} for {@code datasetId} was committed: counted and reported. */
  public void cached(BlockKey key, String datasetId) {
    counters.blockCached(datasetId);
    master.reportCached(key);
  }

  /**
   * A block the master admitted is not cached after all (its fill failed or was given up): the
   * master learns that it is not here.
   */
  public void notCached(BlockKey key) {
    master.reportRemoved(key);
  }
}
