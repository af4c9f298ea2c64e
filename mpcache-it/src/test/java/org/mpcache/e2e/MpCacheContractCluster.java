package org.mpcache.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.mpcache.minicluster.MiniMpCacheCluster;
import org.mpcache.slave.SlaveConfigKeys;

/**
 * The embedded cluster (HDFS, a master, two slaves) behind one of Hadoop's FileSystem contract
 * test classes: registered as a static {@code @RegisterExtension} field, it starts the cluster
 * before the class's tests and stops it after them, and makes the {@link MpCacheContract} that the
 * class's {@code createContract} returns. Small blocks make the contract's files span several
 * cached blocks. A warm cluster reads every file once before a test opens it; one that also
 * {@linkplain #warmServingFromCache() must serve from the cache} fails the class if its tests
 * read no byte from a slave's cache.
 *
 * <p>Thread-safety: JUnit calls the callbacks of one test class in turn; not for concurrent use.
 */
final class MpCacheContractCluster implements BeforeAllCallback, AfterAllCallback {
  private final boolean warm;
  private final boolean mustServeFromCache;
  private MiniMpCacheCluster cluster;

  private MpCacheContractCluster(boolean warm, boolean mustServeFromCache) {
    this.warm = warm;
    this.mustServeFromCache = mustServeFromCache;
  }

  /** Tests read files the cache has not seen yet: reads come from HDFS and fill the cache. */
  static MpCacheContractCluster cold() {
    return new MpCacheContractCluster(false, false);
  }

  /** Every file is read once before a test opens it. */
  static MpCacheContractCluster warm() {
    return new MpCacheContractCluster(true, false);
  }

  /** As {@link #warm()}, and the class fails unless its tests read bytes from the cache. */
  static MpCacheContractCluster warmServingFromCache() {
    return new MpCacheContractCluster(true, true);
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    // One directory per test class: classes run in parallel forks.
    cluster = new MiniMpCacheCluster.Builder(
            new File("target/e2e/contract", context.getRequiredTestClass().getSimpleName()))
        .blockSize(64 * 1024)
        .set("dfs.namenode.fs-limits.min-block-size", "1024")
        // Fills start at once: a warm test opens a file right after its warming read, with no
        // pause for the misses on it to go quiet (mpcache.slave.fill.quiet.ms).
        .set(SlaveConfigKeys.FILL_QUIET_MS_KEY, "0").build();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (cluster == null) {
      return;
    }
    long fromCache = cluster.totals().getBytesFromCache();
    cluster.close();
    cluster = null;
    if (mustServeFromCache) {
      assertTrue(fromCache > 0, "the contract read nothing from the cache");
    }
  }

  /** The contract for one test, bound to this running cluster. */
  AbstractFSContract contract(Configuration conf) {
    if (cluster == null) {
      throw new IllegalStateException("The contract cluster is not running; register "
          + "MpCacheContractCluster as a static @RegisterExtension field");
    }
    return new MpCacheContract(conf, cluster, warm);
  }
}
