package org.mpcache.slave;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.slave.SlaveFixture.RPC_TIMEOUT_MS;
import static org.mpcache.slave.SlaveFixture.UNIT;
import static org.mpcache.slave.SlaveFixture.waitFor;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.util.Time;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.ClientSlaveProtos.LookupRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.LookupResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReadRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReadResponseProto;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.proto.MpCacheProtos.JobSpaceUsageProto;
import org.mpcache.common.proto.MpCacheProtos.JobSpacePredictionProto;
import org.mpcache.common.proto.MpCacheProtos.JobSpaceQueryProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveInfoProto;
import org.mpcache.common.proto.MpCacheProtos.SpaceReportProto;
import org.mpcache.common.proto.SlaveMasterProtos.BlockReportRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.HeartbeatRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.HeartbeatResponseProto;
import org.mpcache.common.proto.SlaveMasterProtos.HitReportRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.PrefetchCommandProto;
import org.mpcache.common.proto.SlaveMasterProtos.ReclaimRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.RegisterSlaveRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.RegisterSlaveResponseProto;
import org.mpcache.common.proto.SlaveMasterProtos.ReplaceRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.ReplaceResponseProto;
import org.mpcache.common.proto.SlaveMasterProtos.UnregisterSlaveRequestProto;
import org.mpcache.common.protocolPB.ClientSlaveProtocolPB;
import org.mpcache.common.protocolPB.LocalizedGrant;
import org.mpcache.common.protocolPB.LocalizedJob;
import org.mpcache.common.protocolPB.LocalizedProtocolClientSideTranslatorPB;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.common.protocolPB.RpcSupport;
import org.mpcache.slave.cache.FillAdmission;
import org.mpcache.slave.cache.FillRequest;
import org.mpcache.slave.master.MasterLink;

/**
 * The slave's side of the slave-master protocol, against a {@link FakeMaster}: registration,
 * heartbeats with the SSD split and counters, block and hit reports, replace and reclaim answers
 * carried out, re-registration, unregistration on stop, and serving cached blocks while the master
 * fails, hangs or is down.
 */
class SlaveMasterLinkTest {
  private static final int BLOCK = 200_000;
  private static final String APP = "application_1_0001";
  private static final BlockKey K1 = new BlockKey("BP-1", 1, 1);
  private static final BlockKey K2 = new BlockKey("BP-1", 2, 1);
  private static final BlockKey K3 = new BlockKey("BP-1", 3, 1);
  private static final BlockKey K4 = new BlockKey("BP-1", 4, 1);

  @TempDir
  Path dir;
  private SlaveFixture fixture;
  private FakeMaster master;
  private MpCacheSlave slave;
  private ClientSlaveProtocolPB client;
  private LocalizedProtocolClientSideTranslatorPB localized;
  private final Random random = new Random(7);

  @BeforeEach
  void start() throws IOException {
    fixture = new SlaveFixture(dir);
    master = fixture.master();
    slave = fixture.slave();
    client = fixture.client();
    localized = fixture.localized();
  }

  @AfterEach
  void stop() {
    if (fixture != null) {
      fixture.close();
    }
  }

  private void awaitRegistration() throws InterruptedException {
    fixture.awaitRegistration();
  }

  private static BlockAccessProto access(BlockKey key, String dataset, int datasetBlocks) {
    return SlaveFixture.access(key, BLOCK, dataset, datasetBlocks).build();
  }

  /** Caches one block as the slave's own fill would; returns its bytes. */
  private byte[] cache(BlockKey key, String dataset, int datasetBlocks) throws IOException {
    byte[] data = new byte[BLOCK];
    random.nextBytes(data);
    assertTrue(fixture.fill(access(key, dataset, datasetBlocks), data));
    return data;
  }

