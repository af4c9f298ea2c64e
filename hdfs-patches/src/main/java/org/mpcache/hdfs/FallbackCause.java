package org.mpcache.hdfs;

import java.util.concurrent.CompletionException;
import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.ipc.RemoteException;
import org.mpcache.common.proto.ClientSlaveProtos.FallbackCauseProto;

/**
 * Why the cache gave up a read and HDFS served it instead: what the client counts
 * ({@link ClientCounters#fallbacks}, one metric each) and names in a block's read report. Each
 * cause says whether it is a fault of the slave itself (not reachable, not answering in time),
 * the only kind after which the whole client leaves that slave alone for
 * {@code mpcache.client.slave.retry.ms}: an answer the slave gave, even a refusal (an expired
 * token, an over-long dataset id), shows the slave is alive.
 *
 * <p>Immutable, hence thread-safe.
 */
public enum FallbackCause {
  /** A chunk did not match the checksum the slave stored; the block is reported to the slave. */
  CHECKSUM_MISMATCH("checksum-mismatch", false),
  /** The slave's answer did not cover the bytes asked for. */
  SHORT_READ("short-read", false),
  /** The slave answered with an error: the block is gone, or the request was refused. */
  SLAVE_ERROR("slave-error", false),
  /** The block's calls to the slave took longer together than the cache deadline. */
  DEADLINE_EXCEEDED("deadline-exceeded", true),
  /** The slave could not be reached, or the connection failed without an answer. */
  SLAVE_UNREACHABLE("slave-unreachable", true),
  /** The reader asked for another source of the bytes ({@code seekToNewSource}). */
  NEW_SOURCE_REQUESTED("new-source-requested", false),
  /** The master could not be asked for the slaves: reads go to HDFS until it answers. */
  MASTER_UNREACHABLE("master-unreachable", false);

  private final String wireName;
  private final boolean slaveFault;

  FallbackCause(String wireName, boolean slaveFault) {
    this.wireName = wireName;
    this.slaveFault = slaveFault;
  }

  /** The name metrics and logs show. */
  public String wireName() {
    return wireName;
  }

  /**
   * The cause as read reports carry it: the one place the client maps its causes to the wire's
   * (a cause added here fails to compile until it has its value in {@code ClientSlaveProtocol}).
   */
  FallbackCauseProto toProto() {
    return switch (this) {
      case CHECKSUM_MISMATCH -> FallbackCauseProto.CHECKSUM_MISMATCH;
      case SHORT_READ -> FallbackCauseProto.SHORT_READ;
      case SLAVE_ERROR -> FallbackCauseProto.SLAVE_ERROR;
      case DEADLINE_EXCEEDED -> FallbackCauseProto.DEADLINE_EXCEEDED;
      case SLAVE_UNREACHABLE -> FallbackCauseProto.SLAVE_UNREACHABLE;
      case NEW_SOURCE_REQUESTED -> FallbackCauseProto.NEW_SOURCE_REQUESTED;
      case MASTER_UNREACHABLE -> FallbackCauseProto.MASTER_UNREACHABLE;
    };
  }

  /** Whether the slave itself failed, so that the client leaves it alone for a while. */
  public boolean slaveFault() {
    return slaveFault;
  }

  /**
   * The cause of a call to a slave that threw {@code e}: an answer of the slave (a
   * {@link RemoteException} anywhere in the chain) is the slave's error, never its fault. A
   * call made off the reader's thread comes wrapped in a {@link CompletionException}.
   */
  static FallbackCause of(Throwable e) {
    if (e instanceof CompletionException && e.getCause() != null) {
      return of(e.getCause());
    }
    if (e instanceof ChecksumException) {
      return CHECKSUM_MISMATCH;
    }
    if (e instanceof ShortReadException) {
      return SHORT_READ;
    }
    if (e instanceof DeadlineExceededException) {
      return DEADLINE_EXCEEDED;
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof RemoteException) {
        return SLAVE_ERROR;
      }
    }
    return SLAVE_UNREACHABLE;
  }
}
