package org.mpcache.slave.metrics;

import java.util.Map;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.Interns;
import org.mpcache.common.metrics.MetricsSupport;
import org.mpcache.common.proto.ClientSlaveProtos.FallbackCauseProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;
import org.mpcache.common.proto.MpCacheProtos.SpaceReportProto;
import org.mpcache.slave.MpCacheSlave;
import org.mpcache.slave.cache.BlockStreamServer;
import org.mpcache.slave.cache.DescriptorServer;
import org.mpcache.slave.cache.FillFailure;

/**
 * A slave's metrics2 source, {@code MpCacheSlave-<client port>} in JMX: the SSD space per region
 * (Input Cache, Dynamic Pool and what it lends, Localized Cache), the pool's unit moves, hits and misses, bytes served
 * from the SSD and bytes clients read from HDFS instead, fallbacks in all and per cause, fills
 * and the failed fills per cause,
 * evictions, corrupt blocks, fills in progress, the datasets counted and forgotten, and the
 * filler's figures. Every metric is
 * listed in {@code docs/metrics.md}.
 *
 * <p>Thread-safe: every figure is read from the slave's thread-safe counters and store when the
 * metrics system asks.
 */
public final class SlaveMetrics implements MetricsSource {
  /** The metrics system's prefix when the slave is alone in its JVM. */
  public static final String PREFIX = "MpCacheSlave";

  private final String name;
  private final MpCacheSlave slave;

  /**
   * @param port the slave's client RPC port, which makes the source name unique in the JVM
   */
  public SlaveMetrics(int port, MpCacheSlave slave) {
    this.name = PREFIX + "-" + port;
    this.slave = slave;
  }

  /** The source name (the JMX bean's {@code name=}). */
  public String name() {
    return name;
  }

  public void register() {
    MetricsSupport.register(PREFIX, name, "mpCache slave", this);
  }

