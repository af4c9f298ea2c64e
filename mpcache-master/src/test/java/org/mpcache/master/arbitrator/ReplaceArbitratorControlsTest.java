package org.mpcache.master.arbitrator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.AdminProtos.ControlsProto;
import org.mpcache.common.proto.AdminProtos.DatasetStatusProto;
import org.mpcache.common.proto.MasterStateProtos.MasterStateProto;
import org.mpcache.common.proto.MpCacheProtos.QuotaProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveInfoProto;
import org.mpcache.common.proto.MpCacheProtos.SpaceReportProto;
import org.mpcache.master.control.AdmissionFilter;
import org.mpcache.master.registry.SlaveIdentity;
import org.mpcache.master.registry.SlaveRegistry;
import org.mpcache.master.status.ArbitratorStats;
import org.mpcache.master.status.EvictionCause;

/**
 * The operators' controls as the Replace Arbitrator enforces them: pins keep a dataset out of the
 * victims, quotas and admission filters refuse before the policy, times to live expire a dataset
 * through the To_Del lists; and the controls round-trip through the master's checkpoint.
 */
class ReplaceArbitratorControlsTest {
  private static final String SLAVE = "host1:50121";
  private static final long BLOCK = 1000;
  private static final long CAPACITY = 4 * BLOCK;
  private static final SlaveIdentity IDENTITY =
      new SlaveIdentity("mpcache", InetAddress.getLoopbackAddress());

  private final AtomicLong clock = new AtomicLong(1_000);
  private final SlaveRegistry registry = new SlaveRegistry(clock::get, 60_000);
  private ReplaceArbitrator arbitrator;
  private long nextBlock = 1;
  private long used;

  private void start(String policy) {
    arbitrator = new ReplaceArbitrator(
        p -> CachePolicies.create(policy, PolicyParameters.defaults(), p), registry, 100,
        new ArbitratorStats(), clock::get);
    registry.readHoldingsFrom(arbitrator.holdings());
    registry.register(SlaveInfoProto.newBuilder().setSlaveId(SLAVE)
        .setHost("host1").setClientPort(50121).build(), SpaceReportProto.newBuilder()
        .setCapacity(CAPACITY).setInputCacheCapacity(CAPACITY).setInputCacheUsed(0)
        .setDynamicPoolCapacity(0).setPoolLentToInput(0).setPoolLentToLocalized(0)
        .setLocalizedCacheCapacity(0).setLocalizedCacheUsed(0).build(), IDENTITY,
        registry.holder(SLAVE));
    arbitrator.onRegister(SLAVE, List.of(), CAPACITY, CAPACITY);
  }

  private static BlockKey key(long id) {
    return new BlockKey("BP-1", id, 1);
  }

  /**
   * One job reads every block of a dataset of {@code blocks} blocks, each a replace request with
   * the slave's free space; admitted blocks are reported cached, evicted ones removed.
   *
   * @return the first refusal, or null when every block was admitted
   */
  private CacheDecision.Reason read(String dataset, int blocks, String job) {
    CacheDecision.Reason refused = null;
    for (int i = 0; i < blocks; i++) {
      CacheDecision d = request(dataset, blocks, job, null);
      if (!d.admitted()) {
        refused = refused == null ? d.reason() : refused;
      }
    }
    return refused;
  }

  /**
   * One replace request for a new block of the file {@code path} (null: a caller that knows the
   * block is the dataset's), claimed for {@code dataset} of {@code datasetBlocks} blocks; an
   * admitted block is reported cached.
   */
  private CacheDecision request(String dataset, int datasetBlocks, String job, String path) {
    BlockKey b = key(nextBlock++);
    CacheDecision d = arbitrator.onReplaceRequest(new BlockAccess(SLAVE, b, BLOCK, dataset,
        datasetBlocks, job, clock.get()), CAPACITY - used, false, path);
    if (d.admitted()) {
      used += BLOCK * (1 - d.evict().size());
      arbitrator.onBlockReport(SLAVE, List.of(b), d.evict());
    }
    return d;
  }

