package org.mpcache.slave.localized;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.common.BlockKey;
import org.mpcache.common.protocolPB.LocalizedGrant;
import org.mpcache.common.protocolPB.LocalizedJob;
import org.mpcache.common.protocolPB.LocalizedProtocolClientSideTranslatorPB;
import org.mpcache.slave.SlaveConfigKeys;
import org.mpcache.slave.space.DynamicSpaceTuner;
import org.mpcache.slave.space.EvictionPlan;
import org.mpcache.slave.space.ForegroundActivity;
import org.mpcache.slave.space.SpaceSnapshot;
import org.mpcache.slave.space.SsdVolume;

class LocalizedCacheServiceTest {
  private static final String APP = "application_1_0001";
  private final Object lock = new Object();
  private final List<BlockKey> deleted = new ArrayList<>();
  private final List<String> finished = new ArrayList<>();
  private final List<LocalizedJob> started = new ArrayList<>();
  /** Records what the cache tells the Dynamic Space Manager. */
  private final SpaceManagerLink link = new SpaceManagerLink() {
    @Override
    public void jobStarted(LocalizedJob job) {
      started.add(job);
    }

    @Override
    public void jobFinished(LocalizedJob job, long peakBytes) {
      finished.add(job + "=" + peakBytes);
    }
  };
  /** On a clock that stands still: it keeps every byte it was told of. */
  private final ForegroundActivity foreground = new ForegroundActivity(1_000, () -> 0L);
  private DynamicSpaceTuner tuner;
  private LocalizedCache cache;
  /** Cached input blocks a reader holds open. */
  private final Set<BlockKey> held = ConcurrentHashMap.newKeySet();
  private LocalizedCacheService service;
  private LocalizedProtocolClientSideTranslatorPB client;

  @BeforeEach
  void start() throws IOException {
    // 1,000 bytes: Input Cache 400, pool 4 units of 100, Localized Cache 200.
    tuner = new DynamicSpaceTuner(List.of(SsdVolume.split("/ssd", 1000, 100, 0.4, 0.2)), 0.5);
    cache = new LocalizedCache(tuner, lock,
        (dir, wanted) -> new EvictionPlan(List.of(new BlockKey("BP-1", 1, 1))), held::contains,
        deleted::addAll, link, foreground);
    Configuration conf = new Configuration(false);
    conf.set(LocalizedConfigKeys.LOCALIZED_BIND_ADDRESS_KEY, "127.0.0.1:0");
    service = new LocalizedCacheService(cache, null);
    service.init(conf);
    service.start();
    client = new LocalizedProtocolClientSideTranslatorPB(service.getAddress(), conf);
  }

  @AfterEach
  void stop() {
    client.close();
    service.stop();
  }

  @Test
  void requestSpace_overRpc_grantsAndAccounts() throws IOException {
    LocalizedGrant g = client.requestSpace(APP, "c1", "attempt_1_0001_m_000000_0", 300);
    assertTrue(g.isGranted());
    assertEquals("/ssd", g.dir());
    SpaceSnapshot s = cache.snapshot();
    assertEquals(300, s.localizedCacheUsed());
    assertEquals(100, s.poolLentToLocalized());
  }

  @Test
  void containerFinished_releasesAllButRetained() throws IOException {
    client.requestSpace(APP, "c1", "attempt_m0", 300);
    client.requestSpace(APP, "c1", "attempt_m0", 200);
    client.requestSpace(APP, "c2", "attempt_r0", 100);
    client.reportRetained(APP, "c1", "attempt_m0", "/ssd", 120);
    assertEquals(220, cache.snapshot().localizedCacheUsed());
    client.containerFinished("c1");
    client.containerFinished("c2");
    assertEquals(120, cache.snapshot().localizedCacheUsed());
    assertEquals(120, cache.grantedBytes(APP));
  }

