package org.mpcache.benchmarks.readpath;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.Time;
import org.mpcache.benchmarks.Polling;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.AdminProtos.EvictRequestProto;
import org.mpcache.common.protocolPB.AdminProtocolPB;
import org.mpcache.common.protocolPB.RpcSupport;
import org.mpcache.hdfs.ClientConfigKeys;
import org.mpcache.hdfs.ClientCounters;
import org.mpcache.minicluster.MiniMpCacheCluster;
import org.mpcache.slave.MpCacheSlave;

/**
 * Measures the read paths side by side in one JVM, on an embedded cluster ({@link
 * MiniMpCacheCluster}: one DataNode, the master and one slave): the cached block files read
 * directly, HDFS's short-circuit read (the legacy path-based reader, which needs no native
 * library), plain HDFS sequential and positional, an mpCache hit sequential and positional (the
 * local path, which reads the block file through a descriptor the slave passes; the stream path
 * remote hits take, forced by {@code mpcache.client.domain.socket.enabled=false}; and the RPC
 * path, which remote hits take where streams are off, forced further by
 * {@code mpcache.client.stream.enabled=false}), an mpCache miss that fills the cache (the slave
 * filling the blocks from HDFS once the reader's misses stop,
 * {@code mpcache.slave.fill.quiet.ms}), and a miss with fills off
 * ({@code mpcache.client.fill.enabled=false}: what a miss costs its reader alone), beside a
 * control that reads plain HDFS prepared as a miss is. All files are page-cache-hot, so the
 * figures isolate the software's cost, not the disks'.
 *
 * <p>One file of {@code --mib} MiB per block size ({@code --block-mib}, comma-separated) is
 * written once. Each of {@code --rounds} rounds runs every path once per file, paths interleaved
 * so drift hits them alike, each round starting one path further on and every {@code n} rounds
 * (n paths) in the other direction, so that over 2n rounds each path reads right after each of
 * the others as often; the table gives MB/s (minimum, median, maximum over the rounds) and
 * the CPU seconds per GB the whole JVM spent (all threads: client, slave and DataNode; median).
 * {@code --warmup} rounds (3 by default) run first, as a round does, and are not counted: the
 * JIT compiles the paths' code during the first reads, and code run once per block (a local
 * hit's descriptor exchange: 128 times per round with 8 MiB blocks) is still being compiled after
 * one round ({@code --thread-cpu} shows the compiler's share). Sequential paths read 1 MiB at a
 * time from the start; positional ones read 1 MiB at shuffled 1 MiB-aligned offsets covering the
 * file once, or as many 1 MiB reads at random offsets (most not on a 64 KiB checksum chunk's
 * boundary). A miss round first evicts the file's dataset
 * through the master's admin RPC, then reads the file once from the start; its MB/s is the
 * reader's, its CPU seconds per GB count the fills to their end (every block cached again);
 * the round after it reads them as hits again. Each read of a miss row and of the control is
 * bracketed by plain reads of the same file, one just before its preparation and one just after
 * the file is cached again (neither counted in the plain row): the machine's speed wanders by a
 * quarter over minutes, and the mean of the two is the plain read nearest in time to it.
 *
 * <p>Usage: {@code ReadPathFigures [--mib M] [--block-mib B1,B2] [--rounds R] [--warmup W]
 * [--dir DIR] [--paths T1,T2] [--set KEY=VALUE]... [--thread-cpu] [--no-settle]};
 * {@code --paths} keeps only the rows whose name contains one of its comma-separated parts (to
 * profile a path or compare a few), {@code --set} sets a key for every daemon and client of the
 * cluster (to compare settings), {@code --thread-cpu} also prints, per row, the CPU each group of
 * threads spent during the reads (to see where a path's time goes). Every read starts on a
 * settled machine, untimed: dirty pages written back and the cores idle, so that no row pays for
 * what an earlier row or its own preparation left running; {@code --no-settle} leaves that out.
 * Not thread-safe; a command-line tool.
 */
public final class ReadPathFigures {
  private static final int IO = 1 << 20;
  private static final long SETTLE_WINDOW_MS = 200;
  private static final double SETTLE_BUSY = 0.1;
  private static final long SETTLE_MAX_MS = 10_000;
  private static final String PLAIN = "plain HDFS over TCP, sequential";
  private static final String CONTROL = PLAIN + ", after an eviction (the misses' control)";