  /** Reads 1000 bytes at 70 000 through the client protocol and checks them against {@code data}. */
  private void assertReads(BlockKey key, byte[] data) throws IOException {
    ReadResponseProto r = RpcSupport.call(() -> client.read(null, ReadRequestProto.newBuilder()
        .setBlock(ProtoConverters.toProto(key)).setOffset(70_000).setLength(1000).build()));
    byte[] got = r.getData().toByteArray();
    assertTrue(r.getOffset() <= 70_000 && r.getOffset() + got.length >= 71_000,
        "the read covers the range asked for");
    byte[] want = new byte[got.length];
    System.arraycopy(data, (int) r.getOffset(), want, 0, got.length);
    assertArrayEquals(want, got);
  }

  /** Asks for the block's admission as the slave's fill of a reader's miss does. */
  private FillAdmission.Result admit(BlockKey key) {
    return fixture.admission().admit(FillRequest.of(access(key, "/x", 1),
        SlaveFixture.UNREACHABLE_HDFS + "/x/part-0", 0));
  }

  private List<BlockKey> reportedCached() {
    List<BlockKey> out = new ArrayList<>();
    for (BlockReportRequestProto r : master.received(BlockReportRequestProto.class)) {
      out.addAll(ProtoConverters.fromProtos(r.getCachedList()));
    }
    return out;
  }

  private List<BlockKey> reportedRemoved() {
    List<BlockKey> out = new ArrayList<>();
    for (BlockReportRequestProto r : master.received(BlockReportRequestProto.class)) {
      out.addAll(ProtoConverters.fromProtos(r.getRemovedList()));
    }
    return out;
  }

  private HeartbeatRequestProto lastHeartbeat() {
    List<HeartbeatRequestProto> hb = master.received(HeartbeatRequestProto.class);
    return hb.isEmpty() ? null : hb.get(hb.size() - 1);
  }

  /** Caches datasets /a (K1, K2) and /b (K3): the Input Cache and the whole pool are in use. */
  private void fillInputWithTwoDatasets() throws Exception {
    awaitRegistration();
    cache(K1, "/a", 2);
    cache(K2, "/a", 2);
    cache(K3, "/b", 1);
    assertEquals(2L * UNIT, slave.getLocalizedCache().snapshot().poolLentToInput());
    waitFor(() -> reportedCached().size() == 3, "block reports of the three blocks");
  }

  @Test
  void start_registersWithItsIdClientPortAndCapacity() throws Exception {
    awaitRegistration();
    List<RegisterSlaveRequestProto> regs = master.received(RegisterSlaveRequestProto.class);
    assertEquals(1, regs.size());
    SlaveInfoProto info = regs.get(0).getSlave();
    int port = slave.info().getClientPort();
    assertEquals("127.0.0.1:" + port, info.getSlaveId());
    assertEquals("127.0.0.1", info.getHost());
    assertEquals(port, info.getClientPort());
    assertFalse(info.getVersion().isEmpty(), "the slave tells its version");
    assertEquals(4L * UNIT, regs.get(0).getSpace().getCapacity());
    assertEquals(0, regs.get(0).getCachedBlocksCount(), "a fresh SSD has nothing to hand back");
  }

  @Test
  void heartbeat_carriesTheSpaceSplitAndCounters() throws Exception {
    awaitRegistration();
    waitFor(() -> master.received(HeartbeatRequestProto.class).size() >= 2,
        "heartbeats at the 50 ms interval the register response set");
    byte[] data = cache(K1, "/a", 2);
    cache(K2, "/a", 2);
    assertReads(K1, data);
    waitFor(() -> lastHeartbeat().getSpace().getPoolLentToInput() == UNIT
        && lastHeartbeat().getCounters().getBytesFromCache() == 1000,
        "the split and the counters in a heartbeat");
    HeartbeatRequestProto hb = lastHeartbeat();
    assertEquals(slave.info().getSlaveId(), hb.getSlaveId());
    SpaceReportProto space = hb.getSpace();
    assertEquals(4L * UNIT, space.getCapacity());
    assertEquals(UNIT, space.getInputCacheCapacity());
    assertEquals(2L * BLOCK, space.getInputCacheUsed());
    assertEquals(2L * UNIT, space.getDynamicPoolCapacity());
    assertEquals(0, space.getPoolLentToLocalized());
    assertEquals(2, hb.getCounters().getBlocksCached());
    assertEquals(0, hb.getCounters().getBlocksEvicted());
  }

