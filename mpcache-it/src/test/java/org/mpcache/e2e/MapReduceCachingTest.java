package org.mpcache.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mpcache.minicluster.MiniMpCacheCluster;
import org.mpcache.benchmarks.datagen.DataGenerators;
import org.mpcache.benchmarks.datagen.DatasetKind;
import org.mpcache.benchmarks.puma.TeraSort;
import org.mpcache.benchmarks.puma.WikiLine;
import org.mpcache.common.BlockKey;
import org.mpcache.common.Waits;
import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;

/**
 * Unmodified MapReduce jobs (PUMA word-count over Wikipedia-like text, PUMA tera-sort) on
 * MiniDFSCluster + MiniMRYarnCluster with mpCache: the second run of
 * a job reads its input from the slaves' SSD caches, outputs are byte-identical to plain HDFS's,
 * an overwritten input is never served stale, and a slave dying mid-job fails nothing.
 */
class MapReduceCachingTest {
  private static final long BLOCK = 2L << 20;
  private static MiniMpCacheCluster cluster;

  @BeforeAll
  static void start() throws IOException {
    cluster = new MiniMpCacheCluster.Builder(new File("target/e2e/mapreduce")).yarn(true)
        .blockSize(BLOCK).build();
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static Job wordCount(Path in, Path out) throws Exception {
    return WordCountJobs.wordCount(cluster.conf(), in, out);
  }

  private static void run(Path in, Path out) throws Exception {
    WordCountJobs.run(cluster.conf(), in, out);
  }

  private static Path text(Path dir, long bytes, long seed) throws IOException {
    return WordCountJobs.text(cluster, dir, bytes, seed);
  }

  private static byte[] output(Path dir) throws IOException {
    return WordCountJobs.output(cluster, dir);
  }

  /** Word counts computed in plain Java from the file's bytes, with word-count's notion of a word. */
  private static Map<String, Integer> expectedCounts(Path file) throws IOException {
    Map<String, Integer> counts = new TreeMap<>();
    try (InputStream in = cluster.plainFileSystem().open(file)) {
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      for (String line : text.split("\n")) {
        for (String w : WikiLine.words(new Text(line))) {
          counts.merge(w, 1, Integer::sum);
        }
      }
    }
    return counts;
  }

  private static Map<String, Integer> parse(byte[] output) {
    Map<String, Integer> counts = new TreeMap<>();
    for (String line : new String(output, StandardCharsets.UTF_8).split("\n")) {
      if (!line.isEmpty()) {
        String[] kv = line.split("\t");
        counts.put(kv[0], Integer.parseInt(kv[1]));
      }
    }
    return counts;
  }

  @Test
  void wordCount_secondRunReadsInputFromCache() throws Exception {
    Path in = text(new Path("/wc/input"), 5 * BLOCK + BLOCK / 3, 11);
    long inputBytes = cluster.plainFileSystem().getFileStatus(in).getLen();

    byte[] plain = WordCountJobs.plainOutput(cluster, in.getParent(), new Path("/wc/plain"));
    run(in.getParent(), new Path("/wc/first"));
    SlaveCountersProto before = cluster.totals();
    run(in.getParent(), new Path("/wc/second"));
    SlaveCountersProto after = cluster.totals();

    long fromCache = after.getBytesFromCache() - before.getBytesFromCache();
    long fromHdfs = after.getBytesFromHdfs() - before.getBytesFromHdfs();
    double ratio = fromCache / (double) (fromCache + fromHdfs);
    assertTrue(fromCache >= inputBytes * 0.9, "second run read only " + fromCache + " of "
        + inputBytes + " input bytes from the cache");
    assertTrue(ratio >= 0.9, "second run read " + fromCache + " bytes from the cache and "
        + fromHdfs + " from HDFS: ratio " + ratio);
    assertArrayEquals(plain, output(new Path("/wc/first")));
    assertArrayEquals(plain, output(new Path("/wc/second")));
    assertEquals(expectedCounts(in), parse(plain));
  }

  /**
   * A job's tasks read its staging files (the split file in every map, the split meta-information
   * for the Localized Cache's job description) from HDFS without the cache: no lookups, no fills,
   * no dataset of them on the master.
   */
  @Test
  void wordCount_stagingFilesBypassTheCache() throws Exception {
    Path in = text(new Path("/wc/staging-input"), 2 * BLOCK, 17);
    run(in.getParent(), new Path("/wc/staging-out"));
    List<String> staging = cluster.master().getArbitrator()
        .datasets(id -> id.contains("/.staging")).stream()
        .map(d -> d.getDatasetId() + " (" + d.getCachedBlocks() + " blocks cached)").toList();
    assertEquals(List.of(), staging, "datasets of the jobs' staging directories");
    assertTrue(cluster.master().getArbitrator().datasets(id -> id.endsWith("/wc/staging-input"))
        .size() == 1, "the job's input is a dataset");
  }

  /** Runs tera-sort with one reduce (no sampling pass over the input) to its end. */
  private static void teraSort(Path in, Path out) throws Exception {
    Configuration c = cluster.conf();
    c.setInt(MRJobConfig.NUM_REDUCES, 1);
    assertTrue(new TeraSort().run(c, in, out).success(), "tera-sort into " + out + " failed");
  }

  /**
   * tera-sort's record reader enters every block after the first at the first whole 100-byte
   * record, 4-99 bytes in (the block size is not a multiple of 100): those blocks are cached all
   * the same, so the second run reads its input from the cache.
   */
  @Test
  void teraSort_secondRunReadsInputFromCache() throws Exception {
    FileSystem fs = cluster.plainFileSystem();
    Path dir = new Path("/tera/input");
    fs.delete(dir, true);
    DataGenerators.generate(DatasetKind.TERA_RECORDS, fs, dir, 5 * BLOCK, 5);
    Path in = new Path(dir, DataGenerators.DATA_FILE);
    long inputBytes = fs.getFileStatus(in).getLen();

    teraSort(dir, new Path("/tera/first"));
    for (BlockKey b : ClusterFiles.blocks(cluster, in)) {
      Waits.waitFor(() -> ClusterFiles.holder(cluster, b) != null, b + " to be cached");
    }
    SlaveCountersProto before = cluster.totals();
    teraSort(dir, new Path("/tera/second"));
    SlaveCountersProto after = cluster.totals();

    long fromCache = after.getBytesFromCache() - before.getBytesFromCache();
    long fromHdfs = after.getBytesFromHdfs() - before.getBytesFromHdfs();
    System.out.println("Tera-sort figure: the second run read " + fromCache + " bytes from the "
        + "cache and " + fromHdfs + " from HDFS, of " + inputBytes + " input bytes");
    assertTrue(fromCache >= inputBytes * 0.9 && fromCache >= fromHdfs * 9, "second run read "
        + fromCache + " bytes from the cache and " + fromHdfs + " from HDFS, of " + inputBytes
        + " input bytes");
    assertArrayEquals(output(new Path("/tera/first")), output(new Path("/tera/second")));
  }

  @Test
  void wordCount_overwrittenInputIsNeverServedStale() throws Exception {
    Path in = text(new Path("/ow/input"), 3 * BLOCK, 21);
    // Every block of the old content cached, as a job reading it would leave them.
    ClusterFiles.readUntilCached(cluster, in);
    Map<String, Integer> old = expectedCounts(in);

    assertEquals(in, text(in.getParent(), 3 * BLOCK, 22));
    run(in.getParent(), new Path("/ow/b"));
    Map<String, Integer> expected = expectedCounts(in);
    assertNotEquals(old, expected, "different inputs must give different counts");
    assertEquals(expected, parse(output(new Path("/ow/b"))));
  }

  @Test
  void wordCount_slaveKilledMidJobStillSucceeds() throws Exception {
    Path in = text(new Path("/kill/input"), 6 * BLOCK, 31);
    // The maps read cached blocks, some of them from the slave that dies.
    ClusterFiles.readUntilCached(cluster, in);

    Job job = wordCount(in.getParent(), new Path("/kill/out"));
    job.submit();
    while (!job.isComplete() && job.mapProgress() <= 0f) {
      Thread.sleep(100);
    }
    cluster.stopSlave(0);
    try {
      assertTrue(job.waitForCompletion(false), "job failed after a slave died");
      assertEquals(expectedCounts(in), parse(output(new Path("/kill/out"))));
    } finally {
      cluster.restartSlave(0);
    }
  }
}