  public void unregister() {
    MetricsSupport.unregister(name);
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    SpaceReportProto s = slave.space();
    SlaveCountersProto c = slave.counters();
    MetricsRecordBuilder rb = collector.addRecord(PREFIX).setContext("mpcache")
        .tag(Interns.info("SlaveId", "host:port of the slave"), slave.info().getSlaveId())
        .addGauge(Interns.info("SsdCapacity", "SSD bytes the slave manages"), s.getCapacity())
        .addGauge(Interns.info("InputCacheCapacity", "Input Cache bytes"),
            s.getInputCacheCapacity())
        .addGauge(Interns.info("InputCacheUsed", "Input Cache bytes used"), s.getInputCacheUsed())
        .addGauge(Interns.info("DynamicPoolCapacity", "Dynamic Pool bytes"),
            s.getDynamicPoolCapacity())
        .addGauge(Interns.info("PoolLentToInput", "Dynamic Pool bytes lent to the Input Cache"),
            s.getPoolLentToInput())
        .addGauge(Interns.info("PoolLentToLocalized",
            "Dynamic Pool bytes lent to the Localized Cache"), s.getPoolLentToLocalized())
        .addCounter(Interns.info("PoolMoves",
            "Dynamic Pool units lent to a cache or returned to the pool"), slave.poolMoves())
        .addGauge(Interns.info("LocalizedCacheCapacity", "Localized Cache bytes"),
            s.getLocalizedCacheCapacity())
        .addGauge(Interns.info("LocalizedCacheUsed", "Localized Cache bytes used"),
            s.getLocalizedCacheUsed())
        .addCounter(Interns.info("LocalizedBytesGranted",
            "Localized bytes tasks asked for and were granted on the SSD"),
            slave.getLocalizedCache().bytesGranted())
        .addCounter(Interns.info("LocalizedBytesDenied",
            "Localized bytes tasks asked for and were sent to the HDDs"),
            slave.getLocalizedCache().bytesDenied())
        .addCounter(Interns.info("LocalizedBytesReturned",
            "Granted localized bytes tasks gave back before their containers ended"),
            slave.getLocalizedCache().bytesReturned())
        .addCounter(Interns.info("SpacePredictionsApplied",
            "Jobs whose split started from the Dynamic Space Manager's prediction from history"),
            slave.getLocalizedCache().predictionsApplied())
        .addCounter(Interns.info("Hits", "Block lookups found cached"), c.getHits())
        .addCounter(Interns.info("HitReportsDropped",
            "Hits not reported to the master because 10,000 reports waited already"),
            slave.getMasterLink().hitsDropped())
        .addCounter(Interns.info("Misses", "Block lookups not found"), c.getMisses())
        .addCounter(Interns.info("BytesFromSsd", "Bytes served from the SSD"),
            c.getBytesFromCache())
        .addCounter(Interns.info("BytesFromHdfs", "Bytes clients read from HDFS instead"),
            c.getBytesFromHdfs())
        .addCounter(Interns.info("Fallbacks", "Reads clients moved to HDFS after a cache fault"),
            c.getFallbacks())
        .addCounter(Interns.info("Fills",
            "Blocks cached (filled by the slave for readers, prefetch)"),
            c.getBlocksCached())
        .addCounter(Interns.info("SsdBytesWritten",
            "Bytes written to the SSD for the Input Cache (every fill's data and checksums)"),
            c.getSsdBytesWritten())
        .addCounter(Interns.info("FillsBySlave",
            "Blocks the slave read from HDFS itself for readers' misses"), c.getFillsBySlave())
        .addCounter(Interns.info("FillsBySlaveFailed",
            "Fills for readers' misses that failed or found the queue full"),
            c.getFillsBySlaveFailed())
        .addCounter(Interns.info("FillsRefusedForeignSource",
            "Fills refused, unqueued: their path named a file system other than the cluster's"
            + " own HDFS"), slave.getFillSources().refused())
        .addCounter(Interns.info("DescriptorsGranted",
            "Block file descriptors handed to local readers over the domain socket"),
            c.getDescriptorsGranted())
        .addCounter(Interns.info("DescriptorsRefused",
            "Descriptor requests refused (not authorized, or malformed)"),
            c.getDescriptorsRefused())
        .addGauge(Interns.info("DescriptorsHeld",
            "Block files local readers hold open; an evicted one keeps its space until closed"),
            slave.getStore().leasesHeld())
        .addCounter(Interns.info("Evictions", "Blocks evicted on the master's order"),
            c.getBlocksEvicted())
        .addGauge(Interns.info("DatasetsCounted", "Datasets the slave keeps figures for"),
            slave.getCounters().datasets().size())
        .addCounter(Interns.info("DatasetsForgotten", "Datasets forgotten past "
            + "mpcache.slave.datasets.max before the master had their latest figures"),
            slave.getCounters().datasets().forgotten())
        .addCounter(Interns.info("CorruptBlocks", "Cached blocks dropped as corrupt"),
            c.getBlocksCorrupt())
        .addCounter(Interns.info("BlocksFailedVerification",
            "Blocks found on the SSD at start whose bytes failed their checksums (dropped)"),
            c.getBlocksFailedVerification())
        .addCounter(Interns.info("ReadErrors",
            "Reads failed by an I/O error that is not corruption; the block was kept"),
            c.getReadErrors())
        .addCounter(Interns.info("VolumeFailures",
            "Times an SSD directory was taken out of service after repeated faults"),
            c.getVolumeFailures())
        .addGauge(Interns.info("VolumesOutOfService",
            "SSD directories out of service now (until mpcache admin refresh or a restart)"),
            s.getDirsList().stream().filter(d -> !d.getInService()).count())
        .addCounter(Interns.info("PrefetchFills", "Blocks cached by prefetch"),
            slave.getFiller().filled())
        .addCounter(Interns.info("PrefetchBytes", "Bytes prefetch read from HDFS"),
            slave.getFiller().bytesRead())
        .addCounter(Interns.info("PrefetchBytesLocal",
            "Of PrefetchBytes, those read from the local DataNode's block files directly"),
            slave.getFiller().bytesReadLocally())
        .addCounter(Interns.info("FillsHeldOffMs",
            "Milliseconds readers' fills waited for the misses on their files to stop"),
            slave.getFiller().heldOffMs())
        .addCounter(Interns.info("FillsYieldedMs",
            "Milliseconds fills waited for foreground work on the SSD (hits, Localized writes)"),
            slave.getFiller().yieldedMs())
        .addCounter(Interns.info("PrefetchSkipped",
            "Prefetch commands not carried out (cached, not admitted, file changed, queue full)"),
            slave.getFiller().skipped())
        .addCounter(Interns.info("PrefetchFailed", "Prefetch commands that failed"),
            slave.getFiller().failed());
    BlockStreamServer stream = slave.getStreamServer();
    rb.addGauge(Interns.info("StreamConnections",
        "Block stream connections open (mpcache.slave.stream.max-connections at most)"),
        stream == null ? 0 : stream.connections())
        .addCounter(Interns.info("StreamConnectionsRefused",
            "Block stream connections refused: mpcache.slave.stream.max-connections were open"),
            stream == null ? 0 : stream.connectionsRefused());
    DescriptorServer descriptors = slave.getDescriptorServer();
    rb.addGauge(Interns.info("DescriptorConnections", "Descriptor server connections open"
        + " (mpcache.slave.domain.socket.max-connections at most)"),
        descriptors == null ? 0 : descriptors.connections())
        .addCounter(Interns.info("DescriptorConnectionsRefused", "Descriptor server connections"
            + " refused: mpcache.slave.domain.socket.max-connections were open"),
            descriptors == null ? 0 : descriptors.connectionsRefused());
    for (Map.Entry<FallbackCauseProto, Long> e :
        slave.getCounters().fallbacksByCause().entrySet()) {
      rb.addCounter(Interns.info("Fallbacks" + MetricsSupport.name(e.getKey().name()),
          "Fallbacks clients reported with cause " + e.getKey()), e.getValue());
    }
    for (Map.Entry<FillFailure, Long> e : slave.getCounters().fillsBySlaveFailed().entrySet()) {
      rb.addCounter(Interns.info("FillsBySlaveFailed" + MetricsSupport.name(e.getKey().name()),
          "Fills for readers' misses that failed with cause " + e.getKey()), e.getValue());
    }
  }
}
