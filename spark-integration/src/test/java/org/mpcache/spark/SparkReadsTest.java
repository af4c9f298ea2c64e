package org.mpcache.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.explode;
import static org.apache.spark.sql.functions.split;
import static org.apache.spark.sql.functions.sum;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mpcache.common.BlockKey;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.common.Waits;
import org.mpcache.common.proto.AdminProtos.DatasetStatusProto;
import org.mpcache.hdfs.ClientConfigKeys;
import org.mpcache.hdfs.ClientCounters;
import org.mpcache.hdfs.FallbackCause;
import org.mpcache.hdfs.MpCacheFileSystem;
import org.mpcache.minicluster.MiniMpCacheCluster;
import org.mpcache.slave.MpCacheSlave;

/**
 * Spark 4.2 jobs reading HDFS through mpCache, configured as docs/install.md's Spark section
 * says: {@code spark.hadoop.fs.hdfs.impl} and the master's address, Hadoop's FileSystem cache
 * on. Spark runs in local mode ({@code local[2]}: the driver and two executor threads in this
 * JVM) against the embedded cluster's HDFS and slaves, so {@link ClientCounters} counts every
 * byte Spark's tasks read. A text job and a column-projected Parquet aggregation each run twice:
 * the second run reads its input from the slaves' SSDs and both give what plain HDFS gives.
 *
 * <p>The test writes and checks files through a plain HDFS client of its own, outside Hadoop's
 * FileSystem cache, which holds Spark's {@link MpCacheFileSystem} as in a Spark JVM on a real
 * cluster.
 */
class SparkReadsTest {
  private static final int BLOCK = 1 << 20;
  private static MiniMpCacheCluster cluster;
  private static SparkSession spark;
  private static String fsUri;
  private static FileSystem plainFs;

  @BeforeAll
  static void start() throws IOException {
    cluster = new MiniMpCacheCluster.Builder(new File("target/spark/reads")).blockSize(BLOCK)
        .build();
    // Spark names HDFS as the slaves know it (their fs.defaultFS): they fill blocks from no
    // other name.
    fsUri = cluster.conf().get(FileSystem.FS_DEFAULT_NAME_KEY);
    org.apache.hadoop.conf.Configuration plainConf = cluster.conf();
    plainConf.setClass("fs.hdfs.impl", DistributedFileSystem.class, FileSystem.class);
    plainFs = FileSystem.newInstance(URI.create(fsUri), plainConf);
    SparkSession.Builder builder = SparkSession.builder();
    installGuideSparkKeys().forEach((k, v) -> builder.config(k,
        k.equals("spark.hadoop." + MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY)
            ? cluster.conf().get(MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY) : v));
    spark = builder.master("local[2]").appName("mpcache-spark-reads")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.warehouse.dir", new File("target/spark/warehouse").toURI().toString())
        // One task per HDFS block, as MapReduce splits input.
        .config("spark.sql.files.maxPartitionBytes", Integer.toString(BLOCK))
        // What a cluster's core-site.xml and hdfs-site.xml have; the guide's keys are above.
        .config("spark.hadoop.fs.defaultFS", fsUri)
        .config("spark.hadoop.dfs.blocksize", Integer.toString(BLOCK))
        // Descriptors from the first local hit (an executor takes them after 256 MiB by
        // default): these few MiB show that they work beside Spark's own Netty.
        .config("spark.hadoop." + ClientConfigKeys.DOMAIN_SOCKET_AFTER_BYTES_KEY, "0")
        .getOrCreate();
    assertTrue(FileSystem.get(URI.create(fsUri), spark.sparkContext().hadoopConfiguration())
        instanceof MpCacheFileSystem, "Spark's FileSystem for HDFS reads through the cache");
  }

