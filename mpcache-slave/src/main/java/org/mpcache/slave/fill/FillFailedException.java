package org.mpcache.slave.fill;

import java.io.IOException;
import java.io.InterruptedIOException;
import org.mpcache.slave.cache.FillFailure;

/**
 * A fill's I/O error with the step it failed at ({@link FillFailure}), so that the filler counts
 * it by cause. Immutable.
 */
final class FillFailedException extends IOException {
  private static final long serialVersionUID = 1L;

  private final FillFailure failure;

  FillFailedException(FillFailure failure, IOException cause) {
    super(failure + ": " + cause.getMessage(), cause);
    this.failure = failure;
  }

  /** The cause of a fill that threw {@code e}. */
  static FillFailure of(Exception e) {
    if (e instanceof FillFailedException f) {
      return f.failure;
    }
    if (e instanceof InterruptedIOException) {
      return FillFailure.STOPPED;
    }
    return e instanceof IOException ? FillFailure.HDFS_READ_FAILED : FillFailure.INTERNAL_ERROR;
  }
}
