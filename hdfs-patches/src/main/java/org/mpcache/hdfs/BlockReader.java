package org.mpcache.hdfs;

import java.io.IOException;
import java.util.concurrent.Future;

/**
 * One cached block's bytes from its slave through one transport ({@link Transport}), every byte
 * verified against the checksum the slave stored before it is returned. The stream above knows
 * positions and blocks, not transports: {@link BlockReaderFactory} picks the transport, and
 * decorators add deadlines ({@link DeadlineBlockReader}), failing over to the next transport
 * ({@link FailoverBlockReader}) and falling back to HDFS ({@link FailOpenBlockReader}), as
 * HDFS's client has one {@code BlockReader} interface built by one {@code BlockReaderFactory}.
 *
 * <p>Implementations say their thread-safety: a sequential reader's is used by one thread at a
 * time, a positional reader's by many.
 */
interface BlockReader {
  /** The ways a cached block is read, in the order they are tried. */
  enum Transport {
    /** The block's file, through a descriptor the slave on this host passed. */
    DESCRIPTOR,
    /** The slave's block stream: one TCP connection per block. */
    STREAM,
    /** The slave's {@code read} RPC. */
    RPC
  }

  /**
   * Reads verified bytes of the block from {@code blockOff} into {@code b[off, off + len)}.
   *
   * @return how many, at least 1 ({@code blockOff} is inside the block and {@code len > 0});
   *     {@link FailOpenBlockReader} returns -1 instead of throwing
   * @throws IOException on any fault: the transport's, a checksum mismatch, a deadline
   */
  int read(long blockOff, byte[] b, int off, int len) throws IOException;

  Transport transport();

  /**
   * Whether a read at {@code blockOff} is served from bytes the reader holds already, without
   * waiting for the slave: such reads do not count against a {@link Deadline}.
   */
  default boolean holds(long blockOff) {
    return false;
  }

  /**
   * Stops reading, without waiting for the slave; the future is done once the slave has settled
   * its hold on the block. Idempotent.
   */
  Future<?> release();
}
