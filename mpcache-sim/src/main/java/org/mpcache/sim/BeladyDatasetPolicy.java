package org.mpcache.sim;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.mpcache.common.BlockKey;
import org.mpcache.master.arbitrator.BlockAccess;
import org.mpcache.master.arbitrator.CacheDecision;
import org.mpcache.master.arbitrator.CachePolicy;

/**
 * An offline heuristic at dataset granularity, for the simulator only: it knows the whole trace,
 * and when a slave needs room it evicts the cached dataset whose next job comes last (Belady's
 * rule over datasets), whole and from every slave; it does not cache a dataset whose own next job
 * comes later than every candidate victim's. It is not a bound: with datasets of unequal sizes
 * Belady's rule maximises reuse, not complete inputs, and online policies beat it on effective hit
 * ratio; {@link HitBound} is the upper bound. Not thread-safe.
 */
final class BeladyDatasetPolicy implements CachePolicy {
  static final String NAME = "belady";

  /** For each dataset, the indexes of the jobs that read it, ascending. */
  private final Map<String, int[]> uses = new HashMap<>();
  private final Map<String, Integer> jobIndex = new HashMap<>();
  private final Map<String, Map<BlockKey, Set<String>>> cached = new HashMap<>();
  private final Map<BlockKey, String> datasetOf = new HashMap<>();
  private final Map<BlockKey, Long> bytesOf = new HashMap<>();
  private final Map<String, List<BlockKey>> toDel = new HashMap<>();

  BeladyDatasetPolicy(List<SimJob> trace) {
    Map<String, List<Integer>> u = new HashMap<>();
    for (int i = 0; i < trace.size(); i++) {
      SimJob j = trace.get(i);
      jobIndex.put(j.id, i);
      u.computeIfAbsent(j.dataset, d -> new ArrayList<>()).add(i);
    }
    u.forEach((d, l) -> uses.put(d, l.stream().mapToInt(Integer::intValue).toArray()));
  }

  @Override
  public String name() {
    return NAME;
  }

  /** The index of the first job after {@code now} that reads {@code dataset}; MAX if none. */
  private int nextUse(String dataset, int now) {
    int[] a = uses.get(dataset);
    if (a == null) {
      return Integer.MAX_VALUE;
    }
    int lo = 0;
    int hi = a.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (a[mid] <= now) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo < a.length ? a[lo] : Integer.MAX_VALUE;
  }

  @Override
  public void onHit(BlockAccess access) {
  }

  @Override
  public CacheDecision onMiss(BlockAccess a, long slaveFreeBytes) {
    long need = a.blockBytes() - Math.max(0, slaveFreeBytes);
    if (need <= 0) {
      track(a);
      return CacheDecision.admit(CacheDecision.Reason.ADMITTED_FREE_SPACE, List.of());
    }
    int now = jobIndex.getOrDefault(a.jobId(), 0);
    int mine = nextUse(a.datasetId(), now);
    List<String> victims = new ArrayList<>();
    long freed = 0;
    Set<String> taken = new HashSet<>();
    while (freed < need) {
      String worst = null;
      int worstUse = -1;
      for (String d : cached.keySet()) {
        if (d.equals(a.datasetId()) || taken.contains(d)) {
          continue;
        }
        int n = nextUse(d, now);
        if (n > worstUse || n == worstUse && worst != null && d.compareTo(worst) < 0) {
          worst = d;
          worstUse = n;
        }
      }
      if (worst == null || worstUse < mine) {
        return CacheDecision.reject(worst == null ? CacheDecision.Reason.REJECTED_TOO_LARGE
            : CacheDecision.Reason.REJECTED_NOT_PROFITABLE);
      }
      taken.add(worst);
      victims.add(worst);
      for (Map.Entry<BlockKey, Set<String>> e : cached.get(worst).entrySet()) {
        if (e.getValue().contains(a.slaveId())) {
          freed += bytesOf.get(e.getKey());
        }
      }
    }
    List<BlockKey> here = new ArrayList<>();
    for (String v : victims) {
      for (Map.Entry<BlockKey, Set<String>> e : cached.remove(v).entrySet()) {
        datasetOf.remove(e.getKey());
        for (String s : e.getValue()) {
          if (s.equals(a.slaveId())) {
            here.add(e.getKey());
          } else {
            toDel.computeIfAbsent(s, x -> new ArrayList<>()).add(e.getKey());
          }
        }
      }
    }
    track(a);
    return CacheDecision.admit(CacheDecision.Reason.ADMITTED_BY_REPLACEMENT, here);
  }

  private void track(BlockAccess a) {
    datasetOf.put(a.block(), a.datasetId());
    bytesOf.put(a.block(), a.blockBytes());
  }

  @Override
  public void adopt(String slaveId, BlockKey block, long blockBytes, String datasetId,
      int datasetBlocks) {
    datasetOf.putIfAbsent(block, datasetId);
    bytesOf.putIfAbsent(block, blockBytes);
    onCached(slaveId, block);
  }

  @Override
  public void onCached(String slaveId, BlockKey block) {
    String d = datasetOf.get(block);
    if (d == null) {
      toDel.computeIfAbsent(slaveId, x -> new ArrayList<>()).add(block);
      return;
    }
    cached.computeIfAbsent(d, x -> new HashMap<>()).computeIfAbsent(block, x -> new HashSet<>())
        .add(slaveId);
  }

  @Override
  public void onRemoved(String slaveId, BlockKey block) {
    String d = datasetOf.get(block);
    Map<BlockKey, Set<String>> m = d == null ? null : cached.get(d);
    if (m == null || !m.containsKey(block)) {
      return;
    }
    m.get(block).remove(slaveId);
    if (m.get(block).isEmpty()) {
      m.remove(block);
      datasetOf.remove(block);
    }
    if (m.isEmpty()) {
      cached.remove(d);
    }
  }

  @Override
  public void onSlaveLost(String slaveId) {
    toDel.remove(slaveId);
    for (BlockKey k : new ArrayList<>(datasetOf.keySet())) {
      onRemoved(slaveId, k);
    }
  }

  @Override
  public List<BlockKey> pendingEvictions(String slaveId) {
    List<BlockKey> l = toDel.remove(slaveId);
    return l == null ? List.of() : l;
  }

  @Override
  public Set<String> slavesWithPendingEvictions() {
    return toDel.keySet();
  }
}
