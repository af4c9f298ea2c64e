package org.mpcache.sim;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An offline upper bound on the jobs any cache policy can serve with their whole input cached
 * (the all-or-nothing effective hits), for a trace replayed by {@link ClusterSimulator} on a
 * cluster holding {@code capacityBlocks} blocks in all. No policy, online or offline, does
 * better; the simulator prints it beside the policies.
 *
 * <p><b>Why it bounds.</b> A block enters a slave's cache only when it is read and missed, so a job
 * {@code j} whose blocks were all cached must have had them held at every job boundary since the
 * previous job {@code i} that read its dataset (boundaries {@code i, ..., j-1}, {@code len = j - i}
 * of them), each taking a block of the cluster's capacity; a job reading a block no earlier job
 * read cannot be a hit. So the hits of any run are a set {@code S} of such jobs whose sizes, at
 * every boundary {@code m}, add up to at most the capacity over the jobs whose interval covers
 * {@code m}. Spreading each job's one hit evenly over its interval, {@code |S| = sum over m of
 * sum over j in S covering m of 1/len(j)}, and at each boundary the inner sum is at most the
 * fractional knapsack of the jobs covering {@code m} (value {@code 1/len}, weight the job's
 * blocks, capacity the cluster's): the bound is the sum of those knapsacks. An item's value per
 * block, {@code 1/(len * blocks)}, is the same at every boundary, so one pass over the jobs in
 * that order fills every boundary's knapsack greedily: O(sum of the intervals' lengths). Per-node
 * capacities and the blocks' homes are relaxed to the cluster's total, and a job reading part of
 * a dataset is charged only its own blocks over its own interval, both of which can only raise
 * the bound.
 *
 * <p>Stateless and thread-safe.
 */
final class HitBound {
  private HitBound() {
  }

  /**
   * The most jobs of {@code jobs} (in replay order) that can have their whole input cached when
   * they run, on a cluster caching {@code capacityBlocks} blocks in all. Fractional: a real run's
   * count is at most its floor.
   */
  static double wholeInputJobs(List<SimJob> jobs, long capacityBlocks) {
    int n = jobs.size();
    // The jobs that could hit: a previous job read their dataset, as far as they read it. Item k
    // needs blocks[k] blocks at boundaries from[k] .. to[k] - 1 (boundary m follows job m).
    int[] from = new int[n];
    int[] to = new int[n];
    int[] blocks = new int[n];
    int items = 0;
    Map<String, Integer> lastJob = new HashMap<>();
    Map<String, Integer> readSoFar = new HashMap<>();
    for (int j = 0; j < n; j++) {
      SimJob job = jobs.get(j);
      Integer prev = lastJob.put(job.dataset, j);
      int read = readSoFar.getOrDefault(job.dataset, 0);
      readSoFar.put(job.dataset, Math.max(read, job.blocks));
      if (prev != null && job.blocks <= read && job.blocks <= capacityBlocks) {
        from[items] = prev;
        to[items] = j;
        blocks[items] = job.blocks;
        items++;
      }
    }
    // Highest value per block first: smallest len * blocks (ties by job, for repeatability).
    long[] order = new long[items];
    for (int k = 0; k < items; k++) {
      order[k] = (long) (to[k] - from[k]) * blocks[k];
    }
    Integer[] byValue = new Integer[items];
    for (int k = 0; k < items; k++) {
      byValue[k] = k;
    }
    Arrays.sort(byValue, (x, y) -> order[x] != order[y] ? Long.compare(order[x], order[y])
        : Integer.compare(x, y));
    long[] room = new long[Math.max(0, n - 1)];
    Arrays.fill(room, capacityBlocks);
    double bound = 0;
    for (int k : byValue) {
      double perBlock = 1.0 / order[k];
      long taken = 0;
      for (int m = from[k]; m < to[k]; m++) {
        long t = Math.min(blocks[k], room[m]);
        room[m] -= t;
        taken += t;
      }
      bound += taken * perBlock;
    }
    return bound;
  }
}