  @Test
  void applicationFinished_usageReturnsToZeroAndLentUnitsReturn() throws IOException {
    client.requestSpace(APP, "c1", "attempt_m0", 500);
    client.requestSpace("application_1_0002", "c9", "attempt_other", 50);
    client.reportRetained(APP, "c1", "attempt_m0", "/ssd", 450);
    assertEquals(400, cache.snapshot().poolLentToLocalized());
    client.applicationFinished(APP);
    SpaceSnapshot s = cache.snapshot();
    assertEquals(50, s.localizedCacheUsed());
    assertEquals(0, s.poolLentToLocalized());
    assertEquals(0, cache.grantedBytes(APP));
  }

  @Test
  void runningOnNode_containerFinishNoticeLost_grantEndsButRetainedBytesStay() throws IOException {
    client.requestSpace(APP, "c1", "attempt_m0", 300);
    client.reportRetained(APP, "c1", "attempt_m0", "/ssd", 120);
    client.requestSpace(APP, "c2", "attempt_r0", 100);
    client.requestSpace(APP, "c3", "attempt_r1", 50);
    // c1 and c2 finished; their notices never reached the slave.
    client.runningOnNode(List.of(APP), List.of("c3"));
    assertEquals(120 + 50, cache.snapshot().localizedCacheUsed(),
        "the finished containers' grants end, their retained map output stays");
    assertEquals(170, cache.grantedBytes(APP));
  }

  @Test
  void runningOnNode_applicationFinishNoticeLost_allItsGrantsEnd() throws IOException {
    client.requestSpace(APP, "c1", "attempt_m0", 500, new LocalizedJob("wordcount", 1_000));
    client.reportRetained(APP, "c1", "attempt_m0", "/ssd", 450);
    client.requestSpace("application_1_0002", "c9", "attempt_other", 50);
    client.runningOnNode(List.of("application_1_0002"), List.of("c9"));
    SpaceSnapshot s = cache.snapshot();
    assertEquals(50, s.localizedCacheUsed(), "only the running application's grant is left");
    assertEquals(0, s.poolLentToLocalized());
    assertEquals(0, cache.grantedBytes(APP));
    assertEquals(List.of(new LocalizedJob("wordcount", 1_000) + "=500"), finished,
        "the job's peak reported as at its finish");
  }

  @Test
  void requestSpace_ssdFull_isDenied() throws IOException {
    assertTrue(client.requestSpace(APP, "c1", "a1", 600).isGranted());
    LocalizedGrant g = client.requestSpace(APP, "c1", "a1", 1);
    assertFalse(g.isGranted());
    assertTrue(g.denyReason().contains("No room"), g.denyReason());
  }

  @Test
  void requestSpace_countsGrantedAndDeniedBytes() throws IOException {
    client.requestSpace(APP, "c1", "a1", 600);
    client.requestSpace(APP, "c1", "a1", 7);
    client.requestSpace(APP, "c2", "a2", 5);
    client.containerFinished("c1");
    assertTrue(client.requestSpace(APP, "c3", "a3", 40).isGranted());
    assertEquals(640, cache.bytesGranted());
    assertEquals(12, cache.bytesDenied());
    assertEquals(640, foreground.recentBytes(),
        "the SSD's foreground work: the bytes granted, which tasks write next");
  }

  @Test
  void requestSpace_poolHoldsInput_deletesExcludedBlocksBeforeGranting() throws IOException {
    synchronized (lock) {
      tuner.reserveInput(new BlockKey("BP-1", 1, 1), 800);
      tuner.inputFilled(new BlockKey("BP-1", 1, 1));
    }
    assertTrue(client.requestSpace(APP, "c1", "a1", 300).isGranted());
    assertEquals(List.of(new BlockKey("BP-1", 1, 1)), deleted);
    assertEquals(0, cache.snapshot().inputCacheUsed());
  }