  /** A hit on block {@code key(id)}, which a reader reports for {@code dataset}, now. */
  private void hit(long id, String dataset, String job) {
    arbitrator.onHits(List.of(new BlockAccess(SLAVE, key(id), BLOCK, dataset, 2, job,
        clock.get())));
  }

  private DatasetStatusProto dataset(String id) {
    return arbitrator.datasets(id::equals).get(0);
  }

  @Test
  void onReplaceRequest_onlyPinnedVictims_refusedAndThePinHolds() {
    start(CachePolicies.LFU_F);
    read("/pinned", 4, "job_1");
    assertTrue(arbitrator.pin("/pinned", true));
    assertTrue(dataset("/pinned").getPinned());
    assertEquals(CacheDecision.Reason.REJECTED_PINNED, read("/other", 1, "job_2"));
    assertFalse(dataset("/other").getPinned());
    assertEquals(4, dataset("/pinned").getCachedBlocks());
  }

  @Test
  void onReplaceRequest_unpinned_theSameRequestEvicts() {
    start(CachePolicies.LFU_F);
    read("/pinned", 4, "job_1");
    arbitrator.pin("/pinned", true);
    assertTrue(arbitrator.pin("/pinned", false));
    assertEquals(null, read("/other", 1, "job_2"));
    assertEquals(0, dataset("/pinned").getCachedBlocks());
  }

  @Test
  void onReplaceRequest_mpcachePolicyWithPinnedAndUnpinned_evictsOnlyTheUnpinned() {
    start(CachePolicies.MPCACHE);
    read("/data/pinned", 2, "job_1");
    read("/data/loose", 2, "job_2");
    arbitrator.pin("/data/pinned", true);
    read("/new", 2, "job_3"); // the auxiliary cache learns it
    assertEquals(null, read("/new", 2, "job_4"));
    assertEquals(2, dataset("/data/pinned").getCachedBlocks());
    assertEquals(0, dataset("/data/loose").getCachedBlocks());
    assertEquals(2, dataset("/new").getCachedBlocks());
  }

  @Test
  void onReplaceRequest_mpcachePolicyOnlyPinned_refusedAsPinned() {
    start(CachePolicies.MPCACHE);
    read("/data/a", 4, "job_1");
    arbitrator.pin("/data", true);
    read("/new", 2, "job_2");
    assertEquals(CacheDecision.Reason.REJECTED_PINNED, read("/new", 2, "job_3"));
    assertEquals(4, dataset("/data/a").getCachedBlocks());
  }

  @Test
  void onReplaceRequest_quotaOfDirectoryFull_refusesANewDatasetUnderIt() {
    start(CachePolicies.LFU_F);
    arbitrator.setQuota(QuotaProto.Kind.DIR, "/q", 3 * BLOCK);
    assertEquals(null, read("/q/a", 2, "job_1"));
    assertEquals(CacheDecision.Reason.REJECTED_QUOTA, read("/q/b", 2, "job_2"));
    assertEquals(null, read("/elsewhere", 1, "job_3"));
    ControlsProto c = arbitrator.controls();
    // Charged per block stored: /q/b's first block fits the quota, its second does not.
    assertEquals(3 * BLOCK, c.getQuotas(0).getUsedBytes());
    assertEquals(CacheDecision.Reason.REJECTED_QUOTA.name(),
        dataset("/q/b").getLastVerdict().getReason());
  }

  @Test
  void onReplaceRequest_userQuota_chargesTheHomeDirectory() {
    start(CachePolicies.LFU_F);
    arbitrator.setQuota(QuotaProto.Kind.USER, "alice", BLOCK);
    assertEquals(CacheDecision.Reason.REJECTED_QUOTA, read("/user/alice/in", 2, "job_1"));
    assertEquals(null, read("/user/bob/in", 2, "job_2"));
    arbitrator.setQuota(QuotaProto.Kind.USER, "alice", 0);
    assertEquals(null, read("/user/alice/in", 2, "job_3"));
  }