  @Test
  void fill_reportsTheBlockAfterAskingTheMasterToReplace() throws Exception {
    awaitRegistration();
    cache(K1, "/a", 2);
    List<ReplaceRequestProto> asked = master.received(ReplaceRequestProto.class);
    assertEquals(1, asked.size());
    assertEquals(access(K1, "/a", 2), asked.get(0).getAccess(), "the reader's access as sent");
    assertEquals(slave.info().getSlaveId(), asked.get(0).getSlaveId());
    assertEquals(3L * UNIT, asked.get(0).getFreeBytes(), "Input Cache plus free pool units");
    waitFor(() -> reportedCached().contains(K1), "the block report");
    assertEquals(List.of(K1), reportedCached());
    assertEquals(List.of(), reportedRemoved());
  }

  @Test
  void replace_cacheFull_evictsWhatTheMasterNamesAndReportsIt() throws Exception {
    awaitRegistration();
    cache(K1, "/a", 4);
    cache(K2, "/a", 4);
    cache(K3, "/a", 4);
    master.admitNextReplaceEvicting(K1);
    cache(K4, "/a", 4);
    List<ReplaceRequestProto> asked = master.received(ReplaceRequestProto.class);
    assertEquals(4, asked.size());
    assertEquals(3L * UNIT - 3L * BLOCK, asked.get(3).getFreeBytes(),
        "the slave told the master the block does not fit");
    assertEquals(List.of(K2, K3, K4), sorted(slave.getStore().cachedBlocks()));
    assertTrue(slave.getStore().blockFile(K1).isEmpty(), "the evicted block's file is deleted");
    waitFor(() -> reportedRemoved().contains(K1) && reportedCached().contains(K4),
        "the eviction and the new block in block reports");
    assertEquals(List.of(K1), reportedRemoved());
    waitFor(() -> lastHeartbeat().getCounters().getBlocksEvicted() == 1,
        "the eviction counted in a heartbeat");
  }

  @Test
  void replace_notAdmitted_missesWithTheMastersReasonAndCachesNothing() throws Exception {
    awaitRegistration();
    master.scriptReplaces(ReplaceResponseProto.newBuilder().setAdmitted(false)
        .setReason("scripted: too cold").build());
    FillAdmission.Result r = admit(K1);
    assertFalse(r.admitted());
    assertTrue(r.missReason().contains("scripted: too cold"), r.missReason());
    assertTrue(slave.getStore().state(K1).isEmpty(), "no fill opened");
    assertTrue(slave.getStore().cachedBlocks().isEmpty());
  }

  @Test
  void lookup_hit_isReportedToTheMaster() throws Exception {
    awaitRegistration();
    cache(K1, "/a", 2);
    LookupResponseProto r = RpcSupport.call(() -> client.lookup(null,
        LookupRequestProto.newBuilder().setAccess(access(K1, "/a", 2)).build()));
    assertEquals(LookupResponseProto.Status.HIT, r.getStatus());
    assertEquals(BLOCK, r.getLength());
    waitFor(() -> !master.received(HitReportRequestProto.class).isEmpty(), "a hit report");
    HitReportRequestProto hits = master.received(HitReportRequestProto.class).get(0);
    assertEquals(slave.info().getSlaveId(), hits.getSlaveId());
    assertEquals(List.of(access(K1, "/a", 2)), hits.getHitsList());
  }

  @Test
  void heartbeat_answeredReregister_registersAgainWithItsCachedBlocks() throws Exception {
    awaitRegistration();
    cache(K1, "/a", 2);
    cache(K2, "/a", 2);
    master.reregisterAtNextHeartbeat();
    waitFor(() -> master.received(RegisterSlaveRequestProto.class).size() == 2,
        "a second registration");
    RegisterSlaveRequestProto again = master.received(RegisterSlaveRequestProto.class).get(1);
    assertEquals(slave.info().getSlaveId(), again.getSlave().getSlaveId());
    assertEquals(List.of(K1, K2), sorted(again.getCachedBlocksList().stream()
        .map(b -> ProtoConverters.fromProto(b.getBlock())).toList()));
    for (var held : again.getCachedBlocksList()) {
      assertEquals("/a", held.getDatasetId(), "the dataset it was cached for");
      assertEquals(2, held.getDatasetBlocks());
      assertEquals(BLOCK, held.getLength());
    }
    assertEquals(2L * BLOCK, again.getSpace().getInputCacheUsed());
    awaitRegistration();
  }

