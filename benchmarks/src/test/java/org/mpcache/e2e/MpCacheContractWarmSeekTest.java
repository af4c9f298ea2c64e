package org.mpcache.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractSeekTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Hadoop's seek contract, run through mpCache's hdfs:// FileSystem with every file read once
 * before the test opens it, so the test's reads are served from the slaves' caches.
 */
class MpCacheContractWarmSeekTest extends AbstractContractSeekTest {

  @BeforeAll
  static void createCluster() throws IOException {
    MpCacheContract.createCluster();
  }

  @AfterAll
  static void destroyCluster() {
    long fromCache = MpCacheContract.bytesFromCache();
    MpCacheContract.destroyCluster();
    assertTrue(fromCache > 0, "the contract read nothing from the cache");
  }

  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new MpCacheContract(conf, true);
  }
}