  @Test
  void returnSpace_spillSmallerThanItsEstimate_nextRequestFitsWithoutExcludingInput()
      throws IOException {
    // Input holds its 400 and three of the pool's four units: 100 bytes of pool are free.
    synchronized (lock) {
      tuner.reserveInput(new BlockKey("BP-1", 1, 1), 700);
      tuner.inputFilled(new BlockKey("BP-1", 1, 1));
    }
    // Two maps' spills, estimated by their records before the combiner ran.
    assertTrue(client.requestSpace(APP, "c1", "m0", 250).isGranted());
    assertTrue(client.requestSpace(APP, "c2", "m1", 40).isGranted());
    // m0's spill was written with 30 bytes: the rest of its estimate goes back at once.
    client.returnSpace(APP, "c1", "m0", "/ssd", 220);
    assertEquals(70, cache.snapshot().localizedCacheUsed());
    assertEquals(0, cache.snapshot().poolLentToLocalized(), "the lent unit returns (guard 0.5)");
    assertTrue(client.requestSpace(APP, "c2", "m1", 100).isGranted());
    assertEquals(List.of(), deleted, "no cached input excluded for room the estimate held");
    assertEquals(700, cache.snapshot().inputCacheUsed());
    assertEquals(220, cache.bytesReturned());
    assertEquals(30 + 140, cache.grantedBytes(APP));
  }

  @Test
  void returnSpace_neverBelowTheRetainedBytesNorBeyondTheGrant() throws IOException {
    client.requestSpace(APP, "c1", "m0", 300);
    client.reportRetained(APP, "c1", "m0", "/ssd", 120);
    client.returnSpace(APP, "c1", "m0", "/ssd", 500);
    assertEquals(120, cache.snapshot().localizedCacheUsed(), "the map's output stays granted");
    client.requestSpace(APP, "c1", "m0", 50);
    client.returnSpace(APP, "c1", "m0", "/ssd", 500);
    assertEquals(120, cache.snapshot().localizedCacheUsed());
    assertEquals(50, cache.bytesReturned());
    client.containerFinished("c1");
    assertEquals(120, cache.grantedBytes(APP));
  }

  @Test
  void returnSpace_noGrantInThatDir_refusedAndNothingChanges() throws IOException {
    client.requestSpace(APP, "c1", "m0", 300);
    IOException e = assertThrows(IOException.class,
        () -> client.returnSpace(APP, "c1", "m0", "/elsewhere", 100));
    assertTrue(e.getMessage().contains("holds no grant there"), e.getMessage());
    assertThrows(IOException.class, () -> client.returnSpace(APP, "c1", "m9", "/ssd", 100));
    assertThrows(IOException.class,
        () -> client.returnSpace(APP, "c2", "m0", "/ssd", 100), "another container's attempt");
    assertEquals(300, cache.snapshot().localizedCacheUsed());
    assertEquals(0, cache.bytesReturned());
  }

  @Test
  void requestSpace_poolHoldsInputAReaderHoldsOpen_removesItButGrantsNoRoomYet()
      throws IOException {
    BlockKey open = new BlockKey("BP-1", 1, 1);
    synchronized (lock) {
      tuner.reserveInput(open, 800);
      tuner.inputFilled(open);
    }
    held.add(open);
    assertFalse(client.requestSpace(APP, "c1", "a1", 300).isGranted(),
        "granted room the open block's bytes still take on the SSD");
    assertEquals(List.of(open), deleted, "the block the master chose is removed all the same");
    assertEquals(800, cache.snapshot().inputCacheUsed());
  }