  @Test
  void register_evictList_dropsThoseBlocksAndKeepsTheRest() throws Exception {
    awaitRegistration();
    cache(K1, "/a", 2);
    cache(K2, "/a", 2);
    master.setRegisterResponse(RegisterSlaveResponseProto.newBuilder()
        .setHeartbeatIntervalMs(50).addEvict(ProtoConverters.toProto(K1)).build());
    master.reregisterAtNextHeartbeat();
    waitFor(() -> !slave.getStore().cachedBlocks().contains(K1),
        "the block the master did not want back evicted");
    assertEquals(List.of(K2), slave.getStore().cachedBlocks());
    waitFor(() -> reportedRemoved().contains(K1), "the removal reported");
  }

  @Test
  void heartbeat_evictList_removesTheBlocksAndReportsThem() throws Exception {
    awaitRegistration();
    cache(K1, "/a", 2);
    cache(K2, "/a", 2);
    master.scriptHeartbeats(HeartbeatResponseProto.newBuilder()
        .addEvict(ProtoConverters.toProto(K2)).build());
    waitFor(() -> reportedRemoved().contains(K2), "the queued eviction carried out and reported");
    assertEquals(List.of(K1), slave.getStore().cachedBlocks());
    assertEquals(List.of(K2), reportedRemoved());
  }

  @Test
  void stop_unregistersAtOnce() throws Exception {
    awaitRegistration();
    String id = slave.info().getSlaveId();
    slave.stop();
    List<UnregisterSlaveRequestProto> bye = master.received(UnregisterSlaveRequestProto.class);
    assertEquals(1, bye.size(), "unregistered before stop() returned");
    assertEquals(id, bye.get(0).getSlaveId());
  }

  @Test
  void stop_linkToldNotToUnregister_leavesSilently() throws Exception {
    awaitRegistration();
    slave.getMasterLink().setUnregisterOnStop(false);
    slave.stop();
    assertTrue(master.received(UnregisterSlaveRequestProto.class).isEmpty());
  }

  @Test
  void requestSpace_needingInputRoom_deletesExactlyTheBlocksTheMasterNames() throws Exception {
    fillInputWithTwoDatasets();
    master.scriptReclaim(K1, K2);
    LocalizedGrant g = localized.requestSpace(APP, "c1", "m0", UNIT + 50_000,
        new LocalizedJob("sort", 3L * BLOCK));
    assertTrue(g.isGranted(), g.toString());
    List<ReclaimRequestProto> asked = master.received(ReclaimRequestProto.class);
    assertEquals(1, asked.size());
    assertEquals(slave.info().getSlaveId(), asked.get(0).getSlaveId());
    assertEquals(50_000, asked.get(0).getBytes(), "what the Localized Cache and pool lack");
    assertEquals(List.of(K3), slave.getStore().cachedBlocks());
    assertTrue(slave.getStore().blockFile(K1).isEmpty() && slave.getStore().blockFile(K2)
        .isEmpty(), "the named blocks' files are deleted");
    assertEquals(UNIT, slave.getLocalizedCache().snapshot().poolLentToLocalized());
    waitFor(() -> reportedRemoved().size() == 2, "the exclusions in block reports");
    assertEquals(List.of(K1, K2), sorted(reportedRemoved()));
  }

