package org.mpcache.benchmarks.eval;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * How much of a mix's input an input cache could serve: the bytes the jobs read, the bytes that
 * re-read a dataset an earlier job of the mix already read, and the working set (each distinct
 * dataset once). Counts one read of its dataset per job: k-means' later iterations re-read its
 * input too and are not counted, so the re-read share errs low for mixes with k-means.
 *
 * @param datasets distinct datasets the mix reads
 * @param inputBytes bytes all jobs read
 * @param reReadBytes bytes of jobs whose dataset an earlier job read
 * @param workingSetBytes the distinct datasets' bytes
 */
public record MixReuse(int datasets, long inputBytes, long reReadBytes, long workingSetBytes) {

  /** The figures of {@code mix}. */
  public static MixReuse of(List<MixJob> mix) {
    Set<String> seen = new HashSet<>();
    long input = 0;
    long reRead = 0;
    long workingSet = 0;
    for (MixJob j : mix) {
      input += j.bytes();
      if (seen.add(j.dataset())) {
        workingSet += j.bytes();
      } else {
        reRead += j.bytes();
      }
    }
    return new MixReuse(seen.size(), input, reRead, workingSet);
  }

  /** The share of input bytes that are re-reads, from 0 to 1. */
  public double reReadShare() {
    return inputBytes == 0 ? 0 : (double) reReadBytes / inputBytes;
  }
}
