package org.mpcache.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A synthetic job trace for comparing policies at cluster scale, calibrated to what published
 * studies of production MapReduce workloads report (docs/simulator.md gives each parameter's
 * source and the figures a generated trace shows against them):
 *
 * <ul>
 *   <li><b>Dataset sizes are heavy-tailed</b>: a catalog of datasets whose sizes in blocks follow
 *       a Pareto law with tail index {@code sizeAlpha}, {@code P(size > x) = x^-alpha}, from one
 *       block up to {@code maxDatasetBlocks}. At the default 0.8 about nine jobs in ten read a
 *       dataset of at most 16 blocks (2 GiB), and those datasets hold about a sixth of the
 *       catalog's bytes, as Chen, Alspaugh and Katz found over seven Facebook and Cloudera
 *       traces (90% of jobs access KB- to GB-sized files holding under 16% of the bytes
 *       stored); most bytes are read by the few jobs over the datasets of hundreds and
 *       thousands of blocks, the heavy tail PACMan (NSDI'12) reports.</li>
 *   <li><b>Dataset popularity is Zipf</b>: each job reads the dataset of popularity rank
 *       {@code r} in {@code 1..datasets} with probability proportional to {@code r^-zipf}, sizes
 *       being drawn independently of rank.</li>
 *   <li><b>Re-access intervals</b> follow from popularity and the arrival rate: jobs arrive
 *       evenly at {@code jobsPerHour}, and {@link #profile} measures the share of jobs reading
 *       a dataset read in the previous six hours (the studies' "up to 60%") and the share of jobs
 *       reading a dataset no other job reads (PACMan: 6%).</li>
 * </ul>
 *
 * Every job reads its whole dataset; its shuffle is a tenth and its output a hundredth of its
 * input (aggregating jobs: the simulator charges shuffle and output to the Reduce phase, which
 * the Input Cache does not change). Pure: the same parameters and seed give the same trace.
 */
public final class SyntheticTrace {
  /** The dataset size a job is "small" at when profiling a trace: 2 GiB in 128 MB blocks. */
  static final int SMALL_DATASET_BLOCKS = 16;
  private static final long HOUR_MS = 3_600_000L;
  /** Default Zipf exponent of dataset popularity. */
  static final double DEFAULT_ZIPF = 1.0;
  /** Default Pareto tail index of dataset sizes. */
  static final double DEFAULT_SIZE_ALPHA = 0.8;
  /** Default largest dataset: 8,192 blocks, 1 TiB in 128 MB blocks. */
  static final int DEFAULT_MAX_DATASET_BLOCKS = 8192;
  /** Default arrival rate: SWIM's Facebook 2009 trace, roughly 1 million jobs in six months. */
  static final double DEFAULT_JOBS_PER_HOUR = 250;
  /** The default catalog has a dataset for every this many jobs. */
  static final int JOBS_PER_DATASET = 4;

  private final int datasets;
  private final double zipf;
  private final double sizeAlpha;
  private final int maxDatasetBlocks;
  private final double jobsPerHour;
  private final long blockBytes;

  /**
   * @param datasets the catalog's datasets (popularity ranks)
   * @param zipf Zipf exponent of dataset popularity, at least 0
   * @param sizeAlpha Pareto tail index of dataset sizes in blocks, greater than 0
   * @param maxDatasetBlocks the largest dataset, in blocks
   * @param jobsPerHour the arrival rate, which sets the time scale of re-access intervals
   * @param blockBytes HDFS block size
   */
  public SyntheticTrace(int datasets, double zipf, double sizeAlpha, int maxDatasetBlocks,
      double jobsPerHour, long blockBytes) {
    if (datasets < 1 || !(zipf >= 0) || !(sizeAlpha > 0) || maxDatasetBlocks < 1
        || !(jobsPerHour > 0) || blockBytes < 1) {
      throw new IllegalArgumentException("A synthetic trace needs at least 1 dataset, a Zipf "
          + "exponent >= 0, a size tail index > 0, a largest dataset of at least 1 block, a "
          + "positive arrival rate and block size; got " + datasets + ", " + zipf + ", "
          + sizeAlpha + ", " + maxDatasetBlocks + ", " + jobsPerHour + ", " + blockBytes);
    }
    this.datasets = datasets;
    this.zipf = zipf;
    this.sizeAlpha = sizeAlpha;
    this.maxDatasetBlocks = maxDatasetBlocks;
    this.jobsPerHour = jobsPerHour;
    this.blockBytes = blockBytes;
  }

  /** The generator with every default, its catalog sized for {@code jobs} jobs. */
  static SyntheticTrace defaults(int jobs, long blockBytes) {
    return new SyntheticTrace(catalogFor(jobs), DEFAULT_ZIPF, DEFAULT_SIZE_ALPHA,
        DEFAULT_MAX_DATASET_BLOCKS, DEFAULT_JOBS_PER_HOUR, blockBytes);
  }

  /** The default catalog size for a trace of {@code jobs} jobs. */
  static int catalogFor(int jobs) {
    return Math.max(1, jobs / JOBS_PER_DATASET);
  }

  /** A trace of {@code jobs} jobs, in arrival order. */
  public List<SimJob> jobs(int jobs, long seed) {
    Random r = new Random(seed);
    int[] sizes = new int[datasets];
    for (int d = 0; d < datasets; d++) {
      // Inverse transform of the Pareto law, cut at the largest dataset.
      double x = Math.pow(1 - r.nextDouble(), -1 / sizeAlpha);
      sizes[d] = (int) Math.min(maxDatasetBlocks, Math.floor(x));
    }
    double[] cdf = new double[datasets];
    double acc = 0;
    for (int d = 0; d < datasets; d++) {
      acc += Math.pow(d + 1, -zipf);
      cdf[d] = acc;
    }
    List<SimJob> out = new ArrayList<>(jobs);
    for (int j = 0; j < jobs; j++) {
      int i = Arrays.binarySearch(cdf, r.nextDouble() * acc);
      int d = Math.min(datasets - 1, i >= 0 ? i : -i - 1);
      long bytes = sizes[d] * blockBytes;
      out.add(new SimJob("job" + j, "synthetic", "/synthetic/d" + d, sizes[d], bytes,
          bytes / 10, bytes / 100, null, 0));
    }
    return out;
  }

  /** The time job {@code index} arrives at, in ms from the trace's start. */
  long submitMs(int index) {
    return (long) (index * HOUR_MS / jobsPerHour);
  }

  /**
   * The calibration figures of a generated trace, as docs/simulator.md compares them with the
   * published ones: shares of jobs and bytes, and the largest dataset.
   */
  static final class Profile {
    /** Jobs reading a dataset of at most {@link #SMALL_DATASET_BLOCKS} blocks. */
    double smallJobs;
    /** The share of the bytes of the datasets read that those small datasets hold. */
    double smallDatasetBytes;
    /** The share of the bytes read that the largest tenth of the jobs read. */
    double largestTenthBytes;
    /** Jobs reading a dataset that a job read in the previous six hours. */
    double reReadWithinSixHours;
    /** Jobs reading a dataset that no other job of the trace reads. */
    double singlyRead;
    /** Datasets read, and the largest, in blocks. */
    int datasetsRead;
    int largestDatasetBlocks;
  }

  /** The calibration figures of {@code trace}, a trace of this generator. */
  Profile profile(List<SimJob> trace) {
    Profile p = new Profile();
    int n = trace.size();
    if (n == 0) {
      return p;
    }
    Map<String, Integer> reads = new HashMap<>();
    Map<String, Integer> sizes = new HashMap<>();
    Map<String, Long> lastRead = new HashMap<>();
    long[] bytes = new long[n];
    long total = 0;
    int small = 0;
    int recent = 0;
    for (int j = 0; j < n; j++) {
      SimJob job = trace.get(j);
      reads.merge(job.dataset, 1, Integer::sum);
      sizes.put(job.dataset, job.blocks);
      Long last = lastRead.put(job.dataset, submitMs(j));
      if (last != null && submitMs(j) - last <= 6 * HOUR_MS) {
        recent++;
      }
      if (job.blocks <= SMALL_DATASET_BLOCKS) {
        small++;
      }
      bytes[j] = job.inputBytes;
      total += job.inputBytes;
    }
    long catalog = 0;
    long smallCatalog = 0;
    for (int s : sizes.values()) {
      catalog += s;
      smallCatalog += s <= SMALL_DATASET_BLOCKS ? s : 0;
      p.largestDatasetBlocks = Math.max(p.largestDatasetBlocks, s);
    }
    int singly = 0;
    for (SimJob job : trace) {
      singly += reads.get(job.dataset) == 1 ? 1 : 0;
    }
    Arrays.sort(bytes);
    long top = 0;
    for (int j = n - Math.max(1, n / 10); j < n; j++) {
      top += bytes[j];
    }
    p.smallJobs = small / (double) n;
    p.smallDatasetBytes = smallCatalog / (double) catalog;
    p.largestTenthBytes = top / (double) total;
    p.reReadWithinSixHours = recent / (double) n;
    p.singlyRead = singly / (double) n;
    p.datasetsRead = sizes.size();
    return p;
  }
}
