package org.mpcache.slave.cache;

/**
 * Why a fill the slave was to carry out for a reader's miss did not cache its block: counted per
 * cause ({@code FillsBySlaveFailed<Cause>}) and logged at WARN the first time each cause is seen.
 * A fill that finds its block cached, not admitted or no longer the file's is not a failure: the
 * slave decided not to cache it.
 */
public enum FillFailure {
  /** The queue of readers' fills ({@code mpcache.slave.fill.queue}) was full; nothing queued. */
  QUEUE_FULL,
  /** The NameNode could not be asked whether the block is the file's (its admission's check). */
  FILE_UNCHECKED,
  /** The master could not be asked for the block's admission. */
  MASTER_UNREACHABLE,
  /** The SSD failed: space could not be set up, or the block or its checksums written. */
  SSD_ERROR,
  /** Opening or reading the block's file from HDFS failed. */
  HDFS_READ_FAILED,
  /** The slave stopped while the fill waited or read. */
  STOPPED,
  /** A defect: an unexpected runtime exception in the fill. */
  INTERNAL_ERROR;

  /**
   * The failure behind an admission that failed on an I/O error with {@code refusal}
   * ({@link FillAdmission.Result#error}).
   *
   * @throws IllegalArgumentException for a refusal no I/O error comes with
   */
  public static FillFailure of(MissReason refusal) {
    return switch (refusal) {
      case FILE_UNCHECKED -> FILE_UNCHECKED;
      case MASTER_UNREACHABLE -> MASTER_UNREACHABLE;
      case SSD_ERROR -> SSD_ERROR;
      default -> throw new IllegalArgumentException(refusal + " is a refusal, not a failure");
    };
  }
}
