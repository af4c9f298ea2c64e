package org.mpcache.hdfs;

import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.Interns;
import org.mpcache.common.metrics.MetricsSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's metrics2 source, {@code MpCacheClient} in JMX, one per JVM: the
 * {@link ClientCounters} of every {@link MpCacheFileSystem} in it (hits, misses, bytes from the
 * slaves and from HDFS, fallbacks in all and per cause). Registered without starting a
 * metrics system: it shows where the JVM runs one (task JVMs, the embedded cluster).
 *
 * <p>Thread-safe: it reads the thread-safe counters when asked.
 */
final class ClientMetrics implements MetricsSource {
  static final String NAME = "MpCacheClient";
  private static final Logger LOG = LoggerFactory.getLogger(ClientMetrics.class);
  private static final AtomicBoolean REGISTERED = new AtomicBoolean();

  private ClientMetrics() {
  }

  /** Registers the JVM's source the first time a FileSystem asks; never fails the caller. */
  static void registerOnce() {
    if (REGISTERED.compareAndSet(false, true)) {
      try {
        MetricsSupport.registerPassive(NAME, "mpCache client (this JVM)", new ClientMetrics());
      } catch (RuntimeException e) {
        LOG.debug("mpCache client metrics not registered: {}", e.toString());
      }
    }
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    ClientCounters c = ClientCounters.get();
    MetricsRecordBuilder rb = collector.addRecord(NAME).setContext("mpcache")
        .addCounter(Interns.info("Hits", "Blocks read from a slave's SSD"), c.hits())
        .addCounter(Interns.info("HitsByDescriptor",
            "Hits read from the cached block file through a descriptor the slave passed"),
            c.hitsByDescriptor())
        .addCounter(Interns.info("HitsByRpc",
            "Hits without a descriptor: read through the slave's block stream or read RPC"),
            c.hitsByRpc())
        .addCounter(Interns.info("DescriptorFaults",
            "Local hits whose descriptor could not be had or read: read through stream or RPC"),
            c.descriptorFaults())
        .addCounter(Interns.info("DescriptorCacheHits",
            "Block files read through descriptors had open from the client's descriptor cache"),
            c.descriptorCacheHits())
        .addCounter(Interns.info("HitsByStream",
            "Blocks read through a slave's block stream (per stream and block)"),
            c.hitsByStream())
        .addCounter(Interns.info("Misses", "Blocks read from HDFS"), c.misses())
        .addCounter(Interns.info("Lookups", "lookup calls made to slaves"), c.lookups())
        .addCounter(Interns.info("BytesFromSsd", "Bytes read from slaves"), c.bytesFromCache())
        .addCounter(Interns.info("BytesFromHdfs", "Bytes read from HDFS"), c.bytesFromHdfs())
        .addCounter(Interns.info("Fallbacks", "Reads moved to HDFS after a cache fault"),
            c.totalFallbacks())
        .addCounter(Interns.info("CachedHostsLookups",
            "Calls to the master for the hosts caching a file's blocks"), c.cachedHostsLookups())
        .addCounter(Interns.info("CachedHostsFailures",
            "Cached-host calls that failed (tasks placed by HDFS's locations)"),
            c.cachedHostsFailures());
    for (Map.Entry<FallbackCause, Long> e : c.fallbacks().entrySet()) {
      String cause = e.getKey().wireName();
      rb.addCounter(Interns.info("Fallbacks" + MetricsSupport.name(cause),
          "Fallbacks with cause " + cause), e.getValue());
    }
  }
}
