package org.mpcache.master.metrics;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.Interns;
import org.apache.hadoop.metrics2.lib.MetricsRegistry;
import org.apache.hadoop.metrics2.lib.MutableRatesWithAggregation;
import org.mpcache.common.metrics.MetricsSupport;
import org.mpcache.master.arbitrator.CacheDecision;
import org.mpcache.master.arbitrator.DatasetFigures;
import org.mpcache.master.arbitrator.ReplaceArbitrator;
import org.mpcache.master.registry.SlaveAdmission;
import org.mpcache.master.registry.SlaveRefusals;
import org.mpcache.master.registry.SlaveRegistry;
import org.mpcache.master.status.ArbitratorStats;
import org.mpcache.master.state.MasterStateCheckpointer;
import org.mpcache.master.status.EvictionCause;

/**
 * The master's metrics2 source, {@code MpCacheMaster-<rpc port>} in JMX: slaves live, dead and
 * decommissioning, datasets known, replace requests with admissions and rejections (in all and
 * per reason), slave registrations and calls refused (in all and per reason), block replicas
 * evicted per cause, prefetch blocks queued, checkpoints of the state directory written and
 * failed, the datasets with the most bytes read and their figures (at most {@code topDatasets},
 * as one JSON tag, {@code TopDatasets}), and the time each RPC method took
 * ({@code Rpc<Method>NumOps}, {@code Rpc<Method>AvgTime} in milliseconds). Every metric is listed
 * in {@code docs/metrics.md}.
 *
 * <p>Thread-safe: figures are read from thread-safe owners when the metrics system asks; the RPC
 * rates aggregate per thread.
 */
public final class MasterMetrics implements MetricsSource {
  /** The metrics system's prefix when the master is alone in its JVM. */
  public static final String PREFIX = "MpCacheMaster";

  private final String name;
  private final SlaveRegistry registry;
  private final ReplaceArbitrator arbitrator;
  private final SlaveRefusals slaveRefusals;
  private final MasterStateCheckpointer checkpoints;
  private final int topDatasets;
  private final MetricsRegistry rpcRegistry = new MetricsRegistry("MpCacheMasterRpc");
  private final MutableRatesWithAggregation rpcRates = rpcRegistry.newRatesWithAggregation("Rpc");

  /**
   * @param rpcPort the master's RPC port, which makes the source name unique in the JVM
   * @param topDatasets how many datasets {@code TopDatasets} lists; 0 lists none
   */
  public MasterMetrics(int rpcPort, SlaveRegistry registry, ReplaceArbitrator arbitrator,
      SlaveRefusals slaveRefusals, MasterStateCheckpointer checkpoints, int topDatasets) {
    this.name = PREFIX + "-" + rpcPort;
    this.registry = registry;
    this.arbitrator = arbitrator;
    this.slaveRefusals = slaveRefusals;
    this.checkpoints = checkpoints;
    this.topDatasets = topDatasets;
  }

  /** The source name (the JMX bean's {@code name=}). */
  public String name() {
    return name;
  }

  /** Records one RPC call's duration. */
  public void rpc(String method, long millis) {
    rpcRates.add("Rpc" + method, millis);
  }

  public void register() {
    MetricsSupport.register(PREFIX, name, "mpCache master", this);
  }

  public void unregister() {
    MetricsSupport.unregister(name);
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    ArbitratorStats s = arbitrator.stats();
    MetricsRecordBuilder rb = collector.addRecord(PREFIX).setContext("mpcache")
        .addGauge(Interns.info("LiveSlaves", "Registered slaves"), registry.liveCount())
        .addGauge(Interns.info("DeadSlaves", "Slaves that expired and did not come back"),
            registry.deadCount())
        .addGauge(Interns.info("DecommissioningSlaves", "Live slaves being decommissioned"),
            registry.decommissioning().size())
        .addGauge(Interns.info("Datasets", "Datasets the master keeps a record of"),
            arbitrator.datasetCount())
        .addCounter(Interns.info("ReplaceRequests", "Replace requests from slaves"),
            s.replaceRequests())
        .addCounter(Interns.info("Admissions", "Replace requests admitted"), s.admitted())
        .addCounter(Interns.info("Rejections", "Replace requests rejected"), s.rejected())
        .addCounter(Interns.info("PrefetchBlocksQueued", "Blocks handed to slaves to prefetch"),
            s.prefetchQueued())
        .addCounter(Interns.info("InvalidReportItems",
            "Items of slaves' hit and block reports skipped as invalid"), s.invalidReportItems())
        .addCounter(Interns.info("BlocksAdopted",
            "Blocks registering slaves held that the master adopted"), s.blocksAdopted())
        .addCounter(Interns.info("BlocksNotAdopted",
            "Blocks registering slaves held that the master handed back for eviction"),
            s.blocksNotAdopted())
        .addCounter(Interns.info("SlaveCallsRefused",
            "Slave registrations and calls refused: not the slave identity, host or id"),
            slaveRefusals.total())
        .addCounter(Interns.info("CheckpointsWritten",
            "Checkpoints of the state directory written"), checkpoints.written())
        .addCounter(Interns.info("CheckpointsFailed",
            "Checkpoints of the state directory that failed"), checkpoints.failed());
    for (SlaveAdmission.Outcome o : SlaveAdmission.Outcome.values()) {
      if (o != SlaveAdmission.Outcome.ACCEPTED) {
        rb.addCounter(Interns.info("SlaveRefused" + MetricsSupport.name(o.name()),
            "Slave registrations and calls refused " + o.name()), slaveRefusals.count(o));
      }
    }
    for (CacheDecision.Reason r : CacheDecision.Reason.values()) {
      rb.addCounter(Interns.info("Verdict" + MetricsSupport.name(r.name()),
          "Replace requests answered " + r.name()), s.verdicts(r));
    }
    for (EvictionCause c : EvictionCause.values()) {
      rb.addCounter(Interns.info("Evictions" + MetricsSupport.name(c.name()),
          "Block replicas evicted, cause " + c.name()), s.evictions(c));
    }
    if (topDatasets > 0) {
      rb.tag(Interns.info("TopDatasets", "The datasets with the most bytes read (JSON), most "
          + "first: hits, misses, bytes from the SSDs and from HDFS, fills, evictions"),
          topDatasetsJson());
    }
    rpcRegistry.snapshot(rb, all);
  }

  /** The top datasets as a JSON array of objects, one per dataset. */
  String topDatasetsJson() {
    ArrayNode a = JsonNodeFactory.instance.arrayNode();
    for (Map.Entry<String, DatasetFigures.Totals> e
        : arbitrator.topDatasetsByBytesRead(topDatasets)) {
      DatasetFigures.Totals t = e.getValue();
      ObjectNode o = a.addObject().put("dataset", e.getKey()).put("hits", t.hits())
          .put("misses", t.misses()).put("bytesFromCache", t.bytesFromCache())
          .put("bytesFromHdfs", t.bytesFromHdfs()).put("fills", t.fills())
          .put("evictions", t.evictions());
      if (t.bytesRead() > 0) {
        o.put("byteHitRatio", t.byteHitRatio());
      }
    }
    return a.toString();
  }
}
