package org.mpcache.master.arbitrator;

import java.util.Comparator;
import org.mpcache.common.proto.MasterStateProtos.PolicyStateProto;

/**
 * GreedyDual-Size-Frequency (Cherkasova, HP Labs report HPL-98-69R1, 1998) at dataset granularity:
 * each cached dataset has priority {@code L + Frequency/Size}, recomputed with the current
 * {@code L} at every request for it, where Frequency is its dataset accesses since it entered the
 * cache and Size its blocks; the lowest-priority datasets are evicted whole from every slave and
 * {@code L} is raised to each victim's priority. It is mpCache's replacement without the
 * all-or-nothing {@code Full} bonus and without admission control, so comparing the two isolates
 * what those add. Pure and deterministic; not thread-safe.
 */
final class GdsfPolicy extends DatasetEvictionPolicy {
  /** The inflation value L: the priority of the last victim. */
  private double inflation;

  GdsfPolicy(PlacementIndex placement) {
    super(placement);
  }

  @Override
  public String name() {
    return CachePolicies.GDSF;
  }

  /** The current L (for tests and reports). */
  double inflation() {
    return inflation;
  }

  /** The priority of a tracked dataset, NaN when unknown (for tests). */
  double priorityOf(String datasetId) {
    DatasetRecord d = datasets.tracked(datasetId);
    return d == null ? Double.NaN : d.priority;
  }

  /** L goes in the state's Clock field. */
  @Override
  void exportTerms(PolicyStateProto.Builder state) {
    state.setClock(inflation);
  }

  @Override
  void restoreTerms(PolicyStateProto state) {
    inflation = state.getClock();
  }

  @Override
  Comparator<DatasetRecord> victimOrder() {
    return (x, y) -> {
      int c = Double.compare(x.priority, y.priority);
      return c != 0 ? c : Long.compare(x.lastAccessSeq, y.lastAccessSeq);
    };
  }

  @Override
  void afterRequest(DatasetRecord d, boolean admitted) {
    d.priority = inflation + d.accesses / (double) d.size;
    super.afterRequest(d, admitted);
  }

  @Override
  void afterEvict(DatasetRecord d) {
    inflation = Math.max(inflation, d.priority);
    super.afterEvict(d);
  }
}
