package org.mpcache.benchmarks.eval;

import java.util.List;
import java.util.Locale;

/**
 * What one job of the mix did in one mode. Times come from the harness's clock, the jobs' status
 * and their task reports; bytes from the
 * jobs' file-system counters and the mpCache slaves' counters (deltas over the job).
 *
 * @param mode the mode's name
 * @param cacheMbPerNode the input cache size per node in this run (0 without a cache)
 * @param repetition which repetition of the mix in this run, from 1 (each on a fresh cluster)
 * @param index the job's position in the mix
 * @param benchmark the PUMA benchmark
 * @param k the input size class
 * @param dataset the dataset the job read
 * @param inputBytes the dataset's size
 * @param success whether every MapReduce job of the benchmark succeeded
 * @param seconds submission to completion as the harness saw it (a completion poll of 100 ms),
 *     summed over the benchmark's MapReduce jobs: what the job's user waits
 * @param jobSeconds the jobs' own start to finish (the application master's clock, as the job
 *     status reports it), summed: the submission and the application master's launch left out
 * @param mapSeconds first map start to last map end, summed over the MapReduce jobs
 * @param reduceSeconds last map end to last reduce end, summed over the MapReduce jobs
 * @param mapCpuSeconds the map tasks' CPU time (their {@code CPU_MILLISECONDS} counters, which
 *     count the task JVMs' user and system time), summed over the MapReduce jobs
 * @param daemonCpuSeconds the CPU time of the process running every daemon of the embedded
 *     cluster (NameNode, DataNodes, ResourceManager, NodeManagers, mpCache's master and slaves),
 *     over the job
 * @param maps the map tasks launched ({@code TOTAL_LAUNCHED_MAPS}), summed over the MapReduce jobs
 * @param dataLocalMaps those of them that ran on a host their split named ({@code DATA_LOCAL_MAPS}):
 *     with a cache, the host that holds the block's cached copy when the client reports one
 * @param hdfsBytesRead the jobs' HDFS_BYTES_READ (bytes served by the cache included)
 * @param cacheBytes bytes the slaves served from the input cache (whole read-ahead chunks, so it
 *     can exceed what the job consumed)
 * @param missBytes bytes the cache's clients read from HDFS on a miss (0 without a cache)
 * @param inputTier where HDFS blocks live in this mode ({@code hdd} or {@code ssd})
 * @param cacheTier where the input cache lives ({@code ssd}, {@code memory} or {@code none})
 * @param localBytes bytes of local data (spills, map outputs, merges) read and written
 * @param localTier where the NodeManagers' local dirs live ({@code hdd}, {@code ssd}, or
 *     {@code ssd+hdd} where the Localized Cache puts each file on the SSD while it grants room)
 * @param localSsdGranted localized bytes tasks asked the Localized Cache for and were granted on
 *     the SSD (requests, which err high; 0 without a Localized Cache)
 * @param localSsdDenied localized bytes tasks asked for and were sent to the HDD dirs
 * @param blockHits block lookups the cache answered
 * @param blockMisses block lookups the cache missed
 */
public record JobResult(String mode, long cacheMbPerNode, int repetition, int index,
    String benchmark, int k, String dataset, long inputBytes, boolean success, double seconds, double jobSeconds, double mapSeconds,
    double reduceSeconds, double mapCpuSeconds, double daemonCpuSeconds, long maps,
    long dataLocalMaps, long hdfsBytesRead, long cacheBytes, long missBytes, String inputTier,
    String cacheTier, long localBytes, String localTier, long localSsdGranted,
    long localSsdDenied, long blockHits, long blockMisses) {

  /** The CSV header matching {@link #csvRow()}. */
  public static final List<String> COLUMNS = List.of("mode", "cache_mb_per_node", "repetition",
      "job", "benchmark", "k", "dataset", "input_bytes", "success", "seconds", "job_seconds", "map_seconds", "reduce_seconds",
      "map_cpu_seconds", "daemon_cpu_seconds", "maps", "data_local_maps", "hdfs_bytes_read", "cache_bytes", "miss_bytes", "input_tier_bytes", "input_tier", "cache_tier",
      "local_bytes", "local_tier", "local_ssd_granted_bytes", "local_ssd_denied_bytes",
      "byte_hit_ratio", "block_hits", "block_misses");

  /**
   * Bytes read from the tier holding HDFS blocks: the misses with a cache, every HDFS byte
   * without one.
   */
  public long inputTierBytes() {
    return cacheTier.equals("none") ? hdfsBytesRead : missBytes;
  }

  /** The cache's share of the bytes read through it; 0 without a cache. */
  public double byteHitRatio() {
    long through = cacheBytes + missBytes;
    return through == 0 ? 0 : (double) cacheBytes / through;
  }

  /** The run this job belongs to: the mode, and its cache size when it has one. */
  public String run() {
    return runName(mode, cacheMbPerNode);
  }

  /** A run's name: {@code mode}, or {@code mode-<cacheMb>mb} for a caching mode. */
  static String runName(String mode, long cacheMbPerNode) {
    return cacheMbPerNode == 0 ? mode : mode + "-" + cacheMbPerNode + "mb";
  }

  /** The values in {@link #COLUMNS} order, unquoted (no value holds a comma). */
  public List<String> csvRow() {
    return List.of(mode, Long.toString(cacheMbPerNode), Integer.toString(repetition),
        Integer.toString(index), benchmark,
        Integer.toString(k), dataset, Long.toString(inputBytes), Boolean.toString(success),
        fmt(seconds), fmt(jobSeconds), fmt(mapSeconds), fmt(reduceSeconds), fmt(mapCpuSeconds), fmt(daemonCpuSeconds),
        Long.toString(maps), Long.toString(dataLocalMaps), Long.toString(hdfsBytesRead),
        Long.toString(cacheBytes), Long.toString(missBytes), Long.toString(inputTierBytes()), inputTier, cacheTier,
        Long.toString(localBytes), localTier, Long.toString(localSsdGranted),
        Long.toString(localSsdDenied), String.format(Locale.ROOT, "%.4f", byteHitRatio()),
        Long.toString(blockHits), Long.toString(blockMisses));
  }

  static String fmt(double seconds) {
    return String.format(Locale.ROOT, "%.3f", seconds);
  }
}