  @Test
  void requestSpace_masterNamesNothing_isDeniedAndInputStays() throws Exception {
    fillInputWithTwoDatasets();
    LocalizedGrant g = localized.requestSpace(APP, "c1", "m0", UNIT + 50_000,
        LocalizedJob.UNKNOWN);
    assertFalse(g.isGranted(), g.toString());
    assertEquals(1, master.received(ReclaimRequestProto.class).size(), "the master was asked");
    assertEquals(List.of(K1, K2, K3), sorted(slave.getStore().cachedBlocks()));
    assertEquals(0, slave.getLocalizedCache().snapshot().poolLentToLocalized());
    assertEquals(List.of(), reportedRemoved());
  }

  @Test
  void requestSpace_reclaimFails_isDeniedAndInputStays() throws Exception {
    fillInputWithTwoDatasets();
    master.setFault(ReclaimRequestProto.class, FakeMaster.Fault.FAIL);
    LocalizedGrant g = localized.requestSpace(APP, "c1", "m0", UNIT + 50_000,
        LocalizedJob.UNKNOWN);
    assertFalse(g.isGranted(), g.toString());
    assertEquals(1, master.received(ReclaimRequestProto.class).size());
    assertEquals(List.of(K1, K2, K3), sorted(slave.getStore().cachedBlocks()));
  }

  @Test
  void requestSpace_reclaimHangs_isDeniedAfterTheRpcTimeoutAndInputStays() throws Exception {
    fillInputWithTwoDatasets();
    master.setFault(ReclaimRequestProto.class, FakeMaster.Fault.HANG);
    long t0 = Time.monotonicNow();
    LocalizedGrant g = localized.requestSpace(APP, "c1", "m0", UNIT + 50_000,
        LocalizedJob.UNKNOWN);
    long waited = Time.monotonicNow() - t0;
    assertFalse(g.isGranted(), g.toString());
    assertTrue(waited >= RPC_TIMEOUT_MS - 100 && waited < 10_000,
        "bounded by the RPC timeout: " + waited);
    assertEquals(List.of(K1, K2, K3), sorted(slave.getStore().cachedBlocks()));
  }

  @Test
  void applicationFinished_jobsLocalizedPeakReachesTheMasterInAHeartbeat() throws Exception {
    awaitRegistration();
    assertTrue(localized.requestSpace(APP, "c1", "m0", 100_000,
        new LocalizedJob("sort", 3L * BLOCK)).isGranted());
    localized.applicationFinished(APP);
    waitFor(() -> master.received(HeartbeatRequestProto.class).stream()
        .anyMatch(h -> h.getFinishedJobsCount() > 0), "the finished job in a heartbeat");
    List<JobSpaceUsageProto> jobs = new ArrayList<>();
    master.received(HeartbeatRequestProto.class).forEach(h -> jobs.addAll(h.getFinishedJobsList()));
    assertEquals(List.of(JobSpaceUsageProto.newBuilder().setJobType("sort")
        .setInputBytes(3L * BLOCK).setLocalizedBytes(100_000).build()), jobs);
  }

  @Test
  void jobStart_questionSurvivesAFailedHeartbeat_andTheAnswerLendsThePredictedNeed()
      throws Exception {
    awaitRegistration();
    LocalizedJob sort = new LocalizedJob("sort", 3L * BLOCK);
    JobSpaceQueryProto asked = JobSpaceQueryProto.newBuilder().setJobType("sort")
        .setInputBytes(3L * BLOCK).build();
    master.setFault(HeartbeatRequestProto.class, FakeMaster.Fault.FAIL);
    assertTrue(localized.requestSpace(APP, "c1", "m0", 10_000, sort).isGranted(),
        "granted without waiting for the master");
    waitFor(() -> master.received(HeartbeatRequestProto.class).stream()
        .anyMatch(h -> h.getStartedJobsList().contains(asked)), "the question in a heartbeat");
    JobSpacePredictionProto answer = JobSpacePredictionProto.newBuilder().setJobType("sort")
        .setInputBytes(3L * BLOCK).setLocalizedBytes(UNIT + 50_000).setFromHistory(true).build();
    master.scriptHeartbeats(HeartbeatResponseProto.newBuilder()
        .addPredictions(answer.toBuilder().setLocalizedBytes(-1)) // 2^64 - 1 on the wire
        .addPredictions(answer).build());
    master.setFault(HeartbeatRequestProto.class, FakeMaster.Fault.NONE);
    waitFor(() -> master.received(HeartbeatRequestProto.class).stream()
        .filter(h -> h.getStartedJobsList().contains(asked)).count() == 2,
        "the question asked again after the failure");
    waitFor(() -> slave.getLocalizedCache().snapshot().poolLentToLocalized() == UNIT,
        "one pool unit lent for the predicted need");
    waitFor(() -> master.received(HeartbeatRequestProto.class).stream()
        .anyMatch(h -> h.getPredictionsInUseList().equals(List.of(answer))),
        "the prediction in use in a heartbeat");
    assertEquals(1, slave.getLocalizedCache().predictionsApplied(), "the malformed one skipped");
  }

