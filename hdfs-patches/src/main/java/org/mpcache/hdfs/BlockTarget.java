package org.mpcache.hdfs;

import java.io.IOException;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.ClientSlaveProtos.LookupRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.LookupResponseProto;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.protocolPB.RpcSupport;

/**
 * A block as calls to its slave name it: the slave chosen for it, its key, the reader's access
 * (dataset, job), its encoded block token (empty when HDFS issued none) and its length; and the
 * lookup of it.
 *
 * <p>Immutable.
 */
record BlockTarget(SlaveDirectory.Slave slave, BlockKey key, BlockAccessProto access,
    String token, long length) {

  /** Sends lookup {@code req} of this block to its slave. */
  LookupResponseProto lookup(LookupRequestProto req) throws IOException {
    ClientCounters.get().lookup();
    return RpcSupport.call(() -> slave.proxy().lookup(null, req));
  }

  /** Whether {@code r} says the slave caches this block, all of it. */
  boolean hitBy(LookupResponseProto r) {
    return r.getStatus() == LookupResponseProto.Status.HIT && r.getLength() == length;
  }

  /** For messages: the block and its slave. */
  String describe() {
    return key + " from slave " + slave.id();
  }
}
