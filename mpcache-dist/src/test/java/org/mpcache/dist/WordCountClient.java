package org.mpcache.dist;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.mpcache.benchmarks.puma.WordCount;

/**
 * A job client as an operator's submitting host runs it: {@code java -cp
 * <etc/hadoop>:<Hadoop's jars, the mpCache client jar among them>:<benchmarks jar>
 * org.mpcache.dist.WordCountClient INPUT OUTPUT} submits the PUMA word count with nothing but the
 * configuration directory's site files (so {@code core-site.xml} decides whether reads go through
 * mpCache) and waits for it. Exits 0 when the job succeeded, 1 when it failed, 2 on a usage error.
 *
 * <p>Used by {@link InstallGuideTest}, which starts it as a separate process.
 */
public final class WordCountClient {
  private WordCountClient() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("Usage: WordCountClient INPUT OUTPUT");
      System.exit(2);
    }
    Job job = new WordCount().createJob(new Configuration(), new Path(args[0]), new Path(args[1]));
    boolean ok = job.waitForCompletion(true);
    System.out.println("Job " + job.getJobID() + (ok ? " succeeded" : " failed"));
    System.exit(ok ? 0 : 1);
  }
}
