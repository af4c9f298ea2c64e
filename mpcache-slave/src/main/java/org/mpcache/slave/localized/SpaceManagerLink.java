package org.mpcache.slave.localized;

import org.mpcache.common.protocolPB.LocalizedJob;

/**
 * What the Localized Cache tells the master's Dynamic Space Manager (through the slave's link to
 * the master): that a described job started on this node, so that its prediction is asked for, and
 * the peak localized bytes a described job held here when its application ended. Both calls return
 * at once; the answers to {@link #jobStarted} come back through
 * {@link LocalizedCache#predictionArrived}. Implementations are thread-safe.
 */
public interface SpaceManagerLink {

  /** A described job's first request for room on this node: ask for its prediction. */
  void jobStarted(LocalizedJob job);

  /** A described job's application ended on this node after holding {@code peakBytes}. */
  void jobFinished(LocalizedJob job, long peakBytes);
}