  private final long fileBytes;
  private final long[] blockSizes;
  private final int rounds;
  private final int warmup;
  private final File dir;
  private final String only;
  private final Map<String, String> settings;
  /** Whether to print where each row's CPU went, by thread (see {@link #threadCpu}). */
  private final boolean byThread;
  /** Whether each read starts on a settled machine (see {@link #settleMachine}). */
  private final boolean settleFirst;
  private final HostCpu host = new HostCpu();
  /** Reads that started before the machine settled, {@link #SETTLE_MAX_MS} having passed. */
  private int unsettled;
  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
  private final byte[] buf = new byte[IO];
  private final com.sun.management.OperatingSystemMXBean os =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  private ReadPathFigures(long fileBytes, long[] blockSizes, int rounds, int warmup, File dir,
      String only, Map<String, String> settings, boolean byThread, boolean settleFirst) {
    this.fileBytes = fileBytes;
    this.blockSizes = blockSizes;
    this.rounds = rounds;
    this.warmup = warmup;
    this.dir = dir;
    this.only = only;
    this.settings = settings;
    this.byThread = byThread;
    this.settleFirst = settleFirst;
  }

  public static void main(String[] args) throws Exception {
    long mib = 1024;
    long[] blockMib = {128, 8};
    int rounds = 5;
    int warmup = 3;
    File dir = new File("/tmp/mpcache-read-path-figures");
    String only = "";
    Map<String, String> settings = new LinkedHashMap<>();
    boolean byThread = false;
    boolean settleFirst = true;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--mib" -> mib = Long.parseLong(args[++i]);
        case "--block-mib" -> blockMib = Arrays.stream(args[++i].split(","))
            .mapToLong(Long::parseLong).toArray();
        case "--rounds" -> rounds = Integer.parseInt(args[++i]);
        case "--warmup" -> warmup = Integer.parseInt(args[++i]);
        case "--dir" -> dir = new File(args[++i]);
        case "--paths" -> only = args[++i];
        case "--thread-cpu" -> byThread = true;
        case "--no-settle" -> settleFirst = false;
        case "--set" -> {
          String[] kv = args[++i].split("=", 2);
          if (kv.length != 2) {
            System.err.println("--set takes KEY=VALUE, not " + args[i]);
            System.exit(1);
          }
          settings.put(kv[0], kv[1]);
        }
        default -> {
          System.err.println("Usage: ReadPathFigures [--mib M] [--block-mib B1,B2] [--rounds R]"
              + " [--warmup W] [--dir DIR] [--paths T1,T2] [--set KEY=VALUE]... [--thread-cpu]"
              + " [--no-settle]");
          System.exit(1);
        }
      }
    }
    long[] blockSizes = Arrays.stream(blockMib).map(b -> b << 20).toArray();
    new ReadPathFigures(mib << 20, blockSizes, rounds, warmup, dir, only, settings, byThread,
        settleFirst).run();
  }

  /** One way of reading a file: reads it whole, returns the bytes read. */
  private interface ReadPath {
    /** Untimed preparation of the read. */
    default void before(Path file) throws Exception {
    }

    long read(Path file) throws Exception;

    /**
     * What the read left running (a fill) brought to its end: its CPU counts in the read's
     * CPU seconds per GB, its time not in the read's MB/s.
     */
    default void settle(Path file) throws Exception {
    }

    /** Untimed wait for what the read left behind. */
    default void after(Path file) throws Exception {
    }
  }

  /** A row of the table: its name and, per block size, the MB/s and CPU s/GB of each round. */
  private static final class Row {
    final String name;
    final Map<Long, List<double[]>> samples = new LinkedHashMap<>();
    /** Per block size, the CPU nanoseconds of the rounds' reads by thread group. */
    final Map<Long, Map<String, Long>> threadNanos = new LinkedHashMap<>();
    /**
     * Per block size, each round's MB/s over the mean of the plain reads of the same file just
     * before and after it; empty unless the row is {@link #bracketed}.
     */
    final Map<Long, List<Double>> bracketRatios = new LinkedHashMap<>();

    Row(String name) {
      this.name = name;
    }

    /** Whether each read is bracketed by plain reads: the misses and their control. */
    boolean bracketed() {
      return name.equals(CONTROL) || name.contains(" miss ");
    }
  }

  private void run() throws Exception {
    FileUtil.fullyDelete(dir);
    String user = UserGroupInformation.getCurrentUser().getShortUserName();
    MiniMpCacheCluster.Builder builder = new MiniMpCacheCluster.Builder(dir).dataNodes(1)
        .blockSize(blockSizes[0])
        .set(DFSConfigKeys.DFS_BLOCK_LOCAL_PATH_ACCESS_USER_KEY, user)
        // On a loaded machine a slave's answer can take seconds; a fallback to HDFS would
        // stop the run (a hit round must read nothing from HDFS).
        .set(ClientConfigKeys.CACHE_DEADLINE_MS_KEY, "30000")
        .slaveCapacity(2 * fileBytes * blockSizes.length + (1L << 30));
    settings.forEach(builder::set);
    try (MiniMpCacheCluster c = builder.build()) {
      List<Path> files = new ArrayList<>();
      for (long bs : blockSizes) {
        Path p = new Path("/read-path/b" + (bs >> 20) + "m/data");
        write(c, p, bs);
        files.add(p);
      }
      Configuration scrConf = new Configuration(c.plainHadoopConf());
      scrConf.setBoolean(HdfsClientConfigKeys.Read.ShortCircuit.KEY, true);
      scrConf.setBoolean(HdfsClientConfigKeys.DFS_CLIENT_USE_LEGACY_BLOCKREADERLOCAL, true);
      // A FileSystem of its own, made from these settings: one Hadoop's FileSystem cache held
      // for this cluster and user would have been made from another client's.
      scrConf.setBoolean("fs.hdfs.impl.disable.cache", true);
      // A client context of its own: HDFS shares one per name, the first client's settings win.
      scrConf.set(HdfsClientConfigKeys.DFS_CLIENT_CONTEXT, "short-circuit");
      Configuration streamConf = new Configuration(c.conf());
      streamConf.setBoolean(ClientConfigKeys.DOMAIN_SOCKET_ENABLED_KEY, false);
      Configuration rpcConf = new Configuration(streamConf);
      rpcConf.setBoolean(ClientConfigKeys.STREAM_ENABLED_KEY, false);
      Configuration noFillConf = new Configuration(c.conf());
      noFillConf.setBoolean(ClientConfigKeys.FILL_ENABLED_KEY, false);
      try (FileSystem plain = c.plainFileSystem(); FileSystem scr = FileSystem.get(scrConf);
          FileSystem cache = c.fileSystem(); FileSystem stream = FileSystem.get(streamConf);
          FileSystem rpc = FileSystem.get(rpcConf);
          FileSystem noFill = FileSystem.get(noFillConf)) {
        for (Path p : files) {
          fill(c, cache, p);
        }
        Map<String, ReadPath> paths = new LinkedHashMap<>();
        paths.put("the cached block files read directly (1 MiB reads)", p -> direct(c, p));
        paths.put("HDFS short-circuit read (legacy path-based reader)", p -> sequential(scr, p));
        paths.put("HDFS short-circuit, 1 MiB positional reads at shuffled offsets",
            p -> positional(scr, p, Reads.SHUFFLED));
        paths.put("HDFS short-circuit, 1 MiB positional reads at random offsets",
            p -> positional(scr, p, Reads.RANDOM));
        ReadPath plainRead = p -> sequential(plain, p);
        paths.put(PLAIN, plainRead);
        paths.put("plain HDFS, 1 MiB positional reads at shuffled offsets",
            p -> positional(plain, p, Reads.SHUFFLED));
        paths.put("plain HDFS, 1 MiB positional reads at random offsets",
            p -> positional(plain, p, Reads.RANDOM));
        paths.put("mpCache hit, sequential (descriptor)", p -> hits(cache, p, Reads.SEQUENTIAL));
        paths.put("mpCache hit, positional (descriptor)", p -> hits(cache, p, Reads.SHUFFLED));
        paths.put("mpCache hit, positional at random offsets (descriptor)",
            p -> hits(cache, p, Reads.RANDOM));
        paths.put("mpCache hit, sequential (stream, as a remote hit)",
            p -> streamed(stream, p, Reads.SEQUENTIAL));
        paths.put("mpCache hit, positional (stream, as a remote hit)",
            p -> streamed(stream, p, Reads.SHUFFLED));
        paths.put("mpCache hit, positional at random offsets (stream, as a remote hit)",
            p -> streamed(stream, p, Reads.RANDOM));
        paths.put("mpCache hit, sequential (RPC, as a remote hit)",
            p -> hits(rpc, p, Reads.SEQUENTIAL));
        paths.put("mpCache hit, positional (RPC, as a remote hit)",
            p -> hits(rpc, p, Reads.SHUFFLED));
        // Cached again untimed by the slave's paced fills: a quarter of a minute per GiB.
        paths.put(CONTROL, afterEviction(c, p -> sequential(plain, p), cache, false));
        // What a miss costs its reader alone: the lookups, no fill beside it.
        paths.put("mpCache miss without a fill (sequential; mpcache.client.fill.enabled=false)",
            afterEviction(c, p -> miss(noFill, p), cache, false));
        paths.put("mpCache miss + fill (sequential; the slave fills after the reader's misses)",
            missAndFill(c, cache));
        paths.keySet().removeIf(n -> Arrays.stream(only.split(",")).noneMatch(n::contains));
        double idleCores = idleCores();
        List<Row> rows = new ArrayList<>();
        paths.keySet().forEach(n -> rows.add(new Row(n)));
        for (int round = 0; round < warmup; round++) {
          for (ReadPath path : paths.values()) {
            for (Path file : files) {
              measure(path, file, new TreeMap<>());
            }
          }
          System.out.printf(Locale.ROOT, "warm-up round %d of %d done (not counted)%n",
              round + 1, warmup);
        }
        List<ReadPath> inOrder = new ArrayList<>(paths.values());
        int n = inOrder.size();
        for (int round = 0; round < rounds; round++) {
          // Each round starts at the next row, and every n rounds the order turns round: over
          // 2n rounds every row reads right after each of the others as often, so that what a
          // row leaves behind does not land on one row only.
          boolean backwards = round / n % 2 == 1;
          for (int step = 0; step < n; step++) {
            int i = Math.floorMod(round + (backwards ? -step : step), n);
            ReadPath path = inOrder.get(i);
            Row row = rows.get(i);
            for (int f = 0; f < files.size(); f++) {
              Path file = files.get(f);
              double before = row.bracketed() ? measure(plainRead, file, new TreeMap<>())[0] : 0;
              double[] sample = measure(path, file, row.threadNanos.computeIfAbsent(
                  blockSizes[f], k -> new TreeMap<>()));
              row.samples.computeIfAbsent(blockSizes[f], k -> new ArrayList<>()).add(sample);
              if (row.bracketed()) {
                double after = measure(plainRead, file, new TreeMap<>())[0];
                row.bracketRatios.computeIfAbsent(blockSizes[f], k -> new ArrayList<>())
                    .add(sample[0] / ((before + after) / 2));
              }
            }
          }
          System.out.printf(Locale.ROOT, "round %d of %d done%n", round + 1, rounds);
        }
        print(rows, idleCores);
        if (byThread) {
          printByThread(rows);
        }
      }
    }
  }

  /**
   * A miss through {@code fs}: the file's dataset evicted first, the read checked to have come
   * from HDFS, the fill's end waited for (counted in CPU), the file cached again after.
   */
  private ReadPath missAndFill(MiniMpCacheCluster c, FileSystem fs) {
    return afterEviction(c, p -> miss(fs, p), fs, true);
  }

  /**
   * {@code read} prepared as a miss is (the file's dataset evicted, the machine settled), the
   * file cached again after it through {@code refill}; when {@code awaitFill}, the fill the read
   * started is waited for first, its CPU counted in the read's. The misses' control row reads
   * plain HDFS so: whatever a miss round's preparation leaves behind is then in its figures too,
   * so a miss's cost is its figures against the control's as well as against the plain read's.
   */
  private ReadPath afterEviction(MiniMpCacheCluster c, ReadPath read, FileSystem refill,
      boolean awaitFill) {
    return new ReadPath() {
      @Override
      public void before(Path p) throws Exception {
        evict(c, p);
      }

      @Override
      public long read(Path p) throws Exception {
        return read.read(p);
      }

      @Override
      public void settle(Path p) throws Exception {
        if (awaitFill) {
          awaitCached(c, p);
        }
      }

      @Override
      public void after(Path p) throws Exception {
        fill(c, refill, p);
      }
    };
  }

  /**
   * Waits, at most a minute, until every block of {@code p} is cached and no fill is under way;
   * a fill that was dropped is left to {@link #fill}.
   */
  private static void awaitCached(MiniMpCacheCluster c, Path p) throws Exception {
    MpCacheSlave s = c.slaves().get(0);
    List<BlockKey> keys = blocksOf(c, p);
    long deadline = Time.monotonicNow() + 60_000;
    while (Time.monotonicNow() < deadline) {
      boolean all = keys.stream().allMatch(k -> s.getStore().blockFile(k).isPresent());
      if (all || s.getFiller().readerFillsPending() == 0) {
        return;
      }
      Thread.sleep(5);
    }
  }

  private void write(MiniMpCacheCluster c, Path p, long blockSize) throws IOException {
    Random r = new Random(blockSize);
    try (FileSystem fs = c.plainFileSystem();
        FSDataOutputStream out = fs.create(p, true, IO, (short) 1, blockSize)) {
      for (long left = fileBytes; left > 0; left -= IO) {
        r.nextBytes(buf);
        out.write(buf, 0, (int) Math.min(IO, left));
      }
    }
  }

  /** Reads {@code p} through the cache until all of its blocks are cached on the slave. */
  private void fill(MiniMpCacheCluster c, FileSystem cache, Path p) throws Exception {
    long deadline = Time.monotonicNow() + 600_000;
    while (cachedBlocks(c, p) < blocksOf(c, p).size()) {
      if (Time.monotonicNow() > deadline) {
        throw new IllegalStateException(p + ": " + cachedBlocks(c, p) + " of "
            + blocksOf(c, p).size() + " blocks cached after 10 minutes; " + c.totals());
      }
      sequential(cache, p);
      Thread.sleep(500);
    }
  }

  static List<BlockKey> blocksOf(MiniMpCacheCluster c, Path p) throws IOException {
    List<BlockKey> keys = new ArrayList<>();
    for (LocatedBlock b : c.dfs().getFileSystem().getClient()
        .getLocatedBlocks(p.toUri().getPath(), 0, Long.MAX_VALUE).getLocatedBlocks()) {
      keys.add(new BlockKey(b.getBlock().getBlockPoolId(), b.getBlock().getBlockId(),
          b.getBlock().getGenerationStamp()));
    }
    return keys;
  }

  static long cachedBlocks(MiniMpCacheCluster c, Path p) throws IOException {
    MpCacheSlave s = c.slaves().get(0);
    return blocksOf(c, p).stream().filter(k -> s.getStore().blockFile(k).isPresent()).count();
  }

  /**
   * {@code {MB/s, CPU s per GB}} of one read of {@code p}; with {@code --thread-cpu}, adds the
   * CPU each thread group spent during the read itself (not its settling) to {@code byGroup}.
   */
  private double[] measure(ReadPath path, Path p, Map<String, Long> byGroup) throws Exception {
    path.before(p);
    if (settleFirst) {
      settleMachine();
    }
    Map<Long, long[]> threads0 = byThread ? threadCpu() : Map.of();
    long cpu0 = os.getProcessCpuTime();
    long t0 = System.nanoTime();
    long bytes = path.read(p);
    long nanos = System.nanoTime() - t0;
    if (byThread) {
      long readCpu = os.getProcessCpuTime() - cpu0;
      long inThreads = 0;
      for (Map.Entry<Long, long[]> e : threadCpu().entrySet()) {
        long[] before = threads0.get(e.getKey());
        long spent = e.getValue()[0] - (before == null ? 0 : before[0]);
        inThreads += spent;
        byGroup.merge(groupOf(threads.getThreadInfo(e.getKey())), spent, Long::sum);
      }
      byGroup.merge("(not a Java thread: JIT compiler, GC)", Math.max(0, readCpu - inThreads),
          Long::sum);
    }
    path.settle(p);
    long cpu = os.getProcessCpuTime() - cpu0;
    if (bytes != fileBytes) {
      throw new IllegalStateException(p + ": read " + bytes + " of " + fileBytes + " bytes");
    }
    path.after(p);
    return new double[] {bytes / 1e6 / (nanos / 1e9), cpu / 1e9 / (bytes / 1e9)};
  }

  /**
   * Untimed, before every read: writes every dirty page of the machine's file systems to disk
   * ({@code sync}), then waits, at most {@link #SETTLE_MAX_MS}, until the host's cores are idle
   * ({@link #SETTLE_BUSY} of their time or less over {@link #SETTLE_WINDOW_MS}). What an earlier
   * row or a read's preparation left the machine doing (the write-back of a fill's block files
   * 30 s after they were written, the kernel discarding an evicted dataset's files, the daemons'
   * work after an eviction) would otherwise land in whichever row reads next.
   */
  private void settleMachine() throws IOException, InterruptedException {
    Process sync = new ProcessBuilder("sync").inheritIO().start();
    if (sync.waitFor() != 0) {
      throw new IOException("sync exited with " + sync.exitValue());
    }
    long deadline = System.nanoTime() + SETTLE_MAX_MS * 1_000_000;
    host.busyShare();
    while (System.nanoTime() < deadline) {
      Thread.sleep(SETTLE_WINDOW_MS);
      // Unknown (no /proc/stat): nothing to wait for.
      if (host.busyShare() <= SETTLE_BUSY) {
        return;
      }
    }
    unsettled++;
  }

  /** Every live thread's CPU nanoseconds, by thread id. */
  private Map<Long, long[]> threadCpu() {
    Map<Long, long[]> m = new LinkedHashMap<>();
    for (long id : threads.getAllThreadIds()) {
      long t = threads.getThreadCpuTime(id);
      if (t >= 0) {
        m.put(id, new long[] {t});
      }
    }
    return m;
  }

  /** A thread's name without its numbers: the threads of one pool form one group. */
  private static String groupOf(java.lang.management.ThreadInfo t) {
    return t == null ? "(ended)" : t.getThreadName().replaceAll("[0-9]+", "#");
  }

  /** Per row and block size, the thread groups that spent most CPU during the reads. */
  private void printByThread(List<Row> rows) {
    System.out.println();
    System.out.println("CPU ms per GB read, by thread group, during the reads (their settling "
        + "excluded), over the counted rounds:");
    for (Row r : rows) {
      for (Map.Entry<Long, Map<String, Long>> e : r.threadNanos.entrySet()) {
        double gb = rounds * (double) fileBytes / 1e9;
        System.out.printf(Locale.ROOT, "%s, %d MiB blocks:%n", r.name, e.getKey() >> 20);
        e.getValue().entrySet().stream()
            .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
            .filter(g -> g.getValue() / 1e6 / gb >= 1)
            .forEach(g -> System.out.printf(Locale.ROOT, "  %8.1f  %s%n",
                g.getValue() / 1e6 / gb, g.getKey()));
      }
    }
  }

  private long direct(MiniMpCacheCluster c, Path p) throws IOException {
    MpCacheSlave s = c.slaves().get(0);
    long total = 0;
    for (BlockKey k : blocksOf(c, p)) {
      java.nio.file.Path f = s.getStore().blockFile(k).orElseThrow(
          () -> new IllegalStateException(k + " is not cached"));
      try (RandomAccessFile in = new RandomAccessFile(f.toFile(), "r")) {
        for (int n; (n = in.read(buf)) > 0; ) {
          total += n;
        }
      }
    }
    return total;
  }

  private long sequential(FileSystem fs, Path p) throws IOException {
    long total = 0;
    try (FSDataInputStream in = fs.open(p, IO)) {
      for (int n; (n = in.read(buf)) > 0; ) {
        total += n;
      }
    }
    return total;
  }

  /** How a path reads a file. */
  private enum Reads {
    /** 1 MiB at a time from the start. */
    SEQUENTIAL,
    /** 1 MiB positional reads at shuffled 1 MiB-aligned offsets, covering the file once. */
    SHUFFLED,
    /** As many 1 MiB positional reads at random offsets, each anywhere in the file. */
    RANDOM
  }

  private long positional(FileSystem fs, Path p, Reads reads) throws IOException {
    int n = (int) ((fileBytes + IO - 1) / IO);
    List<Long> offsets = new ArrayList<>();
    Random random = new Random(n);
    for (int i = 0; i < n; i++) {
      offsets.add(reads == Reads.RANDOM
          ? (long) (random.nextDouble() * (fileBytes - IO)) : (long) i * IO);
    }
    java.util.Collections.shuffle(offsets, random);
    long total = 0;
    try (FSDataInputStream in = fs.open(p, IO)) {
      for (long off : offsets) {
        int len = (int) Math.min(IO, fileBytes - off);
        in.readFully(off, buf, 0, len);
        total += len;
      }
    }
    return total;
  }

  /** Reads {@code p} through the cache and checks that every byte came from the cache. */
  private long hits(FileSystem cache, Path p, Reads reads) throws IOException {
    ClientCounters counters = ClientCounters.get();
    long fromHdfs = counters.bytesFromHdfs();
    long n = reads == Reads.SEQUENTIAL ? sequential(cache, p) : positional(cache, p, reads);
    if (counters.bytesFromHdfs() != fromHdfs) {
      throw new IllegalStateException(p + ": " + (counters.bytesFromHdfs() - fromHdfs)
          + " bytes of a hit round came from HDFS");
    }
    return n;
  }

  /** {@link #hits}, checking that every block was read through the slave's stream. */
  private long streamed(FileSystem cache, Path p, Reads reads) throws IOException {
    ClientCounters counters = ClientCounters.get();
    long streams = counters.hitsByStream();
    long n = hits(cache, p, reads);
    int blocks = (int) ((fileBytes + blockSizeOf(cache, p) - 1) / blockSizeOf(cache, p));
    if (counters.hitsByStream() - streams < blocks) {
      throw new IllegalStateException(p + ": " + (counters.hitsByStream() - streams) + " of "
          + blocks + " blocks of a stream round were read through a stream");
    }
    return n;
  }

  private static long blockSizeOf(FileSystem fs, Path p) throws IOException {
    return fs.getFileStatus(p).getBlockSize();
  }

  /** Evicts {@code p}'s dataset through the master's admin RPC and waits until it is gone. */
  private static void evict(MiniMpCacheCluster c, Path p) throws Exception {
    InetSocketAddress master = new InetSocketAddress("127.0.0.1",
        c.master().getRpcAddress().getPort());
    AdminProtocolPB admin = RpcSupport.proxy(AdminProtocolPB.class, master, c.conf(), 20_000);
    try {
      RpcSupport.call(() -> admin.evict(null,
          EvictRequestProto.newBuilder().setPath(p.getParent().toString()).build()));
    } finally {
      RpcSupport.close(admin);
    }
    Polling.await(() -> {
      try {
        return cachedBlocks(c, p) == 0;
      } catch (IOException e) {
        return false;
      }
    }, 120_000, "the eviction of " + p);
  }

  /** Reads {@code p} through the cache, a miss; checks that it filled every block. */
  private long miss(FileSystem cache, Path p) throws IOException {
    ClientCounters counters = ClientCounters.get();
    long fromCache = counters.bytesFromCache();
    long n = sequential(cache, p);
    if (counters.bytesFromCache() != fromCache) {
      throw new IllegalStateException(p + ": " + (counters.bytesFromCache() - fromCache)
          + " bytes of a miss round came from the cache");
    }
    return n;
  }

  /**
   * The cores the embedded cluster's daemons use while nothing is read (heartbeats, reports,
   * monitors), over 3 s: a row's CPU seconds per GB include them for as long as the row runs,
   * which matters for a slow row, such as a miss whose fills the slave paces.
   */
  private double idleCores() throws InterruptedException {
    long cpu0 = os.getProcessCpuTime();
    long t0 = System.nanoTime();
    Thread.sleep(3_000);
    return (double) (os.getProcessCpuTime() - cpu0) / (System.nanoTime() - t0);
  }

  private void print(List<Row> rows, double idleCores) {
    StringBuilder head = new StringBuilder("| path |");
    StringBuilder rule = new StringBuilder("| --- |");
    for (long bs : blockSizes) {
      head.append(" ").append(bs >> 20).append(" MiB blocks: MB/s median (min-max) | CPU s/GB |");
      rule.append(" ---: | ---: |");
    }
    System.out.println();
    System.out.printf(Locale.ROOT, "%d MiB per file, %d rounds after %d warm-up, %d cores; the "
        + "cluster idle uses %.3f cores; %s%n", fileBytes >> 20, rounds, warmup,
        Runtime.getRuntime().availableProcessors(), idleCores, !settleFirst
            ? "reads did not wait for the machine to settle"
            : unsettled + " reads started before the machine settled (" + SETTLE_MAX_MS
                + " ms passed)");
    System.out.println(head);
    System.out.println(rule);
    for (Row r : rows) {
      StringBuilder line = new StringBuilder("| ").append(r.name).append(" |");
      for (long bs : blockSizes) {
        List<double[]> s = r.samples.get(bs);
        double[] mbs = s.stream().mapToDouble(x -> x[0]).sorted().toArray();
        double[] cpu = s.stream().mapToDouble(x -> x[1]).sorted().toArray();
        line.append(String.format(Locale.ROOT, " %,.0f (%,.0f-%,.0f) | %.2f |",
            RatioSummary.median(mbs), mbs[0], mbs[mbs.length - 1], RatioSummary.median(cpu)));
      }
      System.out.println(line);
    }
    printMissRatios(rows);
  }

  /**
   * Each miss row's MB/s against the plain read's and the control's of the same round (read
   * minutes apart at most, so that the machine's drift between rounds cancels), and the control's
   * against the plain read's (two plain reads of the same file: the machine's own spread, which
   * no miss row's ratio can be told from): the median and range of the rounds' ratios, and the
   * bootstrap interval of that median ({@link RatioSummary}); then each of these rows against
   * the plain reads just before and after each of its reads ({@link #printBracketRatios}).
   */
  private void printMissRatios(List<Row> rows) {
    List<Row> bases = rows.stream().filter(r -> r.name.equals(PLAIN) || r.name.equals(CONTROL))
        .toList();
    if (bases.size() == 2) {
      printRatios(bases.get(1), bases.get(0));
    }
    for (Row miss : rows) {
      if (miss.name.contains(" miss ")) {
        bases.forEach(base -> printRatios(miss, base));
      }
    }
    for (Row r : rows) {
      if (r.bracketed()) {
        printBracketRatios(r);
      }
    }
  }

  /**
   * Per block size, {@code row}'s MB/s against the mean of the plain reads of the same file just
   * before and after it, seconds apart: the machine's drift over a round (its speed wanders by a
   * quarter over minutes) cancels more nearly than against a read elsewhere in the round.
   */
  private void printBracketRatios(Row row) {
    StringBuilder line = new StringBuilder("per round, ").append(row.name)
        .append(" against the plain reads of the file just before and after it:");
    for (long bs : blockSizes) {
      double[] ratios = row.bracketRatios.get(bs).stream().mapToDouble(Double::doubleValue)
          .toArray();
      line.append(String.format(Locale.ROOT, " %d MiB blocks %s;", bs >> 20,
          RatioSummary.of(ratios)));
    }
    System.out.println(line);
  }

  /** Per block size, {@code row}'s MB/s against {@code base}'s of the same round. */
  private void printRatios(Row row, Row base) {
    StringBuilder line = new StringBuilder("per round, ").append(row.name).append(" against ")
        .append(base.name).append(":");
    for (long bs : blockSizes) {
      List<double[]> m = row.samples.get(bs);
      List<double[]> b = base.samples.get(bs);
      double[] ratios = new double[m.size()];
      for (int i = 0; i < ratios.length; i++) {
        ratios[i] = m.get(i)[0] / b.get(i)[0];
      }
      line.append(String.format(Locale.ROOT, " %d MiB blocks %s;", bs >> 20,
          RatioSummary.of(ratios)));
    }
    System.out.println(line);
  }

}