  @Test
  void masterFailing_slaveKeepsServingCachedBlocksAndAsksForNoFill() throws Exception {
    awaitRegistration();
    byte[] data = cache(K1, "/a", 2);
    master.setFault(HeartbeatRequestProto.class, FakeMaster.Fault.FAIL);
    waitFor(() -> !slave.getMasterLink().isMasterReachable(), "the link to notice the failure");
    int replaces = master.received(ReplaceRequestProto.class).size();
    assertReads(K1, data);
    FillAdmission.Result miss = admit(K2);
    assertFalse(miss.admitted(), "no fill without the master's consent");
    assertTrue(miss.missReason().contains("master unreachable"), miss.missReason());
    assertEquals(replaces, master.received(ReplaceRequestProto.class).size(),
        "no replace request while the master does not answer");
    int heartbeats = master.received(HeartbeatRequestProto.class).size();
    waitFor(() -> master.received(HeartbeatRequestProto.class).size() > heartbeats,
        "the link to keep trying");
    assertEquals(1, master.received(RegisterSlaveRequestProto.class).size(),
        "an error answer is no reason to register again");
  }

  @Test
  void heartbeat_answeredAfterTheRpcTimeout_linkStaysRegisteredAndKeepsItsBlocks()
      throws Exception {
    awaitRegistration();
    byte[] data = cache(K1, "/a", 2);
    master.setFault(HeartbeatRequestProto.class, FakeMaster.Fault.SLOW);
    waitFor(() -> !slave.getMasterLink().isMasterReachable(), "a heartbeat timed out");
    assertReads(K1, data);
    master.setFault(HeartbeatRequestProto.class, FakeMaster.Fault.NONE);
    waitFor(() -> slave.getMasterLink().isMasterReachable(), "the master answering again");
    assertEquals(1, master.received(RegisterSlaveRequestProto.class).size(),
        "a timeout is no reason to register again");
    assertEquals(List.of(K1), slave.getStore().cachedBlocks());
    assertEquals(List.of(), reportedRemoved());
    FillAdmission.Result again = admit(K2);
    assertTrue(again.admitted(), () -> again.missReason());
    again.fill().abort();
    assertEquals(2, master.received(ReplaceRequestProto.class).size(),
        "fills are asked for again once the master answers");
  }

  @Test
  void heartbeat_firstAnswerAfterAnOutageCarriesAPrefetch_thePrefetchAsksTheMaster()
      throws Exception {
    awaitRegistration();
    master.setFault(HeartbeatRequestProto.class, FakeMaster.Fault.FAIL);
    waitFor(() -> !slave.getMasterLink().isMasterReachable(), "the link to notice the failure");
    master.scriptHeartbeats(HeartbeatResponseProto.newBuilder()
        .addPrefetch(PrefetchCommandProto.newBuilder().setAccess(access(K2, "/p", 1))
            .setPath("/p/f").setOffset(0)).build());
    master.setFault(HeartbeatRequestProto.class, FakeMaster.Fault.NONE);
    // The command comes with the master's first answer: the master answers, so the prefetch's
    // replace request must not be refused as "the master did not answer the last call".
    waitFor(() -> master.received(ReplaceRequestProto.class).stream()
        .anyMatch(r -> r.getAccess().getBlock().equals(ProtoConverters.toProto(K2))),
        "the prefetch's replace request");
  }

