package org.mpcache.master.arbitrator;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.mpcache.common.BlockKey;

/**
 * The block-granularity baselines, LRU and LFU: each slave's Input Cache is managed on its own,
 * block by block, with no notion of datasets. Every miss is cached; when the slave lacks room its
 * least recently (LRU) or least frequently (LFU, ties to the least recent) used blocks are evicted.
 * Counts are kept only while a block is cached. O(log b) per event for b blocks on the slave.
 *
 * <p>Not thread-safe: the caller serializes every call.
 */
public final class BlockCachePolicy implements CachePolicy {
  /** The name of block LRU. */
  public static final String LRU_NAME = "lru";
  /** The name of block LFU. */
  public static final String LFU_NAME = "lfu";

  private static final class Entry {
    final BlockKey key;
    final long bytes;
    long count;
    long lastTick;

    Entry(BlockKey key, long bytes) {
      this.key = key;
      this.bytes = bytes;
    }
  }

  /** One slave's blocks, by key and in eviction order. */
  private final class SlaveCache {
    final Map<BlockKey, Entry> byKey = new HashMap<>();
    final TreeSet<Entry> order = new TreeSet<>(BlockCachePolicy.this::compare);
    long bytes;
  }

  private final String name;
  private final boolean byFrequency;
  private final Map<String, SlaveCache> slaves = new HashMap<>();
  private long tick;

  private BlockCachePolicy(String name, boolean byFrequency) {
    this.name = name;
    this.byFrequency = byFrequency;
  }

  public static BlockCachePolicy lru() {
    return new BlockCachePolicy(LRU_NAME, false);
  }

  public static BlockCachePolicy lfu() {
    return new BlockCachePolicy(LFU_NAME, true);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void onHit(BlockAccess access) {
    SlaveCache s = slaves.get(access.slaveId());
    Entry e = s == null ? null : s.byKey.get(access.block());
    if (e != null) {
      touch(s, e);
    }
  }

  @Override
  public CacheDecision onMiss(BlockAccess access, long slaveFreeBytes) {
    SlaveCache s = slaves.computeIfAbsent(access.slaveId(), id -> new SlaveCache());
    Entry existing = s.byKey.get(access.block());
    if (existing != null) {
      touch(s, existing);
      return CacheDecision.admit(CacheDecision.Reason.ADMITTED_DATASET_CACHED, List.of());
    }
    long need = access.blockBytes();
    if (slaveFreeBytes >= need) {
      add(s, access);
      return CacheDecision.admit(CacheDecision.Reason.ADMITTED_FREE_SPACE, List.of());
    }
    if (slaveFreeBytes + s.bytes < need) {
      return CacheDecision.reject(CacheDecision.Reason.REJECTED_TOO_LARGE);
    }
    List<BlockKey> evict = new ArrayList<>();
    long room = slaveFreeBytes;
    while (room < need) {
      Entry victim = s.order.pollFirst();
      s.byKey.remove(victim.key);
      s.bytes -= victim.bytes;
      room += victim.bytes;
      evict.add(victim.key);
    }
    add(s, access);
    return CacheDecision.admit(CacheDecision.Reason.ADMITTED_BY_REPLACEMENT, evict);
  }

  @Override
  public void onCached(String slaveId, BlockKey block) {
    // Blocks are recorded when admitted; a block stored after its eviction is unknown here and the
    // slave's next miss reports the space it occupies as used, which is all this policy needs.
  }

  @Override
  public void onRemoved(String slaveId, BlockKey block) {
    SlaveCache s = slaves.get(slaveId);
    Entry e = s == null ? null : s.byKey.remove(block);
    if (e != null) {
      s.order.remove(e);
      s.bytes -= e.bytes;
    }
  }

  @Override
  public void onSlaveLost(String slaveId) {
    slaves.remove(slaveId);
  }

  @Override
  public List<BlockKey> pendingEvictions(String slaveId) {
    return List.of();
  }

  private void add(SlaveCache s, BlockAccess access) {
    Entry e = new Entry(access.block(), access.blockBytes());
    e.count = 1;
    e.lastTick = ++tick;
    s.byKey.put(e.key, e);
    s.order.add(e);
    s.bytes += e.bytes;
  }

  private void touch(SlaveCache s, Entry e) {
    s.order.remove(e);
    e.count++;
    e.lastTick = ++tick;
    s.order.add(e);
  }

  private int compare(Entry a, Entry b) {
    if (byFrequency && a.count != b.count) {
      return Long.compare(a.count, b.count);
    }
    return Long.compare(a.lastTick, b.lastTick);
  }
}
