package org.mpcache.e2e;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractCreateTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Hadoop's create contract, run through mpCache's hdfs:// FileSystem: files it writes are HDFS's
 * own, {@code hflush} and {@code hsync} included ({@code testSyncable}), and read back through
 * the cache.
 */
class MpCacheContractCreateTest extends AbstractContractCreateTest {
  @RegisterExtension
  static final MpCacheContractCluster CLUSTER = MpCacheContractCluster.cold();

  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return CLUSTER.contract(conf);
  }
}
