package org.mpcache.hdfs;

import java.io.IOException;
import java.util.concurrent.Future;
import javax.annotation.concurrent.GuardedBy;
import org.apache.hadoop.fs.ChecksumException;

/**
 * A reader that moves to the next transport when its own faults: a block file whose descriptor
 * fails goes on through the slave's block stream or RPC, a block stream that fails through the
 * RPC ({@link BlockReaderFactory} picks which). A checksum mismatch, a deadline or a fault of the
 * RPC is not the transport's alone: it is thrown, for {@link FailOpenBlockReader} to fall back
 * to HDFS. Each transport's first fault in the JVM is logged at WARN, later ones at DEBUG.
 *
 * <p>Thread-safe: positional readers share it; the transport is replaced under its monitor.
 */
final class FailoverBlockReader implements BlockReader {
  private final BlockReaderFactory factory;
  private final BlockTarget target;
  private final Deadline deadline;
  private final boolean sequential;
  @GuardedBy("this")
  private BlockReader current;

  FailoverBlockReader(BlockReaderFactory factory, BlockTarget target, BlockReader first,
      Deadline deadline, boolean sequential) {
    this.factory = factory;
    this.target = target;
    this.current = first;
    this.deadline = deadline;
    this.sequential = sequential;
  }

  private synchronized BlockReader current() {
    return current;
  }

  @Override
  public int read(long blockOff, byte[] b, int off, int len) throws IOException {
    while (true) {
      BlockReader r = current();
      try {
        return r.read(blockOff, b, off, len);
      } catch (ChecksumException | DeadlineExceededException e) {
        throw e;
      } catch (IOException e) {
        if (r.transport() == Transport.RPC) {
          throw e;
        }
        failedOver(r, e);
      }
    }
  }

  /** Leaves transport {@code r}, which faulted with {@code e}, for the next one. */
  private void failedOver(BlockReader r, IOException e) {
    ClientCounters counters = ClientCounters.get();
    if (r.transport() == Transport.DESCRIPTOR) {
      counters.descriptorFault(target.describe() + ": " + e.getMessage(), e);
    } else {
      counters.streamFault(target.describe() + ": " + e.getMessage(), e);
    }
    r.release();
    synchronized (this) {
      if (current == r) {
        current = factory.after(r.transport(), target, deadline, sequential);
      }
    }
  }

  @Override
  public synchronized Transport transport() {
    return current.transport();
  }

  @Override
  public Future<?> release() {
    return current().release();
  }
}
