package org.mpcache.hdfs;

import java.io.IOException;
import org.mpcache.common.proto.ClientSlaveProtos.ReportCorruptRequestProto;
import org.mpcache.common.protocolPB.RpcSupport;

/**
 * A reader that never fails its caller, as Alluxio's {@code NoExceptionCacheManager} wraps its
 * cache: a fault of the reader it wraps is classified ({@link FallbackCause}), counted and logged
 * once per cause, a checksum mismatch reported to the slave so that it verifies and drops the
 * block, a slave that itself failed left alone by the whole client for a while; then
 * {@link #read} answers -1 and the caller reads the rest of the block from HDFS. The same
 * handling serves a failed lookup ({@link #fallBack}).
 *
 * <p>Thread-safe when the reader it wraps is.
 */
final class FailOpenBlockReader extends ForwardingBlockReader {
  private final BlockTarget target;
  private final SlaveDirectory directory;
  /** Why the block left the cache; null while it reads from it. */
  private volatile FallbackCause failure;

  FailOpenBlockReader(BlockReader inner, BlockTarget target, SlaveDirectory directory) {
    super(inner);
    this.target = target;
    this.directory = directory;
  }

  /** Verified bytes as the reader it wraps reads them; -1 once it has faulted. */
  @Override
  public int read(long blockOff, byte[] b, int off, int len) {
    if (failure != null) {
      return -1;
    }
    try {
      return inner.read(blockOff, b, off, len);
    } catch (IOException e) {
      failure = fallBack(directory, target, e);
      return -1;
    }
  }

  /** Why reads of the block went to HDFS; null while they come from the cache. */
  FallbackCause failure() {
    return failure;
  }

  /**
   * Handles a fault of a call to {@code t}'s slave: reports a checksum mismatch to the slave,
   * leaves a slave that itself failed alone for the retry interval, counts and logs the
   * fallback.
   */
  static FallbackCause fallBack(SlaveDirectory directory, BlockTarget t, IOException e) {
    FallbackCause cause = FallbackCause.of(e);
    if (cause == FallbackCause.CHECKSUM_MISMATCH) {
      try {
        RpcSupport.call(() -> t.slave().proxy().reportCorrupt(null, ReportCorruptRequestProto
            .newBuilder().setBlock(t.access().getBlock()).setReason(e.getMessage())
            .setBlockToken(t.token()).build()));
      } catch (IOException ignored) {
        // The slave verifies the block again when a client next reports it.
      }
    }
    if (cause.slaveFault()) {
      directory.markFaulty(t.slave().id());
    }
    ClientCounters.get().fallback(cause, t.describe() + ": " + e.getMessage(), e);
    return cause;
  }
}