  @Test
  void requestSpace_masterSlowToPlan_holdsNoLockMeanwhile() throws Exception {
    CountDownLatch asked = new CountDownLatch(1);
    CountDownLatch answer = new CountDownLatch(1);
    LocalizedCache slowMaster = new LocalizedCache(tuner, lock, (dir, wanted) -> {
      asked.countDown();
      try {
        answer.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return new EvictionPlan(List.of(new BlockKey("BP-1", 1, 1)));
    }, held::contains, deleted::addAll, link, foreground);
    synchronized (lock) {
      tuner.reserveInput(new BlockKey("BP-1", 1, 1), 800);
      tuner.inputFilled(new BlockKey("BP-1", 1, 1));
    }
    CompletableFuture<LocalizedGrant> needsInputGone = CompletableFuture.supplyAsync(
        () -> slowMaster.requestSpace(APP, "c1", "a1", 300, LocalizedJob.UNKNOWN));
    assertTrue(asked.await(10, TimeUnit.SECONDS), "the master was asked for a plan");
    CompletableFuture<SpaceSnapshot> other = CompletableFuture.supplyAsync(() -> {
      synchronized (lock) {
        return tuner.snapshot();
      }
    });
    assertEquals(800, other.get(10, TimeUnit.SECONDS).inputCacheUsed(),
        "the space lock is free while the master plans");
    assertFalse(needsInputGone.isDone());
    answer.countDown();
    assertTrue(needsInputGone.get(10, TimeUnit.SECONDS).isGranted());
    assertEquals(List.of(new BlockKey("BP-1", 1, 1)), deleted);
  }

  @Test
  void requestSpace_byTheContainersUser_onlyOnceTheNodeManagerStartedIt() throws Exception {
    IOException before = assertThrows(IOException.class,
        () -> as("alice", p -> p.requestSpace(APP, "c1", "a1", 300)));
    assertTrue(before.getMessage().contains("has not registered"), before.getMessage());
    client.containerStarted("c1", APP, "alice");
    assertTrue(as("alice", p -> p.requestSpace(APP, "c1", "a1", 300)).isGranted());
    assertEquals(300, cache.grantedBytes(APP));
  }

  @Test
  void containerFinished_byAnotherUser_isRefusedAndReleasesNothing() throws Exception {
    client.containerStarted("c1", APP, "alice");
    as("alice", p -> p.requestSpace(APP, "c1", "a1", 300));
    IOException e = assertThrows(IOException.class, () -> as("alice", p -> {
      p.containerFinished("c1");
      return null;
    }));
    assertTrue(e.getMessage().contains("only the NodeManager"), e.getMessage());
    assertEquals(300, cache.grantedBytes(APP));
    client.containerFinished("c1");
    assertEquals(0, cache.grantedBytes(APP), "the slave's own user is the NodeManager's");
  }

  /** One call on the Localized protocol. */
  @FunctionalInterface
  private interface LocalizedCall<T> {
    T call(LocalizedProtocolClientSideTranslatorPB slave) throws IOException;
  }

  /** A call over RPC as {@code user}, with a proxy of its own. */
  private <T> T as(String user, LocalizedCall<T> call) throws Exception {
    Configuration conf = new Configuration(false);
    return UserGroupInformation.createRemoteUser(user).doAs((PrivilegedExceptionAction<T>) () -> {
      try (LocalizedProtocolClientSideTranslatorPB p =
          new LocalizedProtocolClientSideTranslatorPB(service.getAddress(), conf)) {
        return call.call(p);
      }
    });
  }

  @Test
  void badRequests_failWithClearErrors() {
    IOException e = assertThrows(IOException.class, () -> client.requestSpace(APP, "c1", "a1", 0));
    assertTrue(e.getMessage().contains("Invalid bytes 0"), e.getMessage());
    e = assertThrows(IOException.class,
        () -> client.reportRetained(APP, "c1", "a1", "/ssd", 10));
    assertTrue(e.getMessage().contains("holds no grant"), e.getMessage());
  }

  @Test
  void predictionArrived_fromHistory_runningJobStartsWithItsPredictedNeedLent() throws IOException {
    LocalizedJob sort = new LocalizedJob("sort", 5_000_000);
    assertTrue(client.requestSpace(APP, "c1", "m0", 50, sort).isGranted());
    assertEquals(List.of(sort), started, "the master is asked once the job is seen");
    assertTrue(client.requestSpace(APP, "c1", "m1", 50, sort).isGranted());
    assertEquals(1, started.size(), "asked once per job start");
    assertEquals(0, cache.snapshot().poolLentToLocalized());

    cache.predictionArrived(new SpacePrediction(sort, 500, true));
    // 500 predicted, 100 held already: 400 more, of which the own 100 left is room: 3 units.
    assertEquals(300, cache.snapshot().poolLentToLocalized());
    assertEquals(1, cache.predictionsApplied());
    assertEquals(List.of(new SpacePrediction(sort, 500, true)), cache.predictionsInUse());
    assertFalse(tuner.reserveInput(new BlockKey("BP-1", 9, 1), 600).reserved(),
        "the Input Cache cannot take the job's predicted room");

    client.applicationFinished(APP);
    assertEquals(0, cache.snapshot().poolLentToLocalized(), "the guard rule returns the units");
    assertEquals(List.of(), cache.predictionsInUse());
  }

  @Test
  void requestSpace_predictionReceivedBefore_appliesAtTheJobsFirstRequest() throws IOException {
    LocalizedJob sort = new LocalizedJob("sort", 5_000_000);
    cache.predictionArrived(new SpacePrediction(sort, 350, true));
    assertEquals(0, cache.predictionsApplied(), "no job of that kind runs yet");
    assertTrue(client.requestSpace(APP, "c1", "m0", 50, sort).isGranted());
    assertEquals(200, cache.snapshot().poolLentToLocalized());
    assertEquals(1, cache.predictionsApplied());
    assertEquals(List.of(sort), started, "a fresher prediction is asked for all the same");

    cache.predictionArrived(new SpacePrediction(sort, 1000, true));
    assertEquals(200, cache.snapshot().poolLentToLocalized(), "one prediction per application");
    assertEquals(1, cache.predictionsApplied());
  }

  @Test
  void predictionArrived_coldStartOrOtherJob_keepsTheFixedSplit() throws IOException {
    LocalizedJob grep = new LocalizedJob("grep", 5_000_000);
    assertTrue(client.requestSpace(APP, "c1", "m0", 50, grep).isGranted());
    cache.predictionArrived(new SpacePrediction(grep, 250, false));
    cache.predictionArrived(new SpacePrediction(new LocalizedJob("sort", 5_000_000), 900, true));
    cache.predictionArrived(new SpacePrediction(new LocalizedJob("grep", 1), 900, true));
    assertEquals(0, cache.snapshot().poolLentToLocalized());
    assertEquals(0, cache.predictionsApplied());
    assertEquals(List.of(new SpacePrediction(grep, 200, false)), cache.predictionsInUse(),
        "the cold-start default: the Localized Cache's own capacity");
  }

  @Test
  void applicationFinished_describedJob_reportsItsPeak() throws IOException {
    LocalizedJob sort = new LocalizedJob("sort", 5_000_000);
    assertTrue(client.requestSpace(APP, "c1", "m0", 300, sort).isGranted());
    assertTrue(client.requestSpace(APP, "c2", "m1", 200, sort).isGranted());
    client.containerFinished("c1");
    assertTrue(client.requestSpace(APP, "c3", "r0", 100, LocalizedJob.UNKNOWN).isGranted());
    assertTrue(client.requestSpace("application_1_0002", "c9", "x", 100).isGranted());
    client.applicationFinished(APP);
    client.applicationFinished("application_1_0002");
    assertEquals(List.of(sort + "=500"), finished, "the peak of the described job only");
  }

  @Test
  void ssdLayout_capacityCountMismatch_namesTheKey() {
    Configuration conf = new Configuration(false);
    conf.set(MpCacheConfigKeys.SLAVE_CACHE_DIRS_KEY, "/a,/b,/c");
    conf.set(SlaveConfigKeys.CACHE_CAPACITY_KEY, "1g,2g");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> LocalizedConfigKeys.ssdLayout(conf));
    assertTrue(e.getMessage().contains(SlaveConfigKeys.CACHE_CAPACITY_KEY), e.getMessage());
    conf.set(SlaveConfigKeys.CACHE_CAPACITY_KEY, "1g,1g,2g");
    conf.set(LocalizedConfigKeys.SPACE_UNIT_KEY, "64m");
    List<SsdVolume> layout = LocalizedConfigKeys.ssdLayout(conf);
    assertEquals(3, layout.size());
    assertEquals(2L << 30, layout.get(2).capacity());
    assertEquals(64L << 20, layout.get(2).unitBytes());
  }

