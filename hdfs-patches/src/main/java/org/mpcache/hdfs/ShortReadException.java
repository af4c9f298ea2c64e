package org.mpcache.hdfs;

import java.io.EOFException;

/**
 * A slave answered a cached read with fewer bytes than the block holds at the requested offset:
 * its copy is truncated or it misbehaves. The reader falls back to HDFS.
 */
final class ShortReadException extends EOFException {
  private static final long serialVersionUID = 1L;

  ShortReadException(String message) {
    super(message);
  }
}
