package org.mpcache.benchmarks.restart;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.util.Time;
import org.mpcache.benchmarks.Polling;
import org.mpcache.common.proto.MpCacheProtos.SlaveInfoProto;
import org.mpcache.hdfs.ClientConfigKeys;
import org.mpcache.minicluster.MiniMpCacheCluster;
import org.mpcache.slave.MpCacheSlave;
import org.mpcache.slave.SlaveConfigKeys;

/**
 * Measures what a restart costs with many cached blocks, on an embedded cluster
 * ({@link MiniMpCacheCluster}: MiniDFSCluster, a master and one slave per DataNode, in one JVM):
 *
 * <ol>
 *   <li>a slave holding every one of {@code --blocks} cached blocks restarted (as after a crash):
 *       the time from its start to its first hit, and the rate its background verification
 *       achieved against {@code mpcache.slave.verify.bytes.per.sec};</li>
 *   <li>the master restarted with {@code --blocks} cached blocks spread over three slaves: the
 *       time from its start to every slave registered, and to every block adopted and checked
 *       against the NameNode.</li>
 * </ol>
 *
 * <p>Each is repeated {@code --runs} times and printed with its mean, minimum and maximum. Blocks
 * are small ({@code --block-kib}, 16 KiB by default) so that the cluster fits the machine: the
 * restart path costs per block (sidecar header read, registration entry, adoption), the
 * verification per byte. Usage: {@code RestartFigures [--blocks N] [--block-kib K] [--runs R]
 * [--verify-mib-per-sec M] [--dir DIR]}. Not thread-safe; a command-line tool.
 */
public final class RestartFigures {
  private final int blocks;
  private final int blockBytes;
  private final int runs;
  private final long verifyBytesPerSec;
  private final File dir;

  private RestartFigures(int blocks, int blockBytes, int runs, long verifyBytesPerSec, File dir) {
    this.blocks = blocks;
    this.blockBytes = blockBytes;
    this.runs = runs;
    this.verifyBytesPerSec = verifyBytesPerSec;
    this.dir = dir;
  }

