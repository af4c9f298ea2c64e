package org.mpcache.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;
import org.mpcache.benchmarks.datagen.DataGenerators;
import org.mpcache.benchmarks.datagen.DatasetKind;
import org.mpcache.benchmarks.puma.WordCount;
import org.mpcache.minicluster.MiniMpCacheCluster;

/**
 * Unmodified MapReduce jobs for tests on a {@link MiniMpCacheCluster} with YARN: PUMA word-count
 * (two reduces) over seeded Wikipedia-like text, its output as bytes to compare with plain
 * Hadoop's, and its map tasks' durations from the job's task reports. Plain Hadoop's output comes
 * from Hadoop's in-process local job runner ({@link #plainOutput}): the same job, the same bytes,
 * without the YARN containers that make most of a job's time on the embedded cluster.
 */
public final class WordCountJobs {
  private WordCountJobs() {
  }

  /**
   * Writes about {@code bytes} of Wikipedia-like text, the same for the same {@code seed}, into
   * directory {@code dir} through plain HDFS, replacing what was there; returns the data file.
   */
  public static Path text(MiniMpCacheCluster cluster, Path dir, long bytes, long seed)
      throws IOException {
    FileSystem fs = cluster.plainFileSystem();
    fs.delete(dir, true);
    DataGenerators.generate(DatasetKind.WIKIPEDIA_TEXT, fs, dir, bytes, seed);
    return new Path(dir, DataGenerators.DATA_FILE);
  }

  /** A word-count job of the text in {@code in} into {@code out}, not yet submitted. */
  public static Job wordCount(Configuration conf, Path in, Path out) throws Exception {
    Configuration c = new Configuration(conf);
    c.setInt(MRJobConfig.NUM_REDUCES, 2);
    return new WordCount().createJob(c, in, out);
  }

  /** Runs a word-count job to its end; asserts it succeeded and returns it. */
  public static Job run(Configuration conf, Path in, Path out) throws Exception {
    Job job = wordCount(conf, in, out);
    assertTrue(job.waitForCompletion(false), "job " + job.getJobID() + " failed");
    return job;
  }

  /**
   * Runs word-count of the text in {@code in} into {@code out} under plain Hadoop (reads bypass
   * the cache, no localized plug points) with Hadoop's local job runner, in this JVM; returns its
   * output as {@link #output} does. The mapper, combiner, partitioner, reducer and output format
   * are the job's own, so its output is byte for byte what the same job gives on YARN.
   */
  public static byte[] plainOutput(MiniMpCacheCluster cluster, Path in, Path out)
      throws Exception {
    Configuration c = cluster.plainHadoopConf();
    c.set(MRConfig.FRAMEWORK_NAME, MRConfig.LOCAL_FRAMEWORK_NAME);
    run(c, in, out);
    byte[] bytes = output(cluster, out);
    assertTrue(bytes.length > 0, "plain Hadoop's word-count of " + in + " is empty");
    return bytes;
  }

  /** The concatenated bytes of a job's part files, in name order. */
  public static byte[] output(MiniMpCacheCluster cluster, Path dir) throws IOException {
    FileSystem fs = cluster.plainFileSystem();
    FileStatus[] parts = fs.globStatus(new Path(dir, "part-*"));
    Arrays.sort(parts);
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (FileStatus p : parts) {
      try (InputStream in = fs.open(p.getPath())) {
        IOUtils.copyBytes(in, all, 65536, false);
      }
    }
    return all.toByteArray();
  }

  /** How long each map task of a finished job ran, in milliseconds, from its task reports. */
  public static long[] mapMillis(Job job) throws IOException, InterruptedException {
    TaskReport[] reports = job.getTaskReports(TaskType.MAP);
    long[] out = new long[reports.length];
    for (int i = 0; i < reports.length; i++) {
      out[i] = reports[i].getFinishTime() - reports[i].getStartTime();
    }
    return out;
  }
}
