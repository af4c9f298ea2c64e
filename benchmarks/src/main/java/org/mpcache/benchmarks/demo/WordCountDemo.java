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
import org.apache.hadoop.util.ToolRunner;
import org.mpcache.benchmarks.datagen.DataGenerators;
import org.mpcache.benchmarks.datagen.DatasetKind;
import org.mpcache.benchmarks.puma.WordCount;
import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;
import org.mpcache.common.tools.CommandLineTool;
import org.mpcache.common.tools.ToolOptions;
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
 * <p>Options: {@code --input-mb N}, {@code --block-mb N} (at most the input), {@code --dir DIR};
 * {@code --help} prints them with their defaults. Exit status 0 when both runs finished, 1 on bad
 * arguments.
 */
public final class WordCountDemo extends CommandLineTool {
  private long inputMb;
  private long blockMb;
  private File dir;

  /** A demo printing to the standard streams. */
  public WordCountDemo() {
  }

  /** A demo printing its results and help to {@code out}, errors to {@code err}. */
  WordCountDemo(PrintStream out, PrintStream err) {
    super(out, err);
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Configuration(), new WordCountDemo(), args));
  }

  @Override
  public ToolOptions options() {
    return new ToolOptions("WordCountDemo", "Runs PUMA word-count twice over the same text on an "
        + "embedded cluster and prints where the input came from.")
        .option("input-mb", "N", "MiB of Wikipedia-like input text", 64)
        .option("block-mb", "N", "HDFS block size in MiB, at most --input-mb", 8)
        .option("dir", "DIR", "directory of the embedded cluster, emptied first", "target/demo");
  }

  @Override
  protected int execute(ToolOptions.Values o) throws Exception {
    inputMb = o.positiveLong("input-mb");
    blockMb = o.positiveLong("block-mb");
    dir = o.file("dir");
    if (blockMb > inputMb) {
      throw o.error("--block-mb " + blockMb + " exceeds --input-mb " + inputMb
          + ": the input must span several blocks");
    }
    demo();
    return 0;
  }

  private void demo() throws Exception {
    FileUtil.fullyDelete(dir);
    console.printf("Starting an embedded cluster in %s ...%n", dir);
    try (MiniMpCacheCluster cluster = new MiniMpCacheCluster.Builder(dir).yarn(true)
        .blockSize(blockMb << 20).slaveCapacity(4 * (inputMb << 20)).build()) {
      Path in = new Path("/demo/input", DataGenerators.DATA_FILE);
      DataGenerators.generate(DatasetKind.WIKIPEDIA_TEXT, cluster.plainFileSystem(),
          in.getParent(), inputMb << 20, 2014);
      long bytes = cluster.plainFileSystem().getFileStatus(in).getLen();
      console.printf("mpCache word-count demo: %d DataNodes, %d NodeManagers, 1 master, %d slaves; "
          + "input %s in %d blocks of %d MiB%n", cluster.slaves().size(),
          cluster.slaves().size(), cluster.slaves().size(), size(bytes),
          (bytes + (blockMb << 20) - 1) / (blockMb << 20), blockMb);
      console.printf("%n%-8s %10s %12s %12s %10s %12s%n", "run", "job time", "from cache",
          "from HDFS", "hit ratio", "block hits");
      String first = runOnce(cluster, "first", in.getParent(), new Path("/demo/out1"));
      String second = runOnce(cluster, "second", in.getParent(), new Path("/demo/out2"));
      console.printf("%noutputs identical: %s%n", first.equals(second) ? "yes" : "NO");
      console.println("(HDFS and the cache share one disk here: the job times do not show SSD "
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
    console.printf(Locale.ROOT, "%-8s %8.1f s %12s %12s %9.1f%% %12s%n", name, ms / 1000.0,
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
