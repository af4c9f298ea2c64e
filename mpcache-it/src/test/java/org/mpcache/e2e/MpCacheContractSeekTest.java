package org.mpcache.e2e;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractSeekTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Hadoop's seek contract, run through mpCache's hdfs:// FileSystem on files it has not cached yet
 * (reads come from HDFS and fill the cache).
 */
class MpCacheContractSeekTest extends AbstractContractSeekTest {
  @RegisterExtension
  static final MpCacheContractCluster CLUSTER = MpCacheContractCluster.cold();

  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return CLUSTER.contract(conf);
  }
}