  @Test
  void masterDown_hitsQueueForItUpToABound() throws Exception {
    awaitRegistration();
    master.close();
    waitFor(() -> !slave.getMasterLink().isMasterReachable(),
        "the link to notice the master is gone");
    // Hits on cached blocks go on while the master is away: their reports wait, bounded. (Each
    // attempt to register again drops those waiting, so fewer may wait; never more.)
    for (int i = 0; i < 3 * MasterLink.MAX_QUEUED_HITS; i++) {
      slave.getMasterLink().reportHit(access(K1, "/a", 2));
    }
    int queued = slave.getMasterLink().hitsQueued();
    assertTrue(queued <= MasterLink.MAX_QUEUED_HITS, queued + " hits wait for the master");
    assertTrue(slave.getMasterLink().hitsDropped() > 0, "the hits beyond the bound dropped");
  }

  @Test
  void masterDown_slaveKeepsServingCachedBlocks() throws Exception {
    awaitRegistration();
    byte[] data = cache(K1, "/a", 2);
    master.close();
    waitFor(() -> !slave.getMasterLink().isMasterReachable(),
        "the link to notice the master is gone");
    assertReads(K1, data);
    assertEquals(LookupResponseProto.Status.HIT, RpcSupport.call(() -> client.lookup(null,
        LookupRequestProto.newBuilder().setAccess(access(K1, "/a", 2)).build())).getStatus());
  }

  @Test
  void masterHanging_admissionRefusedAfterTheRpcTimeout_readsGoOn() throws Exception {
    awaitRegistration();
    byte[] data = cache(K1, "/a", 2);
    master.setFault(ReplaceRequestProto.class, FakeMaster.Fault.HANG);
    long t0 = Time.monotonicNow();
    CompletableFuture<FillAdmission.Result> hung = CompletableFuture.supplyAsync(() -> admit(K2));
    waitFor(() -> master.received(ReplaceRequestProto.class).size() == 2,
        "the replace request to reach the hanging master");
    // Hadoop's RPC timeout is a read timeout of the connection the link's heartbeats share: it
    // only fires once the whole master falls silent, so hang every call, not only this one.
    master.setFaultForAll(FakeMaster.Fault.HANG);
    assertReads(K1, data);
    FillAdmission.Result miss = hung.get(10, TimeUnit.SECONDS);
    long waited = Time.monotonicNow() - t0;
    assertFalse(miss.admitted());
    assertTrue(miss.missReason().contains("master unreachable"), miss.missReason());
    assertTrue(waited >= RPC_TIMEOUT_MS - 100, "the slave waited its RPC timeout: " + waited);
    assertEquals(List.of(K1), slave.getStore().cachedBlocks());
    assertReads(K1, data);
  }

  @Test
  void replaceHangs_heartbeatsStillFlowing_admissionRefusedAfterTheRpcTimeout() throws Exception {
    awaitRegistration();
    byte[] data = cache(K1, "/a", 2);
    master.setFault(ReplaceRequestProto.class, FakeMaster.Fault.HANG);
    long t0 = Time.monotonicNow();
    FillAdmission.Result miss =
        CompletableFuture.supplyAsync(() -> admit(K2)).get(10, TimeUnit.SECONDS);
    long waited = Time.monotonicNow() - t0;
    int heartbeats = master.received(HeartbeatRequestProto.class).size();
    waitFor(() -> master.received(HeartbeatRequestProto.class).size() > heartbeats,
        "heartbeats on the connection while the replace hangs");
    assertFalse(miss.admitted());
    assertTrue(miss.missReason().contains("master unreachable"), miss.missReason());
    assertTrue(waited >= RPC_TIMEOUT_MS - 100, "the slave waited its RPC timeout: " + waited);
    assertEquals(List.of(K1), slave.getStore().cachedBlocks());
    assertReads(K1, data);
  }

  private static List<BlockKey> sorted(List<BlockKey> keys) {
    List<BlockKey> s = new ArrayList<>(keys);
    s.sort(null);
    return s;
  }
}