  /**
   * The {@code spark-defaults.conf} lines of docs/install.md's Spark section that turn the cache
   * on (the "Keys" block), so that the guide is what this test runs.
   */
  private static Map<String, String> installGuideSparkKeys() throws IOException {
    String guide = Files.readString(Paths.get("..", "docs", "install.md"));
    int section = guide.indexOf("### Spark");
    assertTrue(section >= 0, "docs/install.md has no Spark section");
    int keys = guide.indexOf("**Keys.**", section);
    assertTrue(keys >= 0, "docs/install.md's Spark section has no keys");
    int start = guide.indexOf("```", keys) + 3;
    Map<String, String> props = new TreeMap<>();
    for (String line : guide.substring(start, guide.indexOf("```", start)).split("\n")) {
      String[] kv = line.trim().split("\\s+");
      if (kv.length == 2) {
        props.put(kv[0], kv[1]);
      }
    }
    assertEquals(Set.of("spark.hadoop.fs.hdfs.impl",
        "spark.hadoop." + MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY), props.keySet(),
        "the guide's Spark keys");
    return props;
  }

  @AfterAll
  static void stop() {
    if (spark != null) {
      spark.stop();
    }
    if (plainFs != null) {
      try {
        plainFs.close();
      } catch (IOException e) {
        // The cluster stops next.
      }
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  /**
   * What this JVM's client read: {bytes from the cache, bytes from HDFS, hits read through a
   * block file's descriptor}.
   */
  private static long[] readBytes() {
    ClientCounters c = ClientCounters.get();
    return new long[] {c.bytesFromCache(), c.bytesFromHdfs(), c.hitsByDescriptor()};
  }

  /** Runs {@code job}; returns its result and what it read, as {@link Run}. */
  private static <T> Run<T> run(Supplier<T> job) {
    long[] before = readBytes();
    long start = System.nanoTime();
    T result = job.get();
    long ms = (System.nanoTime() - start) / 1_000_000;
    long[] after = readBytes();
    return new Run<>(result, after[0] - before[0], after[1] - before[1], after[2] - before[2],
        ms);
  }

  /** A job's result and the bytes it read through the cache's client, by source. */
  private record Run<T>(T result, long fromCache, long fromHdfs, long descriptorHits, long ms) {
    long read() {
      return fromCache + fromHdfs;
    }

    double cacheShare() {
      return read() == 0 ? 0 : fromCache / (double) read();
    }
  }

  /**
   * Lines of words from a small vocabulary, some words repeated on purpose, about
   * {@code bytes} long.
   */
  private static byte[] text(long seed, int bytes) {
    String[] words = {"hdfs", "spark", "cache", "ssd", "block", "slave", "master", "parquet",
        "yarn", "dataset", "fill", "hit", "miss", "scan", "row"};
    Random r = new Random(seed);
    StringBuilder b = new StringBuilder(bytes + 200);
    while (b.length() < bytes) {
      int n = 1 + r.nextInt(12);
      for (int i = 0; i < n; i++) {
        if (i > 0) {
          b.append(' ');
        }
        b.append(words[r.nextInt(words.length)]);
        if (r.nextInt(7) == 0) {
          b.append(r.nextInt(500));
        }
      }
      b.append('\n');
    }
    return b.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** Writes {@code content} through plain HDFS and waits for both replicas of every block. */
  private static void write(Path p, byte[] content) throws Exception {
    FileSystem fs = plainFs;
    try (FSDataOutputStream out = fs.create(p, true)) {
      out.write(content);
    }
    DFSTestUtil.waitReplication(fs, p, (short) 2);
  }

  /** Writes {@link #text} of {@code seed}, about {@code bytes} long, to {@code file}. */
  private static byte[] writeText(Path file, long seed, int bytes) throws Exception {
    byte[] content = text(seed, bytes);
    write(file, content);
    return content;
  }

  /** The blocks of every file under {@code dir}. */
  private static List<BlockKey> blocksUnder(Path dir) throws IOException {
    FileSystem fs = plainFs;
    List<BlockKey> keys = new ArrayList<>();
    for (FileStatus st : fs.listStatus(dir)) {
      if (st.isFile() && st.getLen() > 0) {
        for (LocatedBlock b : DFSTestUtil.getAllBlocks(fs, st.getPath())) {
          ExtendedBlock e = b.getBlock();
          keys.add(new BlockKey(e.getBlockPoolId(), e.getBlockId(), e.getGenerationStamp()));
        }
      }
    }
    return keys;
  }

  private static boolean cached(BlockKey key) {
    for (MpCacheSlave s : cluster.slaves()) {
      if (s.getStore().cachedLength(key) >= 0) {
        return true;
      }
    }
    return false;
  }

  /** Waits until the first run's fills have put every block under {@code dir} on an SSD. */
  private static void awaitCached(Path dir) throws Exception {
    List<BlockKey> keys = blocksUnder(dir);
    try {
      Waits.waitFor(() -> keys.stream().allMatch(SparkReadsTest::cached),
          "every block under " + dir + " cached");
    } catch (AssertionError e) {
      ClientCounters c = ClientCounters.get();
      throw new AssertionError(e.getMessage() + ": not cached "
          + keys.stream().filter(k -> !cached(k)).toList() + " of " + keys + "; client lookups "
          + c.lookups() + ", hits " + c.hits() + ", misses " + c.misses() + ", fallbacks "
          + c.fallbacks() + "; slaves " + cluster.totals(), e);
    }
  }

  /** Bytes the slaves' fills wrote to their SSDs, block files and checksum files. */
  /**
   * Waits until the fills a scan started are done: the master knows the dataset of {@code dir},
   * with blocks cached and none admitted and still filling, for longer than a slave holds a fill
   * off after a reader's miss and a heartbeat takes to report it. (A scan need not enter every
   * block: Parquet pads a row group that would straddle a block boundary to the next block.)
   */
  private static void awaitFillsSettled(Path dir) throws Exception {
    String id = fsUri + dir;
    long[] settledSince = {-1};
    Waits.waitFor(() -> {
      List<DatasetStatusProto> d = cluster.master().getArbitrator().datasets(id::equals);
      boolean settled = d.size() == 1 && d.get(0).getCachedBlocks() > 0
          && d.get(0).getFillingBlocks() == 0;
      long now = System.nanoTime();
      if (!settled) {
        settledSince[0] = -1;
      } else if (settledSince[0] < 0) {
        settledSince[0] = now;
      }
      return settled && now - settledSince[0] > 2_000_000_000L;
    }, 30_000, "the fills of " + id + " done");
  }

  private static long ssdBytesWritten() {
    return cluster.slaves().stream().mapToLong(s -> s.counters().getSsdBytesWritten()).sum();
  }

  /** The dataset the master knows by {@code id}, or fails. */
  private static DatasetStatusProto dataset(String id) {
    List<DatasetStatusProto> found = cluster.master().getArbitrator().datasets(id::equals);
    assertEquals(1, found.size(), () -> "datasets " + cluster.master().getArbitrator()
        .datasets(x -> true).stream().map(DatasetStatusProto::getDatasetId).toList());
    return found.get(0);
  }

  /** Word counts of a text: Spark SQL's split on single spaces, empty words dropped. */
  private static Map<String, Long> wordCount(String path) {
    Dataset<Row> counts = spark.read().text(path)
        .select(explode(split(col("value"), " ")).as("word")).where("word != ''")
        .groupBy("word").count();
    Map<String, Long> out = new TreeMap<>();
    for (Row r : counts.collectAsList()) {
      out.put(r.getString(0), r.getLong(1));
    }
    return out;
  }

  @Test
  void wordCount_secondRunReadsItsInputFromTheCache() throws Exception {
    Path dir = new Path("/spark/text");
    Path file = new Path(dir, "input.txt");
    byte[] content = writeText(file, 7, 5 * BLOCK + BLOCK / 3);
    Map<String, Long> plain = new TreeMap<>();
    try (InputStream in = plainFs.open(file)) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        for (String w : line.split(" ")) {
          if (!w.isEmpty()) {
            plain.merge(w, 1L, Long::sum);
          }
        }
      }
    }

    Run<Map<String, Long>> first = run(() -> wordCount(fsUri + file));
    awaitCached(dir);
    Run<Map<String, Long>> second = run(() -> wordCount(fsUri + file));

    System.out.printf("Spark word count over %d bytes (%d blocks): first run %d bytes from the "
        + "cache, %d from HDFS, %d ms; second run %d from the cache, %d from HDFS (%.1f%%), "
        + "%d ms, %d hits through block files' descriptors%n", content.length,
        blocksUnder(dir).size(), first.fromCache(), first.fromHdfs(), first.ms(),
        second.fromCache(), second.fromHdfs(), 100 * second.cacheShare(), second.ms(),
        second.descriptorHits());
    // Fills start at the first run's misses: a block one task entered may be cached by the time
    // the next task reads it, so the first run is mostly, not wholly, from HDFS.
    assertTrue(first.fromHdfs() >= content.length / 2,
        "the first run found an empty cache and read HDFS: " + first);
    assertTrue(second.fromCache() >= content.length * 0.9 && second.cacheShare() >= 0.9,
        "the second run read at least 90% of its input from the cache: " + second);
    // The slaves are on this host: hits read the block files through descriptors passed over
    // Netty's epoll domain sockets, Spark's Netty 4.2 here.
    assertTrue(second.descriptorHits() > 0, "local hits by descriptor: " + second);
    assertFalse(plain.isEmpty());
    assertEquals(plain, first.result(), "first run against plain HDFS");
    assertEquals(plain, second.result(), "second run against plain HDFS");

    // The dataset: the file's directory, named as Spark names the cluster.
    DatasetStatusProto d = dataset(fsUri + dir);
    assertEquals(blocksUnder(dir).size(), d.getSizeBlocks(), d::toString);
    assertEquals(d.getSizeBlocks(), d.getCachedBlocks(), d::toString);
  }

  /**
   * Every slave stops, as a crash would, once the second run's first task has ended: the tasks
   * after it find no slave, read HDFS instead, and the job gives what plain HDFS gives. The
   * slaves come back on their old directories and ports for the tests after this one.
   */
  @Test
  void wordCount_everySlaveDownMidJob_jobSucceedsFromHdfs() throws Exception {
    Path dir = new Path("/spark/slave-down");
    Path file = new Path(dir, "input.txt");
    byte[] content = writeText(file, 13, 6 * BLOCK + BLOCK / 2);
    Map<String, Long> plain = wordCount(fsUri + file);
    awaitCached(dir);
    AtomicInteger tasksEnded = new AtomicInteger();
    AtomicInteger stoppedAfter = new AtomicInteger(-1);
    SparkListener crash = new SparkListener() {
      @Override
      public void onTaskEnd(SparkListenerTaskEnd taskEnd) {
        if (tasksEnded.incrementAndGet() == 1) {
          for (int i = 0; i < cluster.slaves().size(); i++) {
            cluster.stopSlave(i);
          }
          stoppedAfter.set(tasksEnded.get());
        }
      }
    };
    Map<FallbackCause, Long> fallbacks0 = ClientCounters.get().fallbacks();
    spark.sparkContext().addSparkListener(crash);
    Run<Map<String, Long>> down;
    try {
      down = run(() -> wordCount(fsUri + file));
    } finally {
      spark.sparkContext().removeSparkListener(crash);
      for (int i = 0; i < cluster.slaves().size(); i++) {
        cluster.crashAndRestartSlave(i);
      }
    }
    Map<FallbackCause, Long> fallbacks = ClientCounters.get().fallbacks();
    fallbacks.replaceAll((cause, n) -> n - fallbacks0.getOrDefault(cause, 0L));
    fallbacks.values().removeIf(n -> n == 0);
    System.out.printf("Spark word count over %d bytes, every slave stopped after task %d of "
        + "the second run: %d bytes from the cache, %d from HDFS, %d ms; fallbacks %s%n",
        content.length, stoppedAfter.get(), down.fromCache(), down.fromHdfs(), down.ms(),
        fallbacks);
    assertEquals(plain, down.result(), "the run with its slaves down against plain HDFS");
    assertTrue(stoppedAfter.get() >= 1, "the slaves were stopped during the job");
    assertTrue(down.fromHdfs() > 0, "tasks after the stop read HDFS: " + down);
    // A stopped slave refuses connections or, mid-call, leaves the read to its deadline.
    assertFalse(fallbacks.isEmpty(), "the client fell back to HDFS");
    assertTrue(Set.of(FallbackCause.SLAVE_UNREACHABLE, FallbackCause.DEADLINE_EXCEEDED)
        .containsAll(fallbacks.keySet()), "fallbacks for a slave down: " + fallbacks);
  }

  private static final StructType SALES = new StructType()
      .add("id", DataTypes.LongType, false)
      .add("store", DataTypes.IntegerType, false)
      .add("amount", DataTypes.LongType, false)
      .add("note", DataTypes.StringType, false)
      .add("price", DataTypes.DoubleType, false)
      .add("customer", DataTypes.LongType, false);

  /** Rows whose columns other than store and amount are random, so that they do not compress. */
  private static List<Row> sales(long seed, int n) {
    Random r = new Random(seed);
    List<Row> rows = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      StringBuilder note = new StringBuilder(24);
      for (int c = 0; c < 24; c++) {
        note.append((char) ('a' + r.nextInt(26)));
      }
      rows.add(RowFactory.create((long) i, r.nextInt(40), (long) r.nextInt(10_000),
          note.toString(), r.nextDouble(), r.nextLong()));
    }
    return rows;
  }

