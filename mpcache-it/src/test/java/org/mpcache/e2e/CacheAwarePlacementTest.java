package org.mpcache.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mpcache.common.BlockKey;
import org.mpcache.common.Waits;
import org.mpcache.hdfs.ClientConfigKeys;
import org.mpcache.minicluster.MiniMpCacheCluster;
import org.mpcache.slave.MpCacheSlave;

/**
 * Cache-aware task placement on an embedded cluster of three nodes, each on its own loopback
 * address so that YARN tells them apart, with HDFS replication 2: once a multi-block dataset is
 * cached, the block locations the intercepting FileSystem lists name the hosts whose slave holds
 * each block, and a map-only job over it runs its map tasks (by the job's task completion events)
 * on those hosts (the share is printed). With cached hosts off, the FileSystem lists HDFS's own
 * locations, the ones MapReduce then requests its containers by: no cached hosts, the DataNodes'
 * hosts.
 */
class CacheAwarePlacementTest {
  private static final int BLOCK = 1 << 20;
  private static final int NODES = 3;
  private static MiniMpCacheCluster cluster;

  @BeforeAll
  static void start() throws IOException {
    // The scheduler waits for a map's node by time, not by missed opportunities: the
    // CapacityScheduler caps those at the node count (three here), which a loaded machine's late
    // node heartbeats use up. The delay only bounds the wait; a free node is taken at once (10 s
    // let 4 of 20 maps go elsewhere on a loaded machine).
    cluster = new MiniMpCacheCluster.Builder(new File("target/e2e/placement")).dataNodes(NODES)
        .yarn(true).nodeHosts(true).blockSize(BLOCK)
        .set(YarnConfiguration.RM_SCHEDULER, FairScheduler.class.getName())
        .set("yarn.scheduler.fair.continuous-scheduling-enabled", "true")
        .set("yarn.scheduler.fair.locality-delay-node-ms", "60000")
        .set("yarn.scheduler.fair.locality-delay-rack-ms", "60000")
        // The node heartbeats this test was tuned with: at the cluster's 250 ms, a loaded
        // machine's scheduler placed 17 of 20 maps beside their cached block.
        .set(YarnConfiguration.RM_NM_HEARTBEAT_INTERVAL_MS, "1000")
        .build();
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** Writes, per map task, its split's start and the node its container ran on. */
  public static final class WhereMapper extends Mapper<LongWritable, Text, LongWritable, Text> {
    @Override
    protected void map(LongWritable key, Text value, Context context) {
      // The records are read (through the cache); where the task runs is what counts.
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
      context.write(new LongWritable(((FileSplit) context.getInputSplit()).getStart()),
          new Text(System.getenv("NM_HOST")));
    }
  }

  /** The hosts whose slave holds each block of {@code file}, by block start offset. */
  private static Map<Long, Set<String>> holders(Path file) throws IOException {
    Map<Long, Set<String>> out = new HashMap<>();
    for (LocatedBlock b : DFSTestUtil.getAllBlocks(cluster.plainFileSystem(), file)) {
      ExtendedBlock e = b.getBlock();
      BlockKey key = new BlockKey(e.getBlockPoolId(), e.getBlockId(), e.getGenerationStamp());
      Set<String> hosts = new TreeSet<>();
      List<MpCacheSlave> slaves = cluster.slaves();
      for (int i = 0; i < slaves.size(); i++) {
        if (slaves.get(i).getStore().cachedLength(key) >= 0) {
          hosts.add(cluster.nodeHost(i));
        }
      }
      out.put(b.getStartOffset(), hosts);
    }
    return out;
  }

  /**
   * Each block's cached hosts as a fresh intercepting FileSystem lists them (in located statuses,
   * as FileInputFormat lists its input, or by getFileBlockLocations), by offset.
   */
  private static Map<Long, Set<String>> listedCachedHosts(Path file, boolean located) {
    Map<Long, Set<String>> out = new HashMap<>();
    try (FileSystem fs = cluster.fileSystem()) {
      for (BlockLocation loc : locations(fs, file, located)) {
        Set<String> cached = new TreeSet<>(List.of(loc.getCachedHosts()));
        if (!cached.isEmpty()) {
          // What MapReduce requests containers by.
          assertEquals(cached, new TreeSet<>(List.of(loc.getHosts())), "hosts at " + loc);
        }
        out.put(loc.getOffset(), cached);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /** The block locations {@code fs} lists for {@code file}: in located statuses, or not. */
  private static List<BlockLocation> locations(FileSystem fs, Path file, boolean located)
      throws IOException {
    List<BlockLocation> locations = new ArrayList<>();
    if (located) {
      RemoteIterator<LocatedFileStatus> it = fs.listLocatedStatus(file);
      while (it.hasNext()) {
        locations.addAll(List.of(it.next().getBlockLocations()));
      }
    } else {
      locations.addAll(List.of(fs.getFileBlockLocations(fs.getFileStatus(file), 0,
          Long.MAX_VALUE)));
    }
    return locations;
  }

  /** Each block's hosts and cached hosts, by offset, for comparing listings. */
  private static Map<Long, List<Set<String>>> hostsAndCached(List<BlockLocation> locations)
      throws IOException {
    Map<Long, List<Set<String>>> out = new HashMap<>();
    for (BlockLocation loc : locations) {
      out.put(loc.getOffset(), List.of(new TreeSet<>(List.of(loc.getHosts())),
          new TreeSet<>(List.of(loc.getCachedHosts()))));
    }
    return out;
  }

  /**
   * With {@code mpcache.client.cached.hosts.enabled=false}, a fresh intercepting FileSystem lists
   * {@code file}'s blocks as plain HDFS does (its DataNodes' hosts, no cached hosts), both ways,
   * though every block is cached; asserts it and returns the hosts it lists.
   */
  private static Set<String> assertHdfsLocationsWithCachedHostsOff(Path file) throws IOException {
    Configuration conf = cluster.conf();
    conf.setBoolean(ClientConfigKeys.CACHED_HOSTS_ENABLED_KEY, false);
    FileSystem plain = cluster.plainFileSystem();
    Set<String> hosts = new TreeSet<>();
    try (FileSystem fs = FileSystem.newInstance(cluster.dfs().getURI(), conf)) {
      for (boolean located : new boolean[] {true, false}) {
        List<BlockLocation> listed = locations(fs, file, located);
        assertEquals(hostsAndCached(locations(plain, file, located)), hostsAndCached(listed),
            "cached hosts off, " + (located ? "located statuses" : "getFileBlockLocations"));
        for (BlockLocation loc : listed) {
          assertEquals(0, loc.getCachedHosts().length, "no cached hosts at " + loc);
          hosts.addAll(List.of(loc.getHosts()));
        }
      }
    }
    return hosts;
  }

  /** The share of a map-only job's tasks that ran on a host holding their split's block. */
  private record Placement(int maps, int onHolder, long dataLocal, long rackLocal) {
    double share() {
      return onHolder / (double) maps;
    }
  }

  /** Runs the map-only job over {@code in} with cached hosts on (the default). */
  private static Placement run(Path in, Path out) throws Exception {
    Map<Long, Set<String>> holders = holders(in);
    Configuration conf = cluster.conf();
    conf.set(MRJobConfig.QUEUE_NAME, "root.default");
    Job job = Job.getInstance(conf, "placement");
    job.setMapperClass(WhereMapper.class);
    job.setNumReduceTasks(0);
    job.setInputFormatClass(TextInputFormat.class);
    job.setOutputFormatClass(TextOutputFormat.class);
    job.setOutputKeyClass(LongWritable.class);
    job.setOutputValueClass(Text.class);
    FileInputFormat.addInputPath(job, in);
    FileOutputFormat.setOutputPath(job, out);
    assertTrue(job.waitForCompletion(false), "job " + job.getJobID() + " failed");

    // Where each map task ran, from the job's task completion events.
    Map<Integer, String> hostOfTask = new HashMap<>();
    for (TaskCompletionEvent e : job.getTaskCompletionEvents(0, 10_000)) {
      if (e.isMapTask() && e.getStatus() == TaskCompletionEvent.Status.SUCCEEDED) {
        hostOfTask.put(e.getTaskAttemptId().getTaskID().getId(),
            URI.create(e.getTaskTrackerHttp()).getHost());
      }
    }
    int onHolder = 0;
    List<String> where = new ArrayList<>();
    FileSystem fs = cluster.plainFileSystem();
    for (Map.Entry<Integer, String> t : hostOfTask.entrySet()) {
      Path part = new Path(out, String.format("part-m-%05d", t.getKey()));
      String line;
      try (InputStream i = fs.open(part)) {
        line = new String(i.readAllBytes(), StandardCharsets.UTF_8).trim();
      }
      String[] startAndHost = line.split("\t");
      assertEquals(t.getValue(), startAndHost[1], "the task's NM_HOST and its completion event");
      Set<String> blockHolders = holders.get(Long.parseLong(startAndHost[0]));
      if (blockHolders.contains(t.getValue())) {
        onHolder++;
      }
      where.add(startAndHost[0] + "@" + t.getValue() + (blockHolders.contains(t.getValue())
          ? "" : " (held on " + blockHolders + ")"));
    }
    Placement p = new Placement(hostOfTask.size(), onHolder,
        job.getCounters().findCounter(JobCounter.DATA_LOCAL_MAPS).getValue(),
        job.getCounters().findCounter(JobCounter.RACK_LOCAL_MAPS).getValue());
    System.out.printf("Cache-aware placement, cached hosts on: %d of %d map tasks (%.0f%%) ran on "
        + "a node whose slave holds their block; DATA_LOCAL_MAPS %d, RACK_LOCAL_MAPS %d; %s%n",
        p.onHolder(), p.maps(), 100 * p.share(), p.dataLocal(), p.rackLocal(), where);
    return p;
  }

  @Test
  void mapTasks_runWhereTheirBlockIsCached() throws Exception {
    // Enough maps that one placed off its node does not decide the share.
    Path in = WordCountJobs.text(cluster, new Path("/placement/input"), 20L * BLOCK, 41);
    int blocks = DFSTestUtil.getAllBlocks(cluster.plainFileSystem(), in).size();
    assertTrue(blocks >= 20, "a multi-block dataset: " + blocks);
    ClusterFiles.readAll(cluster, in);
    Waits.waitFor(() -> {
      try {
        return holders(in).values().stream().noneMatch(Set::isEmpty);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }, "every block of " + in + " to be cached");
    // The master learns of each copy from its slave's block report.
    Waits.waitFor(() -> listedCachedHosts(in, true).values().stream().noneMatch(Set::isEmpty),
        "the master to know where every block of " + in + " is cached");
    Map<Long, Set<String>> holders = holders(in);
    assertEquals(holders, listedCachedHosts(in, true), "located statuses' cached hosts");
    assertEquals(holders, listedCachedHosts(in, false), "getFileBlockLocations' cached hosts");

    System.out.println("Cache-aware placement, cached hosts off: every split names HDFS's hosts "
        + assertHdfsLocationsWithCachedHostsOff(in));

    Placement with = run(in, new Path("/placement/with"));
    // FileInputFormat folds a short last block into the split before it.
    assertTrue(with.maps() >= blocks - 1, with.maps() + " map tasks");
    assertTrue(with.share() >= 0.9, "with cached hosts only " + with.onHolder() + " of "
        + with.maps() + " map tasks ran beside their cached block");
    assertTrue(with.dataLocal() >= 0.9 * with.maps(), "DATA_LOCAL_MAPS " + with.dataLocal());
  }
}
