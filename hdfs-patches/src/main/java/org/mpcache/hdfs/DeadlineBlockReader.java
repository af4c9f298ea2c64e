package org.mpcache.hdfs;

import java.io.IOException;

/**
 * A reader whose reads run on a {@link Deadline}: one that takes the block over its budget
 * throws {@link DeadlineExceededException}, as Alluxio's {@code TimeBoundPageStore} bounds the
 * store it wraps. Wraps the transports that wait for the slave (stream, RPC); a block file read
 * through its descriptor does not, nor do reads of bytes the reader holds already.
 *
 * <p>As thread-safe as the reader it wraps.
 */
final class DeadlineBlockReader extends ForwardingBlockReader {
  private final Deadline deadline;

  DeadlineBlockReader(BlockReader inner, Deadline deadline) {
    super(inner);
    this.deadline = deadline;
  }

  @Override
  public int read(long blockOff, byte[] b, int off, int len) throws IOException {
    if (inner.holds(blockOff)) {
      return inner.read(blockOff, b, off, len);
    }
    return deadline.call(() -> inner.read(blockOff, b, off, len));
  }
}