  /** Per store: the sum of amounts and the count of rows, as [sum, count]. */
  private static Map<Integer, List<Long>> salesByStore(String path) {
    Map<Integer, List<Long>> out = new TreeMap<>();
    for (Row r : spark.read().parquet(path).select("store", "amount").groupBy("store")
        .agg(sum("amount"), count("*")).collectAsList()) {
      out.put(r.getInt(0), List.of(r.getLong(1), r.getLong(2)));
    }
    return out;
  }

  @Test
  void parquetScan_secondRunReadsTheProjectedColumnsFromTheCache() throws Exception {
    Path dir = new Path("/spark/parquet/sales");
    List<Row> rows = sales(3, 120_000);
    // Written through Spark, so through plain HDFS: the cache serves reads only. A row group
    // per block, as Spark's defaults make them (128 MiB each): a projected scan reads a part of
    // every block.
    spark.createDataFrame(rows, SALES).coalesce(2).write().mode("overwrite")
        .option("parquet.block.size", Integer.toString(BLOCK)).parquet(fsUri + dir);
    long fileBytes = 0;
    int files = 0;
    for (FileStatus st : plainFs.listStatus(dir)) {
      if (st.getPath().getName().endsWith(".parquet")) {
        DFSTestUtil.waitReplication(plainFs, st.getPath(), (short) 2);
        fileBytes += st.getLen();
        files++;
      }
    }
    Map<Integer, List<Long>> plain = new TreeMap<>();
    for (Row r : rows) {
      plain.merge(r.getInt(1), List.of(r.getLong(2), 1L),
          (a, b) -> List.of(a.get(0) + b.get(0), a.get(1) + b.get(1)));
    }

    long written0 = ssdBytesWritten();
    Run<Map<Integer, List<Long>>> first = run(() -> salesByStore(fsUri + dir));
    awaitFillsSettled(dir);
    // Fills report their bytes once done; the cached blocks' last reports reach the counters.
    long written = ssdBytesWritten() - written0;
    Run<Map<Integer, List<Long>>> second = run(() -> salesByStore(fsUri + dir));

    double amplification = written / (double) first.read();
    System.out.printf("Spark Parquet scan of 2 of 6 columns over %d files, %d bytes (%d blocks): "
        + "first run read %d bytes (%d from HDFS), its fills wrote %d bytes to the SSDs: "
        + "%.2f SSD bytes written per byte read; second run %d bytes from the cache, %d from "
        + "HDFS (%.1f%%)%n", files, fileBytes, blocksUnder(dir).size(), first.read(),
        first.fromHdfs(), written, amplification, second.fromCache(), second.fromHdfs(),
        100 * second.cacheShare());
    assertTrue(first.read() < fileBytes * 0.6,
        "a two-column projection reads a part of the files: " + first + " of " + fileBytes);
    assertTrue(written >= first.read(), "fills write at least what the scan read: " + written
        + " bytes written for " + first.read() + " read");
    assertTrue(second.fromCache() >= first.read() * 0.9 && second.cacheShare() >= 0.9,
        "the second run read at least 90% of its bytes from the cache: " + second);
    assertEquals(plain, first.result(), "first run against the rows written");
    assertEquals(plain, second.result(), "second run against the rows written");

    // The dataset: the table's directory, which Spark's writer filled with part files.
    DatasetStatusProto d = dataset(fsUri + dir);
    assertEquals(blocksUnder(dir).size(), d.getSizeBlocks(), d::toString);
  }

