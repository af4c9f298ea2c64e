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
 * <ul>
 *   <li><b>A few huge paths, re-read in slices</b>: {@code hugePaths} paths of
 *       {@code hugePathBlocks} blocks each, each read by {@code hugePathReads} jobs spread evenly
 *       over the trace, every one of which reads only the path's first 1 to {@code sliceBlocks}
 *       blocks (a Hive or Spark job reading a partition or a prefix of a large table). The
 *       defaults are the production trace's case of docs/policy.md: a 113,918-block input re-read
 *       25 times by jobs each reading its first block.</li>
 *   <li><b>Most paths read once</b>: a share {@code onceShare} of the jobs reads a path of its
 *       own, sized by the same Pareto law, that no other job reads (new data: a day's logs, a
 *       query's output), so a trace of tens of thousands of jobs has tens of thousands of
 *       distinct paths, most of them read once.</li>
 * </ul>
 *
 * Every other job reads its whole dataset; a job's shuffle is a tenth and its output a hundredth
 * of its input (aggregating jobs: the simulator charges shuffle and output to the Reduce phase, which
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
  /** Default huge paths re-read in slices. */
  static final int DEFAULT_HUGE_PATHS = 4;
  /** Default size of a huge path: the production trace's 113,918-block input. */
  static final int DEFAULT_HUGE_PATH_BLOCKS = 113_918;
  /** Default jobs reading each huge path: that input's 25 jobs. */
  static final int DEFAULT_HUGE_PATH_READS = 25;
  /** Default most blocks a job reads of a huge path, its first ones. */
  static final int DEFAULT_SLICE_BLOCKS = 4;
  /** Default share of jobs reading a path no other job reads. */
  static final double DEFAULT_ONCE_SHARE = 0.5;

  private final int datasets;
  private final double zipf;
  private final double sizeAlpha;
  private final int maxDatasetBlocks;
  private final double jobsPerHour;
  private final long blockBytes;
  private final int hugePaths;
  private final int hugePathBlocks;
  private final int hugePathReads;
  private final int sliceBlocks;
  private final double onceShare;

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
    this(datasets, zipf, sizeAlpha, maxDatasetBlocks, jobsPerHour, blockBytes, 0, 1, 0, 1, 0);
  }

  private SyntheticTrace(int datasets, double zipf, double sizeAlpha, int maxDatasetBlocks,
      double jobsPerHour, long blockBytes, int hugePaths, int hugePathBlocks, int hugePathReads,
      int sliceBlocks, double onceShare) {
    if (hugePaths < 0 || hugePathBlocks < 1 || hugePathReads < 0 || sliceBlocks < 1
        || sliceBlocks > hugePathBlocks || !(onceShare >= 0 && onceShare < 1)) {
      throw new IllegalArgumentException("A synthetic trace needs huge paths >= 0 of at least 1 "
          + "block, reads per huge path >= 0, a slice of 1 to a huge path's blocks and a share "
          + "of once-read jobs in [0, 1); got " + hugePaths + ", " + hugePathBlocks + ", "
          + hugePathReads + ", " + sliceBlocks + ", " + onceShare);
    }
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
    this.hugePaths = hugePaths;
    this.hugePathBlocks = hugePathBlocks;
    this.hugePathReads = hugePathReads;
    this.sliceBlocks = sliceBlocks;
    this.onceShare = onceShare;
  }

  /**
   * This generator with {@code hugePaths} paths of {@code hugePathBlocks} blocks, each read by
   * {@code hugePathReads} jobs reading its first 1 to {@code sliceBlocks} blocks, and a share
   * {@code onceShare} of the other jobs reading a path of their own.
   */
  public SyntheticTrace withPaths(int hugePaths, int hugePathBlocks, int hugePathReads,
      int sliceBlocks, double onceShare) {
    return new SyntheticTrace(datasets, zipf, sizeAlpha, maxDatasetBlocks, jobsPerHour,
        blockBytes, hugePaths, hugePathBlocks, hugePathReads, sliceBlocks, onceShare);
  }

  /** The generator with every default, its catalog sized for {@code jobs} jobs. */
  static SyntheticTrace defaults(int jobs, long blockBytes) {
    return new SyntheticTrace(catalogFor(jobs), DEFAULT_ZIPF, DEFAULT_SIZE_ALPHA,
        DEFAULT_MAX_DATASET_BLOCKS, DEFAULT_JOBS_PER_HOUR, blockBytes)
        .withPaths(DEFAULT_HUGE_PATHS, DEFAULT_HUGE_PATH_BLOCKS, DEFAULT_HUGE_PATH_READS,
            DEFAULT_SLICE_BLOCKS, DEFAULT_ONCE_SHARE);
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
      sizes[d] = paretoBlocks(r);
    }
    double[] cdf = new double[datasets];
    double acc = 0;
    for (int d = 0; d < datasets; d++) {
      acc += Math.pow(d + 1, -zipf);
      cdf[d] = acc;
    }
    // The huge paths' reads sit at evenly spaced jobs, taken in turn by the paths.
    int hugeJobs = Math.min(jobs, hugePaths * hugePathReads);
    List<SimJob> out = new ArrayList<>(jobs);
    int hugeSeen = 0;
    for (int j = 0; j < jobs; j++) {
      if (hugeSeen < hugeJobs && j == (int) ((hugeSeen + 0.5) * jobs / hugeJobs)) {
        int slice = 1 + r.nextInt(sliceBlocks);
        long bytes = slice * blockBytes;
        out.add(new SimJob("job" + j, "synthetic", "/synthetic/huge" + hugeSeen % hugePaths,
            slice, hugePathBlocks, bytes, bytes / 10, bytes / 100, null, 0));
        hugeSeen++;
        continue;
      }
      if (onceShare > 0 && r.nextDouble() < onceShare) {
        int size = paretoBlocks(r);
        long bytes = size * blockBytes;
        out.add(new SimJob("job" + j, "synthetic", "/synthetic/once" + j, size, bytes,
            bytes / 10, bytes / 100, null, 0));
        continue;
      }
      int i = Arrays.binarySearch(cdf, r.nextDouble() * acc);
      int d = Math.min(datasets - 1, i >= 0 ? i : -i - 1);
      long bytes = sizes[d] * blockBytes;
      out.add(new SimJob("job" + j, "synthetic", "/synthetic/d" + d, sizes[d], bytes,
          bytes / 10, bytes / 100, null, 0));
    }
    return out;
  }

  /** A dataset size: the inverse transform of the Pareto law, cut at the largest dataset. */
  private int paretoBlocks(Random r) {
    double x = Math.pow(1 - r.nextDouble(), -1 / sizeAlpha);
    return (int) Math.min(maxDatasetBlocks, Math.floor(x));
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
    /** The share of the paths read that exactly one job reads. */
    double pathsReadOnce;
    /** Jobs reading at most a tenth of their path, and the largest number of them on one path. */
    int sliceJobs;
    int mostSliceReadsOfOnePath;
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
    Map<String, Integer> sliceReads = new HashMap<>();
    long[] bytes = new long[n];
    long total = 0;
    int small = 0;
    int recent = 0;
    for (int j = 0; j < n; j++) {
      SimJob job = trace.get(j);
      reads.merge(job.dataset, 1, Integer::sum);
      sizes.merge(job.dataset, job.blocks, Math::max);
      p.largestDatasetBlocks = Math.max(p.largestDatasetBlocks, job.datasetBlocks);
      if (job.blocks * 10L <= job.datasetBlocks) {
        p.sliceJobs++;
        p.mostSliceReadsOfOnePath = Math.max(p.mostSliceReadsOfOnePath,
            sliceReads.merge(job.dataset, 1, Integer::sum));
      }
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
    }
    int singly = 0;
    for (SimJob job : trace) {
      singly += reads.get(job.dataset) == 1 ? 1 : 0;
    }
    int once = 0;
    for (int c : reads.values()) {
      once += c == 1 ? 1 : 0;
    }
    p.pathsReadOnce = once / (double) reads.size();
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
