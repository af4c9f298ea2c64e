package org.mpcache.common.protocolPB;

import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;
import org.mpcache.common.proto.MpCacheProtos.SpaceReportProto;

/**
 * Zero values and sums of the figures slaves report (space split and counters), for cluster
 * totals and for slaves that have not reported yet. Stateless.
 */
public final class SlaveFigures {

  private SlaveFigures() {
  }

  /** Counters that are all zero. */
  public static SlaveCountersProto.Builder zeroCounters() {
    return SlaveCountersProto.newBuilder().setHits(0).setMisses(0).setBytesFromCache(0)
        .setBytesFromHdfs(0).setFallbacks(0).setBlocksCached(0).setBlocksEvicted(0)
        .setBlocksCorrupt(0);
  }

  /**
   * The Input Cache bytes a space report leaves free: its own capacity and the Dynamic Pool's,
   * less what the Localized Cache borrowed from the pool and what cached blocks use.
   */
  public static long inputCacheFree(SpaceReportProto s) {
    return Math.max(0, s.getInputCacheCapacity() + s.getDynamicPoolCapacity()
        - s.getPoolLentToLocalized() - s.getInputCacheUsed());
  }

  /** A space report that is all zero. */
  public static SpaceReportProto.Builder zeroSpace() {
    return SpaceReportProto.newBuilder().setCapacity(0).setInputCacheCapacity(0)
        .setInputCacheUsed(0).setDynamicPoolCapacity(0).setPoolLentToInput(0)
        .setPoolLentToLocalized(0).setLocalizedCacheCapacity(0).setLocalizedCacheUsed(0);
  }

  /** Adds {@code c} to the running total {@code t}. */
  public static void add(SlaveCountersProto.Builder t, SlaveCountersProto c) {
    t.setHits(t.getHits() + c.getHits()).setMisses(t.getMisses() + c.getMisses())
        .setBytesFromCache(t.getBytesFromCache() + c.getBytesFromCache())
        .setBytesFromHdfs(t.getBytesFromHdfs() + c.getBytesFromHdfs())
        .setFallbacks(t.getFallbacks() + c.getFallbacks())
        .setBlocksCached(t.getBlocksCached() + c.getBlocksCached())
        .setBlocksEvicted(t.getBlocksEvicted() + c.getBlocksEvicted())
        .setBlocksCorrupt(t.getBlocksCorrupt() + c.getBlocksCorrupt())
        .setReadErrors(t.getReadErrors() + c.getReadErrors())
        .setBlocksFailedVerification(
            t.getBlocksFailedVerification() + c.getBlocksFailedVerification())
        .setFillsBySlave(t.getFillsBySlave() + c.getFillsBySlave())
        .setFillsBySlaveFailed(t.getFillsBySlaveFailed() + c.getFillsBySlaveFailed())
        .setDescriptorsGranted(t.getDescriptorsGranted() + c.getDescriptorsGranted())
        .setDescriptorsRefused(t.getDescriptorsRefused() + c.getDescriptorsRefused());
    t.setSsdBytesWritten(t.getSsdBytesWritten() + c.getSsdBytesWritten())
        .setLocalizedBytesGranted(t.getLocalizedBytesGranted() + c.getLocalizedBytesGranted())
        .setVolumeFailures(t.getVolumeFailures() + c.getVolumeFailures());
  }

  /** Adds {@code s} to the running total {@code t}. */
  public static void add(SpaceReportProto.Builder t, SpaceReportProto s) {
    t.setCapacity(t.getCapacity() + s.getCapacity())
        .setInputCacheCapacity(t.getInputCacheCapacity() + s.getInputCacheCapacity())
        .setInputCacheUsed(t.getInputCacheUsed() + s.getInputCacheUsed())
        .setDynamicPoolCapacity(t.getDynamicPoolCapacity() + s.getDynamicPoolCapacity())
        .setPoolLentToInput(t.getPoolLentToInput() + s.getPoolLentToInput())
        .setPoolLentToLocalized(t.getPoolLentToLocalized() + s.getPoolLentToLocalized())
        .setLocalizedCacheCapacity(t.getLocalizedCacheCapacity() + s.getLocalizedCacheCapacity())
        .setLocalizedCacheUsed(t.getLocalizedCacheUsed() + s.getLocalizedCacheUsed());
  }
}
