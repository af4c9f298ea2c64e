package org.mpcache.benchmarks.demo;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.util.Time;
import org.mpcache.benchmarks.datagen.DataGenerators;
import org.mpcache.benchmarks.datagen.DatasetKind;
import org.mpcache.benchmarks.puma.WordCount;
import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;
import org.mpcache.minicluster.MiniMpCacheCluster;

/**
 * The demo: an embedded cluster (2 DataNodes, 2 NodeManagers, one master, one slave per node)
 * runs the same PUMA word-count job twice over a multi-block Wikipedia-like text and prints both
 * job times, the
 * bytes read from the slaves' caches and from HDFS, the hit ratio (the share of bytes read that
 * came from a cache) and the blocks found cached out of the blocks looked up. Every HDFS read of
 * the run counts, including the job's own small files (configuration, splits), which are new on
 * every run.
 *
 * <p>Usage: {@code WordCountDemo [--input-mb N] [--block-mb N] [--dir DIR]}.
 */
public final class WordCountDemo {
  private final PrintStream out;
  private long inputMb = 64;
  private long blockMb = 8;
  private File dir = new File("target/demo");

  private WordCountDemo(PrintStream out) {
    this.out = out;
  }

  public static void main(String[] args) throws Exception {
    WordCountDemo demo = new WordCountDemo(System.out);
    try {
      demo.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.err.println("Usage: WordCountDemo [--input-mb N] [--block-mb N] [--dir DIR]");
      System.exit(1);
    }
    demo.run();
    System.exit(0);
  }

  private void parse(String[] args) {
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("Missing value after " + a);
      }
      String v = args[++i];
      switch (a) {
        case "--input-mb":
          inputMb = positive(a, v);
          break;
        case "--block-mb":
          blockMb = positive(a, v);
          break;
        case "--dir":
          dir = new File(v);
          break;
        default:
          throw new IllegalArgumentException("Unknown option " + a);
      }
    }
    if (blockMb > inputMb) {
      throw new IllegalArgumentException("--block-mb " + blockMb + " exceeds --input-mb "
          + inputMb + ": the input must span several blocks");
    }
  }

  private static long positive(String option, String v) {
    try {
      long n = Long.parseLong(v);
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // Reported below.
    }
    throw new IllegalArgumentException(option + " needs a positive whole number, got '" + v + "'");
  }

  private void run() throws Exception {
    FileUtil.fullyDelete(dir);
    out.printf("Starting an embedded cluster in %s ...%n", dir);
    try (MiniMpCacheCluster cluster = new MiniMpCacheCluster.Builder(dir).yarn(true)
        .blockSize(blockMb << 20).slaveCapacity(4 * (inputMb << 20)).build()) {
      Path in = new Path("/demo/input", DataGenerators.DATA_FILE);
      DataGenerators.generate(DatasetKind.WIKIPEDIA_TEXT, cluster.plainFileSystem(),
          in.getParent(), inputMb << 20, 2014);
      long bytes = cluster.plainFileSystem().getFileStatus(in).getLen();
      out.printf("mpCache word-count demo: %d DataNodes, %d NodeManagers, 1 master, %d slaves; "
          + "input %s in %d blocks of %d MiB%n", cluster.slaves().size(),
          cluster.slaves().size(), cluster.slaves().size(), size(bytes),
          (bytes + (blockMb << 20) - 1) / (blockMb << 20), blockMb);
      out.printf("%n%-8s %10s %12s %12s %10s %12s%n", "run", "job time", "from cache",
          "from HDFS", "hit ratio", "block hits");
      String first = runOnce(cluster, "first", in.getParent(), new Path("/demo/out1"));
      String second = runOnce(cluster, "second", in.getParent(), new Path("/demo/out2"));
      out.printf("%noutputs identical: %s%n", first.equals(second) ? "yes" : "NO");
      out.println("(HDFS and the cache share one disk here: the job times do not show SSD "
          + "speed; the byte counts show where the input came from.)");
    }
  }

  private String runOnce(MiniMpCacheCluster cluster, String name, Path in, Path outDir)
      throws Exception {
    SlaveCountersProto before = cluster.totals();
    Configuration conf = cluster.conf();
    conf.setInt(MRJobConfig.NUM_REDUCES, 2);
    Job job = new WordCount().createJob(conf, in, outDir);
    long start = Time.monotonicNow();
    if (!job.waitForCompletion(false)) {
      StringBuilder why = new StringBuilder(job.getStatus().getFailureInfo());
      for (TaskCompletionEvent e : job.getTaskCompletionEvents(0, 1000)) {
        if (e.getStatus() == TaskCompletionEvent.Status.FAILED) {
          for (String d : job.getTaskDiagnostics(e.getTaskAttemptId())) {
            why.append('\n').append(e.getTaskAttemptId()).append(": ").append(d);
          }
        }
      }
      throw new IOException("word-count job " + job.getJobID() + " failed: " + why);
    }
    long ms = Time.monotonicNow() - start;
    SlaveCountersProto after = cluster.totals();
    long cache = after.getBytesFromCache() - before.getBytesFromCache();
    long hdfs = after.getBytesFromHdfs() - before.getBytesFromHdfs();
    long hits = after.getHits() - before.getHits();
    long misses = after.getMisses() - before.getMisses();
    out.printf(Locale.ROOT, "%-8s %8.1f s %12s %12s %9.1f%% %12s%n", name, ms / 1000.0,
        size(cache), size(hdfs), cache + hdfs == 0 ? 0.0 : 100.0 * cache / (cache + hdfs),
        hits + "/" + (hits + misses));
    return digest(cluster.plainFileSystem(), outDir);
  }

  private static String digest(FileSystem fs, Path dir) throws Exception {
    MessageDigest md = MessageDigest.getInstance("SHA-256");
    FileStatus[] parts = fs.globStatus(new Path(dir, "part-*"));
    Arrays.sort(parts);
    byte[] buf = new byte[1 << 16];
    for (FileStatus p : parts) {
      try (InputStream in = fs.open(p.getPath())) {
        int n;
        while ((n = in.read(buf)) > 0) {
          md.update(buf, 0, n);
        }
      }
    }
    StringBuilder hex = new StringBuilder();
    for (byte b : md.digest()) {
      hex.append(String.format("%02x", b));
    }
    return hex.toString();
  }

  private static String size(long bytes) {
    return String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
  }
}
