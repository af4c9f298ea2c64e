package org.mpcache.hdfs;

import java.util.concurrent.Future;

/**
 * A decorator of a {@link BlockReader} that passes everything but its reads on to the reader it
 * wraps ({@link DeadlineBlockReader}, {@link FailOpenBlockReader}).
 *
 * <p>As thread-safe as the reader it wraps and the subclass's reads.
 */
abstract class ForwardingBlockReader implements BlockReader {
  protected final BlockReader inner;

  ForwardingBlockReader(BlockReader inner) {
    this.inner = inner;
  }

  @Override
  public Transport transport() {
    return inner.transport();
  }

  @Override
  public boolean holds(long blockOff) {
    return inner.holds(blockOff);
  }

  @Override
  public Future<?> release() {
    return inner.release();
  }
}
