package org.mpcache.e2e;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractSeekTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Hadoop's seek contract, run through mpCache's hdfs:// FileSystem with every file read once
 * before the test opens it, so the test's reads are served from the slaves' caches.
 */
class MpCacheContractWarmSeekTest extends AbstractContractSeekTest {
  @RegisterExtension
  static final MpCacheContractCluster CLUSTER = MpCacheContractCluster.warmServingFromCache();

  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return CLUSTER.contract(conf);
  }
}
