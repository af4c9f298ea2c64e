package org.mpcache.e2e;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractUnbufferTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Hadoop's unbuffer contract, run through mpCache's hdfs:// FileSystem on files read once before,
 * so the streams that are unbuffered and read again are served from the slaves' caches.
 */
class MpCacheContractWarmUnbufferTest extends AbstractContractUnbufferTest {
  @RegisterExtension
  static final MpCacheContractCluster CLUSTER = MpCacheContractCluster.warm();

  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return CLUSTER.contract(conf);
  }
}
