package org.mpcache.e2e;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractUnbufferTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Hadoop's unbuffer contract, run through mpCache's hdfs:// FileSystem on files read once before,
 * so the streams that are unbuffered and read again are served from the slaves' caches.
 */
class MpCacheContractWarmUnbufferTest extends AbstractContractUnbufferTest {

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
    return new MpCacheContract(conf, true);
  }
}
