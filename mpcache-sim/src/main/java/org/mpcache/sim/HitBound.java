package org.mpcache.sim;

import java.util.ArrayDeque;
import java.util.ArrayList;
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
 * {@code j} whose blocks were all cached must have had each block {@code b} held at every job
 * boundary since the job that last read it, {@code last(b) .. j-1}; a job reading a block no
 * earlier job read cannot be a hit. So the hits of any run are a set {@code S} of such jobs whose
 * blocks, at every boundary {@code m}, add up to at most the capacity (a block held for several
 * jobs is charged to each only from its previous read, so never twice). Let {@code w_j(m)} be the
 * blocks of {@code j} held at {@code m} and {@code W_j} their sum over the boundaries (the
 * block-boundaries {@code j} occupies). Spreading each job's one hit over its boundaries in
 * proportion, {@code |S| = sum over m of sum over j in S of w_j(m)/W_j}, and at each boundary the
 * inner sum is at most the fractional knapsack of the jobs there (weight {@code w_j(m)}, value
 * {@code w_j(m)/W_j}, capacity the cluster's): the bound is the sum of those knapsacks. An item's
 * value per block, {@code 1/W_j}, is the same at every boundary, so one pass over the jobs in
 * that order fills every boundary's knapsack greedily: O(sum of the intervals' lengths). A job
 * reading more blocks than the cluster holds is left out. Per-node capacities and the blocks'
 * homes are relaxed to the cluster's total, which can only raise the bound. Where the cache holds
 * the {@link #workingSet} the bound is the {@link #ceiling}, the jobs an infinite cache serves;
 * where it is smaller, some boundary's knapsack cannot take all its jobs' blocks and the bound is
 * strictly below it. (Charging a job's blocks only from the previous job of its dataset, as an
 * earlier version did, missed blocks last read earlier than that by a job reading more of the
 * path, and could equal the ceiling with the cache below the working set.)
 *
 * <p>Stateless and thread-safe.
 */
final class HitBound {
  private HitBound() {
  }

  /**
   * A job that could hit: every block it reads was read before. Its blocks come in runs, run
   * {@code r} being {@code count[r]} blocks last read by job {@code last[r]}, {@code last}
   * ascending; each block must be held at boundaries {@code last[r] .. to - 1}.
   */
  private static final class Reread {
    final int to;
    final int blocks;
    final int[] last;
    final int[] count;
    /** The block-boundaries it occupies: the sum over its blocks of {@code to - last}. */
    final long weight;

    Reread(int to, int blocks, int[] last, int[] count) {
      this.to = to;
      this.blocks = blocks;
      this.last = last;
      this.count = count;
      long w = 0;
      for (int r = 0; r < last.length; r++) {
        w += (long) count[r] * (to - last[r]);
      }
      this.weight = w;
    }
  }

  /**
   * The jobs that could hit with an infinite cache, with the job that last read each of their
   * blocks. A job reads a prefix of its dataset, so the blocks' last readers are a stack per
   * dataset: from the top, the latest job and the shortest prefix; an entry's blocks are those
   * beyond the prefix of the entry above it.
   */
  private static List<Reread> rereads(List<SimJob> jobs) {
    List<Reread> out = new ArrayList<>();
    Map<String, ArrayDeque<int[]>> readers = new HashMap<>();
    for (int j = 0; j < jobs.size(); j++) {
      SimJob job = jobs.get(j);
      ArrayDeque<int[]> stack = readers.computeIfAbsent(job.dataset, d -> new ArrayDeque<>());
      int p = job.blocks;
      if (!stack.isEmpty() && stack.peekLast()[1] >= p) {
        int[] last = new int[stack.size()];
        int[] count = new int[stack.size()];
        int runs = 0;
        int covered = 0;
        for (int[] e : stack) {
          int upTo = Math.min(e[1], p);
          if (upTo > covered) {
            last[runs] = e[0];
            count[runs] = upTo - covered;
            runs++;
            covered = upTo;
          }
          if (covered == p) {
            break;
          }
        }
        // Runs were found latest reader first; the bound takes them oldest first.
        int[] l = new int[runs];
        int[] c = new int[runs];
        for (int r = 0; r < runs; r++) {
          l[r] = last[runs - 1 - r];
          c[r] = count[runs - 1 - r];
        }
        out.add(new Reread(j, p, l, c));
      }
      while (!stack.isEmpty() && stack.peekFirst()[1] <= p) {
        stack.pollFirst();
      }
      stack.addFirst(new int[] {j, p});
    }
    return out;
  }

  /**
   * The jobs of {@code jobs} an infinite cache would serve whole: those every block of which an
   * earlier job read. {@link #wholeInputJobs} equals it when the capacity is at least the {@link
   * #workingSet}, and is below it otherwise.
   */
  static int ceiling(List<SimJob> jobs) {
    return rereads(jobs).size();
  }

  /**
   * The most blocks that must be held at one job boundary for every job the {@link #ceiling}
   * counts to hit: at boundary {@code m}, the blocks read before it and read again, after it, by
   * such a job, each counted once (at its next read).
   */
  static long workingSet(List<SimJob> jobs) {
    long[] diff = new long[jobs.size() + 1];
    for (Reread k : rereads(jobs)) {
      for (int r = 0; r < k.last.length; r++) {
        diff[k.last[r]] += k.count[r];
        diff[k.to] -= k.count[r];
      }
    }
    long live = 0;
    long most = 0;
    for (long d : diff) {
      live += d;
      most = Math.max(most, live);
    }
    return most;
  }

  /**
   * The most jobs of {@code jobs} (in replay order) that can have their whole input cached when
   * they run, on a cluster caching {@code capacityBlocks} blocks in all. Fractional: a real run's
   * count is at most its floor.
   */
  static double wholeInputJobs(List<SimJob> jobs, long capacityBlocks) {
    List<Reread> items = new ArrayList<>();
    for (Reread k : rereads(jobs)) {
      if (k.blocks <= capacityBlocks) {
        items.add(k);
      }
    }
    // Highest value per block-boundary first: smallest weight (ties by job, for repeatability).
    items.sort((x, y) -> x.weight != y.weight ? Long.compare(x.weight, y.weight)
        : Integer.compare(x.to, y.to));
    long[] room = new long[Math.max(0, jobs.size() - 1)];
    Arrays.fill(room, capacityBlocks);
    double bound = 0;
    for (Reread k : items) {
      long taken = 0;
      long held = 0;
      int r = 0;
      for (int m = k.last[0]; m < k.to; m++) {
        while (r < k.last.length && k.last[r] <= m) {
          held += k.count[r++];
        }
        long t = Math.min(held, room[m]);
        room[m] -= t;
        taken += t;
      }
      bound += (double) taken / k.weight;
    }
    return bound;
  }
}
