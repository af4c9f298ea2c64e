package org.mpcache.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.e2e.ClusterFiles.data;
import static org.mpcache.e2e.ClusterFiles.readAll;
import static org.mpcache.e2e.ClusterFiles.readUntilCached;
import static org.mpcache.e2e.ClusterFiles.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.metrics2.MetricsSystem;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mpcache.common.Waits;
import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;
import org.mpcache.e2e.ClusterFiles;
import org.mpcache.hdfs.ClientCounters;
import org.mpcache.master.metrics.MasterMetrics;
import org.mpcache.minicluster.MiniMpCacheCluster;

/**
 * {@code mpcache admin datasets -stats} on the embedded cluster: a dataset of two multi-block
 * files read twice (a pass of misses that fills the cache, then a pass of local hits through the
 * block files' descriptors) shows, once the slaves' heartbeats reached the master, exactly what
 * the slaves counted (their totals: the cluster reads nothing else) and what this JVM's client
 * counted; the master's {@code TopDatasets} metric lists it with the same figures.
 */
class DatasetStatsTest {
  private static final int BLOCK = ClusterFiles.SMALL_BLOCK;
  private static final Path DIR = new Path("/stats");
  private static MiniMpCacheCluster cluster;

  @BeforeAll
  static void start() throws IOException {
    cluster = ClusterFiles.smallBlockCluster("dataset-stats");
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** What this JVM's client counted: hits, misses, bytes from the cache, bytes from HDFS. */
  private static long[] client() {
    ClientCounters c = ClientCounters.get();
    return new long[] {c.hits(), c.misses(), c.bytesFromCache(), c.bytesFromHdfs()};
  }

  /** What the client counted since {@code before}. */
  private static long[] delta(long[] before) {
    long[] now = client();
    for (int i = 0; i < now.length; i++) {
      now[i] -= before[i];
    }
    return now;
  }

  /** The same figures as the slaves counted them. */
  private static long[] slaveFigures(SlaveCountersProto c) {
    return new long[] {c.getHits(), c.getMisses(), c.getBytesFromCache(), c.getBytesFromHdfs()};
  }

  @Test
  void datasetsStats_equalsTheSlaveAndClientCounters() throws Exception {
    Path a = new Path(DIR, "a");
    Path b = new Path(DIR, "b");
    write(cluster, a, data(1, 3 * BLOCK + BLOCK / 2));
    write(cluster, b, data(2, 2 * BLOCK));
    long[] client0 = client();
    long byDescriptor0 = ClientCounters.get().hitsByDescriptor();

    readUntilCached(cluster, a);
    readUntilCached(cluster, b);
    readAll(cluster, a);
    readAll(cluster, b);
    assertTrue(ClientCounters.get().hitsByDescriptor() >= byDescriptor0 + 6,
        "the hit pass read every block through its file's descriptor");

    // Read reports reach the slaves after the reads (some after a fill's last write): the slaves'
    // totals settle on what the client counted.
    Waits.waitFor(() -> Arrays.equals(slaveFigures(cluster.totals()), delta(client0)),
        "the slaves' counters to equal the client's");
    SlaveCountersProto slaves = cluster.totals();
    long[] client = delta(client0);
    // Qualified: a cluster directory left by an earlier run holds blocks of another NameNode's
    // /stats, which the slaves' registration brought back as a dataset of its own.
    String dataset = cluster.plainFileSystem().makeQualified(DIR).toString();
    AdminCliRun.awaitDataset(cluster.conf(), dataset,
        "the slaves' heartbeats bring every figure to the master",
        x -> Arrays.equals(new long[] {x.get("hits").asLong(), x.get("misses").asLong(),
            x.get("bytesFromCache").asLong(), x.get("bytesFromHdfs").asLong()}, client));
    JsonNode shown = AdminCliRun.runUntilOk(cluster.conf(), "datasets", "-stats", "-path",
        dataset, "-json").json().get("datasets").get(0);
    assertEquals(dataset, shown.get("datasetId").asText());
    assertEquals(slaves.getHits(), shown.get("hits").asLong());
    assertEquals(slaves.getMisses(), shown.get("misses").asLong());
    assertEquals(slaves.getBytesFromCache(), shown.get("bytesFromCache").asLong());
    assertEquals(slaves.getBytesFromHdfs(), shown.get("bytesFromHdfs").asLong());
    assertEquals(slaves.getBlocksCached(), shown.get("fills").asLong());
    assertEquals(0, shown.get("evictions").asLong());
    assertEquals(client[0], shown.get("hits").asLong(), "client hits");
    assertEquals(client[1], shown.get("misses").asLong(), "client misses");
    assertEquals(client[2], shown.get("bytesFromCache").asLong(), "client bytes from the cache");
    assertEquals(client[3], shown.get("bytesFromHdfs").asLong(), "client bytes from HDFS");
    long total = 2 * (3 * BLOCK + BLOCK / 2 + 2 * BLOCK);
    assertTrue(shown.get("bytesFromCache").asLong() + shown.get("bytesFromHdfs").asLong()
        >= total, "both passes read every byte: " + shown);
    assertEquals(shown.get("bytesFromCache").asDouble()
        / (shown.get("bytesFromCache").asLong() + shown.get("bytesFromHdfs").asLong()),
        shown.get("byteHitRatio").asDouble(), 1e-9);

    AdminCliRun table = AdminCliRun.runUntilOk(cluster.conf(), "datasets", "-stats");
    // In the test's output, for docs/admin.md.
    System.out.println("$ mpcache admin datasets -stats\n" + table.out);
    assertTrue(table.out.contains("HIT RATIO") && table.out.contains("SAVED (SSD)"), table.out);
    String row = table.out.lines().filter(l -> l.startsWith(dataset)).findFirst()
        .orElseThrow(() -> new AssertionError(table.out));
    assertTrue(row.matches(".*\\s" + slaves.getHits() + "\\s+" + slaves.getMisses()
        + "\\s+\\d+\\.\\d%\\s.*"), row);

    JsonNode top = topDatasets();
    assertEquals(dataset, top.get(0).get("dataset").asText(), top.toString());
    assertEquals(slaves.getBytesFromCache(), top.get(0).get("bytesFromCache").asLong());
    assertEquals(slaves.getHits(), top.get(0).get("hits").asLong());
  }

  /** The master's {@code TopDatasets} metric, as JMX shows it now. */
  private static JsonNode topDatasets() throws Exception {
    // JMX serves a source's figures from a cache refreshed once per metrics period; a restart of
    // the metrics system rebuilds every bean from the figures as they are now.
    MetricsSystem metrics = DefaultMetricsSystem.instance();
    metrics.stop();
    metrics.start();
    MBeanServer mbs = ManagementFactory.getPlatformMBeanServer();
    Set<ObjectName> found = mbs.queryNames(new ObjectName("Hadoop:service=*,name="
        + MasterMetrics.PREFIX + "-" + cluster.master().getRpcAddress().getPort()), null);
    assertEquals(1, found.size(), found::toString);
    return new ObjectMapper().readTree((String) mbs.getAttribute(found.iterator().next(),
        "tag.TopDatasets"));
  }
}
