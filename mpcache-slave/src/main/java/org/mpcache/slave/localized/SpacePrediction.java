package org.mpcache.slave.localized;

import java.util.Objects;
import org.mpcache.common.protocolPB.LocalizedJob;

/**
 * The localized need a job is expected to have on this node, as the master's Dynamic Space Manager
 * predicts it from the peaks earlier jobs of its type and input size held (mpCache paper, Section
 * 2), or the cold-start default when it has no history of the job type. Immutable and thread-safe.
 *
 * @param job the job's type and input size
 * @param localizedBytes the predicted peak localized bytes on this node; for the cold-start
 *     default, the Localized Cache's own capacity, which is what such a job starts with
 * @param fromHistory whether the prediction comes from the history; false: the cold-start default
 */
public record SpacePrediction(LocalizedJob job, long localizedBytes, boolean fromHistory) {

  public SpacePrediction {
    Objects.requireNonNull(job, "job");
    if (localizedBytes < 0) {
      throw new IllegalArgumentException("Predicted localized bytes must not be negative: "
          + localizedBytes + " (job type " + job.jobType() + ")");
    }
  }
}