  /**
   * The client FileSystem, counting the instances made and closed: what a Spark JVM leaves open.
   */
  public static final class CountingFileSystem extends MpCacheFileSystem {
    static final AtomicInteger MADE = new AtomicInteger();
    static final AtomicInteger CLOSED = new AtomicInteger();

    @Override
    public void initialize(URI uri, org.apache.hadoop.conf.Configuration conf)
        throws IOException {
      MADE.incrementAndGet();
      super.initialize(uri, conf);
    }

    @Override
    public void close() throws IOException {
      CLOSED.incrementAndGet();
      super.close();
    }
  }

  /** Live threads by name, digits dropped (pools number their threads). */
  private static Map<String, Long> threadNames() {
    Map<String, Long> names = new TreeMap<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.isAlive()) {
        names.merge(t.getName().replaceAll("[0-9]+", ""), 1L, Long::sum);
      }
    }
    return names;
  }

  /** The threads of {@code after} beyond those of {@code before}, by name. */
  private static Map<String, Long> moreThreads(Map<String, Long> before, Map<String, Long> after) {
    Map<String, Long> more = new TreeMap<>();
    after.forEach((name, n) -> {
      long d = n - before.getOrDefault(name, 0L);
      if (d > 0) {
        more.put(name, d);
      }
    });
    return more;
  }

  /**
   * docs/install.md leaves Hadoop's FileSystem cache on: Spark gets one {@link MpCacheFileSystem}
   * per JVM and reuses it across jobs. With {@code fs.hdfs.impl.disable.cache=true} each
   * {@code Path.getFileSystem} in the driver and the tasks makes a new one, which Spark never
   * closes: its threads and connections stay for the JVM's life.
   */
  @Test
  void fileSystemCache_onKeepsOneFileSystemPerJvm_offLeavesOneOpenPerCall() throws Exception {
    Path dir = new Path("/spark/fs-cache");
    writeText(new Path(dir, "input.txt"), 11, 2 * BLOCK);
    String path = fsUri + dir;
    Map<String, Long> expected = wordCount(path);
    int jobs = 3;
    org.apache.hadoop.conf.Configuration hc = spark.sparkContext().hadoopConfiguration();
    String impl = hc.get("fs.hdfs.impl");
    hc.setClass("fs.hdfs.impl", CountingFileSystem.class, FileSystem.class);
    try {
      int made0 = CountingFileSystem.MADE.get();
      long start = System.nanoTime();
      for (int i = 0; i < jobs; i++) {
        assertEquals(expected, wordCount(path));
      }
      long cachedMs = (System.nanoTime() - start) / 1_000_000;
      int cachedMade = CountingFileSystem.MADE.get() - made0;

      hc.setBoolean("fs.hdfs.impl.disable.cache", true);
      Map<String, Long> names = threadNames();
      int made1 = CountingFileSystem.MADE.get();
      int closed1 = CountingFileSystem.CLOSED.get();
      start = System.nanoTime();
      for (int i = 0; i < jobs; i++) {
        assertEquals(expected, wordCount(path));
      }
      long uncachedMs = (System.nanoTime() - start) / 1_000_000;
      int uncachedOpen = CountingFileSystem.MADE.get() - made1
          - (CountingFileSystem.CLOSED.get() - closed1);
      System.out.printf("FileSystem cache under Spark, %d word counts over 2 blocks: cache on, "
          + "%d ms, %d FileSystems made; cache off, %d ms, %d FileSystems made and left open "
          + "(threads started and still alive: %s)%n", jobs, cachedMs, cachedMade, uncachedMs,
          uncachedOpen, moreThreads(names, threadNames()));
      assertEquals(0, cachedMade, "with the cache on, jobs reuse the JVM's FileSystem");
      assertTrue(uncachedOpen >= jobs, "with the cache off, every job leaves FileSystems open: "
          + uncachedOpen + " after " + jobs + " jobs");
    } finally {
      hc.unset("fs.hdfs.impl.disable.cache");
      hc.set("fs.hdfs.impl", impl);
    }
  }
}