  @Test
  void onReplaceRequest_admissionFilters_decideBeforeThePolicy() {
    start(CachePolicies.LFU_F);
    arbitrator.setAdmissionFilter(new AdmissionFilter(List.of("/warehouse"),
        List.of("/warehouse/staging/**")));
    assertEquals(null, read("hdfs://nn:8020/warehouse/t1", 1, "job_1"));
    assertEquals(CacheDecision.Reason.REJECTED_EXCLUDED,
        read("hdfs://nn:8020/warehouse/staging/t2", 1, "job_2"));
    assertEquals(CacheDecision.Reason.REJECTED_NOT_INCLUDED, read("/tmp/x", 1, "job_3"));
    assertEquals(CacheDecision.Reason.REJECTED_NOT_INCLUDED,
        read("/warehouse/t3,/tmp/x", 1, "job_4"));
  }

  @Test
  void takeEvictions_timeToLivePassed_expiresTheDatasetWhole() {
    start(CachePolicies.MPCACHE);
    read("/t/a", 2, "job_1");
    read("/keep", 1, "job_2");
    arbitrator.setTtl("/t", 5_000);
    assertEquals(6_000, dataset("/t/a").getExpiresAtMs());
    assertFalse(dataset("/keep").hasExpiresAtMs());
    clock.set(5_000); // the time to live runs out at 6000; checks are a second apart
    assertEquals(List.of(), arbitrator.takeEvictions(SLAVE));
    clock.set(6_000);
    List<BlockKey> out = new ArrayList<>(arbitrator.takeEvictions(SLAVE));
    assertEquals(List.of(key(1), key(2)), out.stream().sorted().toList());
    arbitrator.onBlockReport(SLAVE, List.of(), out);
    assertEquals(0, dataset("/t/a").getCachedBlocks());
    assertEquals(EvictionCause.TTL_EXPIRED.name(), dataset("/t/a").getLastEviction().getCause());
    assertEquals(1, dataset("/keep").getCachedBlocks());
  }

  @Test
  void takeEvictions_readAfterTheTimeToLiveWasSet_countsFromTheRead() {
    start(CachePolicies.MPCACHE);
    read("/t/a", 2, "job_1");
    arbitrator.setTtl("/t", 5_000);
    clock.set(4_000);
    hit(1, "/t/a", "job_2");
    clock.set(8_000);
    assertEquals(List.of(), arbitrator.takeEvictions(SLAVE));
    clock.set(9_000);
    assertEquals(2, arbitrator.takeEvictions(SLAVE).size());
  }

  @Test
  void onReplaceRequest_pinnedDirectoryClaimedBesideOwnFiles_doesNotPinThem() {
    start(CachePolicies.LFU_F);
    read("/pinned", 2, "job_1");
    arbitrator.pin("/pinned", true);
    // A job lists the pinned directory beside its own input: its own blocks are not pinned.
    assertTrue(request("/pinned,/mine", 2, "job_2", "/mine/f").admitted());
    assertTrue(request("/pinned,/mine", 2, "job_2", "/mine/f").admitted());
    assertFalse(dataset("/pinned,/mine").getPinned());
    assertEquals(null, read("/other", 1, "job_3"));
    assertEquals(2, dataset("/pinned").getCachedBlocks());
    assertTrue(dataset("/pinned,/mine").getCachedBlocks() < 2);
  }

  @Test
  void onReplaceRequest_blockOfAFileOutsideTheClaimedDataset_refused() {
    start(CachePolicies.LFU_F);
    arbitrator.pin("/pinned", true);
    CacheDecision d = request("/pinned", 1, "job_1", "hdfs://nn:8020/mine/f");
    assertFalse(d.admitted());
    assertEquals("REJECTED_NOT_IN_DATASET", d.reason().name());
    assertTrue(arbitrator.datasets("/pinned"::equals).isEmpty(), "no read of /pinned counted");
    assertTrue(request("hdfs://nn:8020/mine", 1, "job_2", "hdfs://nn:8020/mine/f").admitted());
    assertTrue(request("/data/2024-*", 1, "job_3", "/data/2024-01/part-0").admitted());
  }

