package org.mpcache.hdfs;

import java.io.IOException;

/**
 * The calls to a block's slave took longer together than the cache deadline
 * ({@code mpcache.client.cache.deadline.ms}): the slave is left alone and the rest of the block
 * is read from HDFS.
 */
final class DeadlineExceededException extends IOException {
  private static final long serialVersionUID = 1L;

  DeadlineExceededException(String message) {
    super(message);
  }
}