  @Test
  void ssdLayout_capacityLargerThanTheDisk_namesTheKeyTheDirAndBothSizes(@TempDir File dir) {
    Configuration conf = new Configuration(false);
    conf.set(MpCacheConfigKeys.SLAVE_CACHE_DIRS_KEY, dir.getAbsolutePath());
    conf.set(SlaveConfigKeys.CACHE_CAPACITY_KEY, "1000t");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> LocalizedConfigKeys.ssdLayout(conf));
    assertTrue(e.getMessage().contains(SlaveConfigKeys.CACHE_CAPACITY_KEY), e.getMessage());
    assertTrue(e.getMessage().contains(dir.getAbsolutePath()), e.getMessage());
    assertTrue(e.getMessage().contains(Long.toString(1000L << 40)), e.getMessage());
    assertTrue(e.getMessage().contains(Long.toString(dir.getTotalSpace())), e.getMessage());
    // A capacity that fits the disk is accepted, also for a dir the slave has not made yet.
    conf.set(MpCacheConfigKeys.SLAVE_CACHE_DIRS_KEY, new File(dir, "not/yet").getAbsolutePath());
    conf.set(SlaveConfigKeys.CACHE_CAPACITY_KEY, "1m");
    conf.set(LocalizedConfigKeys.SPACE_UNIT_KEY, "64k");
    assertEquals(1L << 20, LocalizedConfigKeys.ssdLayout(conf).get(0).capacity());
  }

  @Test
  void ssdLayout_dirsSharingADiskTogetherLargerThanIt_fail(@TempDir File dir) {
    long half = dir.getTotalSpace() / 2 + (1L << 20);
    Configuration conf = new Configuration(false);
    conf.set(MpCacheConfigKeys.SLAVE_CACHE_DIRS_KEY,
        new File(dir, "a").getAbsolutePath() + "," + new File(dir, "b").getAbsolutePath());
    conf.set(SlaveConfigKeys.CACHE_CAPACITY_KEY, half + "," + half);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> LocalizedConfigKeys.ssdLayout(conf));
    assertTrue(e.getMessage().contains(SlaveConfigKeys.CACHE_CAPACITY_KEY), e.getMessage());
    assertTrue(e.getMessage().contains(new File(dir, "b").getAbsolutePath()), e.getMessage());
  }

  @Test
  void ssdLayout_oneCapacity_isTheNodeTotalSharedByTheDirs() {
    Configuration conf = new Configuration(false);
    conf.set(MpCacheConfigKeys.SLAVE_CACHE_DIRS_KEY, "/a/, /b");
    conf.set(SlaveConfigKeys.CACHE_CAPACITY_KEY, "2g");
    List<SsdVolume> layout = LocalizedConfigKeys.ssdLayout(conf);
    assertEquals(List.of("/a", "/b"), layout.stream().map(SsdVolume::dir).toList());
    assertEquals(1L << 30, layout.get(0).capacity());
    assertEquals(1L << 30, layout.get(1).capacity());
  }

  @Test
  void ssdLayout_badCapacityOrFractions_namesTheKeys() {
    Configuration conf = new Configuration(false);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> LocalizedConfigKeys.ssdLayout(conf));
    assertTrue(e.getMessage().contains(MpCacheConfigKeys.SLAVE_CACHE_DIRS_KEY), e.getMessage());
    conf.set(MpCacheConfigKeys.SLAVE_CACHE_DIRS_KEY, "ssd");
    e = assertThrows(IllegalArgumentException.class, () -> LocalizedConfigKeys.ssdLayout(conf));
    assertTrue(e.getMessage().contains("not an absolute path"), e.getMessage());
    conf.set(MpCacheConfigKeys.SLAVE_CACHE_DIRS_KEY, "/a");
    conf.set(SlaveConfigKeys.CACHE_CAPACITY_KEY, "lots");
    e = assertThrows(IllegalArgumentException.class, () -> LocalizedConfigKeys.ssdLayout(conf));
    assertTrue(e.getMessage().contains("'lots'"), e.getMessage());
    conf.set(SlaveConfigKeys.CACHE_CAPACITY_KEY, "1g");
    conf.set(LocalizedConfigKeys.LOCALIZED_FRACTION_KEY, "0.7");
    conf.set(LocalizedConfigKeys.INPUT_FRACTION_KEY, "0.7");
    e = assertThrows(IllegalArgumentException.class, () -> LocalizedConfigKeys.ssdLayout(conf));
    assertTrue(e.getMessage().contains(LocalizedConfigKeys.LOCALIZED_FRACTION_KEY),
        e.getMessage());
  }
}