  @Test
  void onReplaceRequest_falseDatasetBlocks_quotaChargedPerBlockStored() {
    start(CachePolicies.LFU_F);
    arbitrator.setQuota(QuotaProto.Kind.DIR, "/q", 2 * BLOCK);
    assertTrue(request("/q/a", 1, "job_1", "/q/a/f").admitted());
    assertTrue(request("/q/a", 1, "job_1", "/q/a/f").admitted());
    CacheDecision third = request("/q/a", 1, "job_1", "/q/a/f");
    assertEquals(CacheDecision.Reason.REJECTED_QUOTA, third.reason());
    assertEquals(2 * BLOCK, arbitrator.controls().getQuotas(0).getUsedBytes());
  }

  @Test
  void onReplaceRequest_fileUnderAnExcludedDirectoryOfTheDataset_refusedAsExcluded() {
    start(CachePolicies.LFU_F);
    arbitrator.setAdmissionFilter(new AdmissionFilter(List.of(), List.of("/data/staging")));
    assertEquals(CacheDecision.Reason.REJECTED_EXCLUDED,
        request("/data", 2, "job_1", "/data/staging/f").reason());
    assertTrue(request("/data", 2, "job_1", "/data/t/f").admitted());
  }

  @Test
  void onHits_blockOfAnotherDataset_doesNotExtendTheClaimedTimeToLive() {
    start(CachePolicies.MPCACHE);
    arbitrator.setTtl("/t", 5_000);
    read("/t/a", 2, "job_1");
    read("/mine", 1, "job_2");
    clock.set(4_000);
    // A reader of its own block (key 3, of /mine) claims the dataset /t/a for it.
    hit(3, "/t/a", "job_3");
    assertEquals(6_000, dataset("/t/a").getExpiresAtMs());
    clock.set(6_000);
    assertEquals(List.of(key(1), key(2)),
        arbitrator.takeEvictions(SLAVE).stream().sorted().toList(), "/t/a expired");
  }

  @Test
  void onHits_blockOfAnotherDataset_countsForTheBlocksOwnDataset() {
    start(CachePolicies.LFU_F);
    read("/t/a", 2, "job_1");
    read("/mine", 1, "job_2");
    clock.set(4_000);
    hit(3, "/t/a", "job_3");
    assertEquals(1_000, dataset("/t/a").getLastAccessMs());
    assertEquals(4_000, dataset("/mine").getLastAccessMs());
  }

  @Test
  void restoreControls_exported_equalAndEnforced() {
    start(CachePolicies.LFU_F);
    arbitrator.pin("/p", true);
    arbitrator.setTtl("/t/", 60_000);
    arbitrator.setQuota(QuotaProto.Kind.DIR, "/q", 5 * BLOCK);
    MasterStateProto.Builder state = MasterStateProto.newBuilder().setWrittenMs(1);
    arbitrator.exportControls(state);
    ControlsProto before = arbitrator.controls();

    start(CachePolicies.LFU_F);
    assertEquals(0, arbitrator.controls().getPinsCount());
    arbitrator.restoreControls(state.build());
    assertEquals(before, arbitrator.controls());
    assertEquals("/t", before.getTtls(0).getPath());
    read("/p/a", 4, "job_1");
    assertEquals(CacheDecision.Reason.REJECTED_PINNED, read("/other", 1, "job_2"));
  }

  @Test
  void restoreControls_malformed_namesTheSectionAndKeepsWhatWasThere() {
    start(CachePolicies.LFU_F);
    arbitrator.pin("/kept", true);
    MasterStateProto bad = MasterStateProto.newBuilder().setWrittenMs(1).addPins("/ok")
        .addQuotas(QuotaProto.newBuilder().setKind(QuotaProto.Kind.DIR).setName("relative")
            .setLimitBytes(10)).build();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> arbitrator.restoreControls(bad));
    assertTrue(e.getMessage().startsWith("quotas: DIR relative:"), e.getMessage());
    assertEquals(List.of("/kept"), arbitrator.controls().getPinsList());
  }

  @Test
  void pin_relativePath_refused() {
    start(CachePolicies.LFU_F);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> arbitrator.pin("data/x", true));
    assertTrue(e.getMessage().contains("must be absolute"), e.getMessage());
    assertFalse(arbitrator.pin("/x", false));
  }
}
