package org.mpcache.e2e;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractSeekTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Hadoop's seek contract, run through mpCache's hdfs:// FileSystem on files it has not cached yet
 * (reads come from HDFS and fill the cache).
 */
class MpCacheContractSeekTest extends AbstractContractSeekTest {

  @BeforeAll
  static void createCluster() throws IOException {
    MpCacheContract.createCluster();
  }

  @AfterAll
  static void destroyCluster() {
    MpCacheContract.destroyCluster();
  }

  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new MpCacheContract(conf, false);
  }
}