  public static void main(String[] args) throws Exception {
    int blocks = 10_000;
    int blockKib = 16;
    int runs = 3;
    long verifyMib = 32;
    File dir = new File("/tmp/mpcache-restart-figures");
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--blocks" -> blocks = Integer.parseInt(args[++i]);
        case "--block-kib" -> blockKib = Integer.parseInt(args[++i]);
        case "--runs" -> runs = Integer.parseInt(args[++i]);
        case "--verify-mib-per-sec" -> verifyMib = Long.parseLong(args[++i]);
        case "--dir" -> dir = new File(args[++i]);
        default -> {
          System.err.println("Usage: RestartFigures [--blocks N] [--block-kib K] [--runs R] "
              + "[--verify-mib-per-sec M] [--dir DIR]");
          System.exit(1);
        }
      }
    }
    RestartFigures f = new RestartFigures(blocks, blockKib * 1024, runs, verifyMib << 20, dir);
    f.slaveRestart();
    f.masterRestart();
  }

  private MiniMpCacheCluster cluster(String name, int nodes) throws IOException {
    File base = new File(dir, name);
    FileUtil.fullyDelete(base);
    return new MiniMpCacheCluster.Builder(base).dataNodes(nodes).blockSize(blockBytes)
        .set(DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY, "0")
        // Many small blocks: ask for the next block soon after the last one was written.
        .set(HdfsClientConfigKeys.BlockWrite.LOCATEFOLLOWINGBLOCK_INITIAL_DELAY_MS_KEY, "10")
        .set(ClientConfigKeys.SLAVE_RETRY_MS_KEY, "0")
        .set(SlaveConfigKeys.VERIFY_BYTES_PER_SEC_KEY, Long.toString(verifyBytesPerSec))
        .slaveCapacity(Math.max(1L << 30, 4L * blocks * blockBytes)).build();
  }

  /** The files: 10 datasets (directories) of 10 files each, {@code blocks} blocks in all. */
  private List<Path> populate(MiniMpCacheCluster c) throws Exception {
    List<Path> files = new ArrayList<>();
    int perFile = Math.max(1, blocks / 100);
    Random r = new Random(42);
    byte[] content = new byte[perFile * blockBytes];
    long t0 = Time.monotonicNow();
    for (int i = 0, left = blocks; left > 0; i++) {
      int n = Math.min(perFile, left);
      Path p = new Path("/restart-figures/d" + (i % 10) + "/f" + i);
      r.nextBytes(content);
      try (FSDataOutputStream out = c.plainFileSystem().create(p, true)) {
        out.write(content, 0, n * blockBytes);
      }
      files.add(p);
      left -= n;
    }
    // A slave busy with fills declines more: read again until every block is cached.
    for (int pass = 0; cached(c) < blocks; pass++) {
      if (pass == 20) {
        throw new IllegalStateException("only " + cached(c) + " blocks cached after 20 passes; "
            + c.totals());
      }
      try (FileSystem fs = c.fileSystem()) {
        for (Path p : files) {
          read(fs, p);
        }
      }
      Thread.sleep(1_000);
    }
    System.out.printf(Locale.ROOT, "populated %d blocks of %d KiB in %d files on %d slave(s) in "
        + "%.1f s%n", cached(c), blockBytes / 1024, files.size(), c.slaves().size(),
        (Time.monotonicNow() - t0) / 1000.0);
    return files;
  }

  private static void read(FileSystem fs, Path p) throws IOException {
    byte[] buf = new byte[1 << 16];
    try (FSDataInputStream in = fs.open(p)) {
      while (in.read(buf) >= 0) {
        // read to the end: every block is asked for
      }
    }
  }

  private static long cached(MiniMpCacheCluster c) {
    long n = 0;
    for (MpCacheSlave s : c.slaves()) {
      n += s.cachedBlocks().size();
    }
    return n;
  }

  private void slaveRestart() throws Exception {
    try (MiniMpCacheCluster c = cluster("one-slave", 1)) {
      List<Path> files = populate(c);
      List<Double> firstHit = new ArrayList<>();
      List<Double> rates = new ArrayList<>();
      long bytes = (long) blocks * blockBytes;
      for (int run = 0; run < runs; run++) {
        c.stopSlave(0);
        long t0 = Time.monotonicNow();
        c.crashAndRestartSlave(0);
        MpCacheSlave s = c.slaves().get(0);
        long hitsBefore = s.getCounters().snapshot().getHits();
        Path probe = files.get(run % files.size());
        while (s.getCounters().snapshot().getHits() == hitsBefore) {
          try (FileSystem fs = c.fileSystem()) {
            read(fs, probe);
          }
        }
        firstHit.add((Time.monotonicNow() - t0) / 1000.0);
        Polling.await(() -> s.getStartupVerifier().isDone(), 3_600_000, "the verification");
        double seconds = (Time.monotonicNow() - t0) / 1000.0;
        rates.add(bytes / seconds / (1 << 20));
        if (s.getStartupVerifier().verified() != blocks) {
          throw new IllegalStateException("verified " + s.getStartupVerifier().verified()
              + " of " + blocks + " blocks");
        }
      }
      print("slave start to first hit, " + blocks + " blocks on its SSD (s)", firstHit);
      print("background verification of " + blocks + " blocks (" + (bytes >> 20) + " MiB) at "
          + (verifyBytesPerSec >> 20) + " MiB/s set, from the slave's start (MiB/s)", rates);
    }
  }

  private void masterRestart() throws Exception {
    try (MiniMpCacheCluster c = cluster("three-slaves", 3)) {
      populate(c);
      List<Double> registered = new ArrayList<>();
      List<Double> adopted = new ArrayList<>();
      for (int run = 0; run < runs; run++) {
        long[] t0 = new long[1];
        c.restartMaster(() -> t0[0] = Time.monotonicNow());
        registered.add((Time.monotonicNow() - t0[0]) / 1000.0);
        Polling.await(() -> storedOnMaster(c) >= blocks
            && c.master().getAdoptionChecker().pending() == 0, 600_000, "every block adopted");
        adopted.add((Time.monotonicNow() - t0[0]) / 1000.0);
      }
      print("master start to all 3 slaves registered, " + blocks + " blocks (s)", registered);
      print("master start to all " + blocks + " blocks adopted and checked against the NameNode "
          + "(s)", adopted);
    }
  }

  private static long storedOnMaster(MiniMpCacheCluster c) {
    long n = 0;
    for (SlaveInfoProto s : c.master().getSlaveRegistry().liveSlaves()) {
      n += c.master().getSlaveRegistry().blocksOf(s.getSlaveId()).size();
    }
    return n;
  }

  private static void print(String what, List<Double> values) {
    double sum = 0;
    double min = Double.MAX_VALUE;
    double max = 0;
    for (double v : values) {
      sum += v;
      min = Math.min(min, v);
      max = Math.max(max, v);
    }
    StringBuilder all = new StringBuilder();
    for (double v : values) {
      all.append(String.format(Locale.ROOT, " %.2f", v));
    }
    System.out.printf(Locale.ROOT, "%s: mean %.2f, min %.2f, max %.2f over %d runs:%s%n", what,
        sum / values.size(), min, max, values.size(), all);
  }

}
