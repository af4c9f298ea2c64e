package org.mpcache.benchmarks.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.mpcache.master.arbitrator.AccessStamp;
import org.mpcache.master.arbitrator.BlockAccess;
import org.mpcache.master.arbitrator.CacheDecision;
import org.mpcache.master.arbitrator.DatasetEntry;
import org.mpcache.master.arbitrator.DatasetCachePolicy;
import org.mpcache.master.arbitrator.PolicyParameters;

/**
 * The offline reference, "clairvoyant": Belady's rule at dataset granularity. It knows the whole
 * trace, evicts (whole) the dataset whose next use is farthest away, and admits a dataset that
 * does not fit in the cluster's free room only if its next use comes before that of every dataset
 * it would displace; a dataset never used again is then not admitted. With datasets of unequal sizes this is a strong heuristic, not
 * a proven optimum; it runs in the simulator only because it needs the future.
 *
 * <p>Not thread-safe: the caller serializes every call.
 */
public final class ClairvoyantPolicy extends DatasetCachePolicy {
  /** The name of the clairvoyant reference. */
  public static final String NAME = "clairvoyant";

  private final Map<String, Integer> ordinalOfJob = new HashMap<>();
  private final Map<String, int[]> usesOfDataset = new HashMap<>();
  private int currentOrdinal;

  /** A clairvoyant policy for exactly this trace, in replay order. */
  public ClairvoyantPolicy(List<SimJob> trace) {
    super(NAME, PolicyParameters.defaults());
    Map<String, List<Integer>> uses = new HashMap<>();
    for (int i = 0; i < trace.size(); i++) {
      SimJob job = trace.get(i);
      ordinalOfJob.put(job.jobId(), i);
      uses.computeIfAbsent(job.datasetId(), d -> new ArrayList<>()).add(i);
    }
    uses.forEach((d, list) -> usesOfDataset.put(d,
        list.stream().mapToInt(Integer::intValue).toArray()));
  }

  @Override
  protected void onDatasetAccess(AccessStamp stamp, BlockAccess access) {
    currentOrdinal = ordinalOfJob.getOrDefault(access.jobId(), currentOrdinal);
  }

  @Override
  protected double rank(DatasetEntry dataset) {
    return -nextUse(dataset.id());
  }

  @Override
  protected CacheDecision.Reason refuseAdmission(BlockAccess access, AccessStamp stamp) {
    long deficit = (long) access.datasetBlocks() * access.blockBytes() - reclaimableBytes();
    if (deficit <= 0) {
      return null;
    }
    int next = nextUse(access.datasetId());
    if (next == Integer.MAX_VALUE) {
      return CacheDecision.Reason.REJECTED_NOT_PROFITABLE;
    }
    for (DatasetEntry v : lowestCovering(deficit)) {
      if (nextUse(v.id()) <= next) {
        return CacheDecision.Reason.REJECTED_NOT_PROFITABLE;
      }
    }
    return null;
  }

  /** The ordinal of the first job after the current one that reads the dataset. */
  private int nextUse(String datasetId) {
    int[] uses = usesOfDataset.get(datasetId);
    if (uses == null) {
      return Integer.MAX_VALUE;
    }
    int i = Arrays.binarySearch(uses, currentOrdinal + 1);
    int at = i >= 0 ? i : -i - 1;
    return at < uses.length ? uses[at] : Integer.MAX_VALUE;
  }
}
