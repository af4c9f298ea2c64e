package org.mpcache.hdfs;

import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;

/**
 * A block as calls to its slave name it: the slave chosen for it, its key, the reader's access
 * (dataset, job), its encoded block token (empty when HDFS issued none) and its length.
 *
 * <p>Immutable.
 */
record BlockTarget(SlaveDirectory.Slave slave, BlockKey key, BlockAccessProto access,
    String token, long length) {

  /** For messages: the block and its slave. */
  String describe() {
    return key + " from slave " + slave.id;
  }
}
