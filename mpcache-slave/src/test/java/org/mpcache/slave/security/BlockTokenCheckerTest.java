package org.mpcache.slave.security;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.EnumSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenIdentifier.AccessMode;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenSecretManager;
import org.apache.hadoop.security.AccessControlException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.mpcache.common.BlockKey;
import org.mpcache.common.security.BlockKeySecretManager;

/**
 * The block token checker against NameNode-side secret managers and a latch-controlled key
 * source: tokens are checked as a DataNode checks them, and a slow key fetch stalls no other check.
 */
class BlockTokenCheckerTest {
  private static final String POOL = "BP-1";
  private static final long HOUR_MS = 3_600_000;
  private static final BlockKey BLOCK = new BlockKey(POOL, 7, 1001);

  /** The NameNode whose keys the checker fetches. */
  private final BlockTokenSecretManager namenode =
      new BlockTokenSecretManager(HOUR_MS, HOUR_MS, 0, 1, POOL, null, false);
  /** Another NameNode: its tokens are signed with keys the checker never learns. */
  private final BlockTokenSecretManager stranger =
      new BlockTokenSecretManager(HOUR_MS, HOUR_MS, 0, 1, POOL, null, false);
  private final AtomicLong now = new AtomicLong(1_000_000);
  private final AtomicInteger fetches = new AtomicInteger();
  private final CountDownLatch slowFetchStarted = new CountDownLatch(1);
  private final CountDownLatch slowFetchMayEnd = new CountDownLatch(1);
  private final ExecutorService pool = Executors.newCachedThreadPool();

  @AfterEach
  void stop() {
    slowFetchMayEnd.countDown();
    pool.shutdownNow();
  }

  /** A checker whose first key fetch is quick and whose later ones wait for the test. */
  private BlockTokenChecker checker() throws IOException {
    BlockKeySecretManager keys = new BlockKeySecretManager(() -> {
      if (fetches.incrementAndGet() > 1) {
        slowFetchStarted.countDown();
        try {
          slowFetchMayEnd.await();
        } catch (InterruptedException e) {
          throw new IOException(e);
        }
      }
      return namenode.exportKeys();
    }, new BlockTokenSecretManager(HOUR_MS, HOUR_MS, POOL, null, false), POOL, now::get);
    keys.refreshKeys();
    return new BlockTokenChecker(keys);
  }

  private static String token(BlockTokenSecretManager signer) throws IOException {
    return signer.generateToken(new ExtendedBlock(POOL, BLOCK.getBlockId(), 0,
        BLOCK.getGenerationStamp()), EnumSet.of(AccessMode.READ), new StorageType[0],
        new String[0]).encodeToUrlString();
  }

  @Test
  void check_tokensOfTheNameNode_passAndOthersAreDenied() throws IOException {
    BlockTokenChecker c = checker();
    c.check(BLOCK, token(namenode));
    assertThrows(AccessControlException.class, () -> c.check(BLOCK, ""));
    assertThrows(AccessControlException.class,
        () -> c.check(new BlockKey(POOL, 8, 1001), token(namenode)));
  }

  @Test
  void check_whileAKeyFetchHangs_otherChecksAreNotBlocked() throws Exception {
    BlockTokenChecker c = checker();
    now.addAndGet(BlockKeySecretManager.REFRESH_MIN_INTERVAL_MS);
    String unknownKey = token(stranger);
    Future<?> fetching = pool.submit(() -> {
      c.check(BLOCK, unknownKey);
      return null;
    });
    assertTrue(slowFetchStarted.await(10, TimeUnit.SECONDS), "a key fetch started");

    String known = token(namenode);
    pool.submit(() -> {
      c.check(BLOCK, known);
      return null;
    }).get(5, TimeUnit.SECONDS);
    Future<?> alsoUnknown = pool.submit(() -> {
      c.check(BLOCK, unknownKey);
      return null;
    });
    ExecutionException denied = assertThrows(ExecutionException.class,
        () -> alsoUnknown.get(5, TimeUnit.SECONDS),
        "a check of an unknown key is answered while another check fetches keys");
    assertTrue(denied.getCause() instanceof AccessControlException, denied.toString());

    slowFetchMayEnd.countDown();
    ExecutionException first = assertThrows(ExecutionException.class,
        () -> fetching.get(10, TimeUnit.SECONDS));
    assertTrue(first.getCause() instanceof AccessControlException, first.toString());
    assertTrue(fetches.get() == 2, "one fetch at a time: " + fetches.get());
  }
}
