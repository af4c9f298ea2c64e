package org.mpcache.common.protocolPB;

import java.util.Objects;

/**
 * What a task tells the slave about its job when it asks for Localized Cache room: the job's type and
 * the size of its whole input, the two keys of the master's Dynamic Space Manager history (mpCache
 * paper, Section 2.1). Immutable and thread-safe.
 *
 * @param jobType the job's type (its name, unless the job sets {@code mpcache.localized.job.type});
 *     empty when unknown
 * @param inputBytes the bytes of the job's whole input; negative when unknown
 */
public record LocalizedJob(String jobType, long inputBytes) {

  /** A job the task could not describe: its usage is not recorded in the history. */
  public static final LocalizedJob UNKNOWN = new LocalizedJob("", -1);

  public LocalizedJob {
    Objects.requireNonNull(jobType, "jobType");
  }

  /** Whether both the type and the input size are known, so the job's usage can be recorded. */
  public boolean isKnown() {
    return !jobType.isEmpty() && inputBytes >= 0;
  }
}
