package org.mpcache.master.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hadoop.thirdparty.protobuf.ServiceException;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mpcache.master.arbitrator.BlockAccess;
import org.mpcache.common.proto.SlaveMasterProtos.ReplaceRequestProto;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.proto.MpCacheProtos.JobSpacePredictionProto;
import org.mpcache.common.proto.MpCacheProtos.JobSpaceQueryProto;
import org.mpcache.common.proto.MpCacheProtos.JobSpaceUsageProto;
import org.mpcache.common.proto.MpCacheProtos.BlockKeyProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveInfoProto;
import org.mpcache.common.proto.MpCacheProtos.SpaceReportProto;
import org.mpcache.common.proto.SlaveMasterProtos.BlockReportRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.BlockReportResponseProto;
import org.mpcache.common.proto.SlaveMasterProtos.HitReportRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.HeartbeatRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.HeartbeatResponseProto;
import org.mpcache.common.proto.SlaveMasterProtos.HitReportResponseProto;
import org.mpcache.common.proto.SlaveMasterProtos.RegisterSlaveRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.UnregisterSlaveRequestProto;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.common.protocolPB.RequestRefusedException;
import org.mpcache.common.protocolPB.SlaveFigures;
import org.mpcache.master.admin.PrefetchPlanner;
import org.mpcache.master.adoption.AdoptionChecker;
import org.mpcache.master.adoption.GenerationStamps;
import org.mpcache.master.arbitrator.CachePolicies;
import org.mpcache.master.arbitrator.PolicyParameters;
import org.mpcache.master.arbitrator.ReplaceArbitrator;
import org.mpcache.master.registry.SlaveAdmission;
import org.mpcache.master.registry.SlaveAdmission.Caller;
import org.mpcache.master.registry.SlaveIdentity;
import org.mpcache.master.registry.SlaveRefusals;
import org.mpcache.master.registry.SlaveRegistry;
import org.mpcache.master.space.DynamicSpaceManager;
import org.mpcache.master.status.ArbitratorStats;

/**
 * The master's handling of slaves' hit and block reports that carry bad items: each bad item is
 * skipped and counted, the rest of the batch is applied, and the slave stays registered. And the
 * binding of a slave id to the identity that registered it: calls under it from anyone else are
 * refused, counted and leave the slave as it was.
 */
class SlaveMasterHandlerTest {
  private static final String SLAVE = "host1:50121";
  private static final BlockKey K1 = new BlockKey("BP-1", 1, 1);
  private static final BlockKey K2 = new BlockKey("BP-1", 2, 1);

  private static final InetAddress HOST1 = address("10.0.0.1");
  private static final Caller THE_SLAVE = new Caller("mpcache", "mpcache", false, false, HOST1);

  private SlaveRegistry registry;
  private ReplaceArbitrator arbitrator;
  private SlaveMasterHandler handler;
  private SlaveRefusals refusals;
  /** Who calls the handler next. */
  private Caller caller = THE_SLAVE;
  /** The host names the gate resolved, in order. */
  private final List<String> resolved = new CopyOnWriteArrayList<>();

  private static InetAddress address(String literal) {
    try {
      return InetAddress.getByName(literal);
    } catch (UnknownHostException e) {
      throw new AssertionError(e);
    }
  }

  @BeforeEach
  void setUp() throws Exception {
    registry = new SlaveRegistry(() -> 0L, 60_000);
    arbitrator = new ReplaceArbitrator(
        p -> CachePolicies.create(CachePolicies.MPCACHE, PolicyParameters.defaults(), p), registry,
        100, new ArbitratorStats(), () -> 1_000L);
    registry.readHoldingsFrom(arbitrator.holdings());
    refusals = new SlaveRefusals();
    SlaveGate gate = new SlaveGate(registry,
        new SlaveAdmission(null, List.of("mpcache"), true, a -> false), refusals, () -> caller,
        host -> {
          resolved.add(host);
          return host.equals("host1") ? List.of(HOST1) : List.of();
        });
    handler = new SlaveMasterHandler(registry, gate, arbitrator,
        new PrefetchPlanner(() -> null, registry, arbitrator, 1, 1),
        new AdoptionChecker(GenerationStamps.NONE, (slaveId, stale) -> { }, 1, 0, () -> 0L),
        DynamicSpaceManager.inMemory(0.5),
        1_000, () -> 1_000L);
    handler.registerSlave(null, registration().build());
  }

  private static RegisterSlaveRequestProto.Builder registration() {
    return RegisterSlaveRequestProto.newBuilder().setSlave(SlaveInfoProto.newBuilder()
        .setSlaveId(SLAVE).setHost("host1").setClientPort(50121)).setSpace(SPACE);
  }

  private static final SpaceReportProto SPACE = SpaceReportProto.newBuilder()
      .setCapacity(1 << 30).setInputCacheCapacity(1 << 29).setInputCacheUsed(0)
      .setDynamicPoolCapacity(0).setPoolLentToInput(0).setPoolLentToLocalized(0)
      .setLocalizedCacheCapacity(1 << 29).setLocalizedCacheUsed(0).build();

  /** The refusal a call ended with, checked to be a one-line RequestRefusedException. */
  private static String refusal(Executable call) {
    ServiceException e = assertThrows(ServiceException.class, call);
    assertInstanceOf(RequestRefusedException.class, e.getCause());
    return e.getCause().getMessage();
  }

  private static BlockAccessProto.Builder hit(BlockKey key, String dataset) {
    return BlockAccessProto.newBuilder().setBlock(ProtoConverters.toProto(key))
        .setBlockBytes(1000).setDatasetId(dataset).setDatasetBlocks(2).setJobId("job_1");
  }

  private List<String> datasets() {
    return arbitrator.datasets(id -> true).stream().map(d -> d.getDatasetId()).toList();
  }

  @Test
  void registerSlave_idOfALiveSlaveFromAnotherUser_refusedAndTheSlaveKept() throws Exception {
    caller = new Caller("mallory", "mallory", false, false, HOST1);
    String m = refusal(() -> handler.registerSlave(null, registration().build()));
    assertTrue(m.contains(SLAVE) && m.contains("NOT_SLAVE_IDENTITY"), m);
    assertEquals(1, refusals.count(SlaveAdmission.Outcome.NOT_SLAVE_IDENTITY));
    assertEquals(Optional.of(new SlaveIdentity("mpcache", HOST1)), registry.holder(SLAVE));
  }

  @Test
  void registerSlave_byACallerWhoIsNotTheSlave_refusedBeforeAnyNameIsResolved() {
    resolved.clear();
    caller = new Caller("mallory", "mallory", false, false, HOST1);
    String m = refusal(() -> handler.registerSlave(null, RegisterSlaveRequestProto.newBuilder()
        .setSlave(SlaveInfoProto.newBuilder().setSlaveId("slow.attacker.example:1")
            .setHost("slow.attacker.example").setClientPort(1)
            .setDatanodeAddress("dn.attacker.example:9866")).setSpace(SPACE).build()));
    assertTrue(m.contains("NOT_SLAVE_IDENTITY"), m);
    assertEquals(List.of(), resolved, "names resolved for a caller who may not register");
  }

  @Test
  void registerSlave_sameIdentityAgain_replacesTheRegistration() throws Exception {
    handler.registerSlave(null, registration().setSpace(SPACE.toBuilder().setCapacity(1 << 20))
        .build());
    assertEquals(1 << 20, registry.space(SLAVE).orElseThrow().getCapacity());
    assertEquals(0, refusals.total());
  }

  @Test
  void heartbeat_startedJobs_answeredWithPredictions_fromHistoryOrColdStart() throws Exception {
    JobSpaceUsageProto sortRan = JobSpaceUsageProto.newBuilder().setJobType("sort")
        .setInputBytes(1 << 20).setLocalizedBytes(3 << 20).build();
    handler.heartbeat(null, HeartbeatRequestProto.newBuilder().setSlaveId(SLAVE).setSpace(SPACE)
        .setCounters(SlaveFigures.zeroCounters()).addFinishedJobs(sortRan).build());
    JobSpacePredictionProto inUse = JobSpacePredictionProto.newBuilder().setJobType("sort")
        .setInputBytes(1 << 20).setLocalizedBytes(3 << 20).setFromHistory(true).build();
    HeartbeatResponseProto r = handler.heartbeat(null, HeartbeatRequestProto.newBuilder()
        .setSlaveId(SLAVE).setSpace(SPACE).setCounters(SlaveFigures.zeroCounters())
        .addStartedJobs(JobSpaceQueryProto.newBuilder().setJobType("sort").setInputBytes(1 << 20))
        .addStartedJobs(JobSpaceQueryProto.newBuilder().setJobType("grep").setInputBytes(1 << 20))
        .addPredictionsInUse(inUse).build());
    assertEquals(List.of(inUse, JobSpacePredictionProto.newBuilder().setJobType("grep")
        .setInputBytes(1 << 20).setLocalizedBytes(1 << 29).setFromHistory(false).build()),
        r.getPredictionsList(), "sort's recorded peak; grep's the default half of the SSD");
    assertEquals(List.of(inUse), registry.report().get(0).getPredictionsList());
  }

  @Test
  void heartbeat_badStartedJobOrPredictionInUse_refusedNamingTheField() {
    String m = refusal(() -> handler.heartbeat(null, HeartbeatRequestProto.newBuilder()
        .setSlaveId(SLAVE).setSpace(SPACE).setCounters(SlaveFigures.zeroCounters())
        .addStartedJobs(JobSpaceQueryProto.newBuilder().setJobType("").setInputBytes(1)).build()));
    assertTrue(m.contains("startedJobs.jobType"), m);
    m = refusal(() -> handler.heartbeat(null, HeartbeatRequestProto.newBuilder()
        .setSlaveId(SLAVE).setSpace(SPACE).setCounters(SlaveFigures.zeroCounters())
        .addPredictionsInUse(JobSpacePredictionProto.newBuilder().setJobType("sort")
            .setInputBytes(1).setLocalizedBytes(-1).setFromHistory(true)).build()));
    assertTrue(m.contains("predictionsInUse.localizedBytes"), m);
    assertEquals(List.of(), registry.report().get(0).getPredictionsList(), "nothing kept");
  }

  @Test
  void heartbeat_underTheIdFromAnotherUser_refused() {
    caller = new Caller("mallory", "mallory", false, false, HOST1);
    String m = refusal(() -> handler.heartbeat(null, HeartbeatRequestProto.newBuilder()
        .setSlaveId(SLAVE).setSpace(SPACE).setCounters(SlaveFigures.zeroCounters()).build()));
    assertTrue(m.contains("heartbeat") && m.contains("NOT_THE_REGISTERED_SLAVE"), m);
  }

  @Test
  void unregisterSlave_fromTheSameUserOnAnotherHost_refusedAndStillRegistered() {
    caller = new Caller("mpcache", "mpcache", false, false, address("10.0.0.2"));
    refusal(() -> handler.unregisterSlave(null, UnregisterSlaveRequestProto.newBuilder()
        .setSlaveId(SLAVE).build()));
    assertTrue(registry.isRegistered(SLAVE));
    assertEquals(1, refusals.count(SlaveAdmission.Outcome.NOT_THE_REGISTERED_SLAVE));
  }

  @Test
  void requestReplace_blockFile_admittedOnlyForADatasetHoldingIt() throws Exception {
    ReplaceRequestProto.Builder req = ReplaceRequestProto.newBuilder().setSlaveId(SLAVE)
        .setAccess(hit(K1, "/a")).setFreeBytes(1 << 20);
    assertEquals("REJECTED_NOT_IN_DATASET",
        handler.requestReplace(null, req.build()).getReason(), "no path");
    assertEquals("REJECTED_NOT_IN_DATASET", handler.requestReplace(null,
        req.clone().setPath("/b/f").setOffset(0).build()).getReason(), "a file of /b for /a");
    assertEquals("REJECTED_NOT_IN_DATASET", handler.requestReplace(null,
        req.clone().setAccess(hit(K1, "/b")).setPath("/a/f").setOffset(0).build()).getReason(),
        "a file of /a for /b");
    assertTrue(refusal(() -> handler.requestReplace(null,
        req.clone().setPath("/a/f").setOffset(-1).build())).contains("offset"));
    assertTrue(handler.requestReplace(null, req.clone().setPath("/a/f").setOffset(0).build())
        .getAdmitted());
  }

  @Test
  void reportHits_badItems_skippedAndTheRestApplied() throws Exception {
    for (BlockKey k : List.of(K1, K2)) {
      String dataset = k.equals(K1) ? "/a" : "/b";
      arbitrator.onReplaceRequest(new BlockAccess(SLAVE, k, 1000, dataset, 2, "job_0", 500),
          1 << 20);
      arbitrator.onBlockReport(SLAVE, List.of(k), List.of());
    }
    HitReportResponseProto r = handler.reportHits(null, HitReportRequestProto.newBuilder()
        .setSlaveId(SLAVE)
        .addHits(hit(K1, "/a"))
        .addHits(hit(K2, "/zero-blocks").setDatasetBlocks(0))
        .addHits(hit(K2, "/huge-blocks").setDatasetBlocks(-1))
        .addHits(hit(K2, "/zero-bytes").setBlockBytes(0))
        .addHits(hit(K2, "/absurd-bytes").setBlockBytes(1L << 40))
        .addHits(hit(K2, "/absurd-dataset-bytes").setDatasetBytes(2 * (2L << 30) + 1))
        .addHits(hit(K2, "/negative-dataset-bytes").setDatasetBytes(-1))
        .addHits(hit(K2, ""))
        .addHits(hit(K2, "/b"))
        .build());
    assertFalse(r.getReregister(), "one bad item does not make the slave register again");
    assertEquals(List.of("/a", "/b"), datasets());
    assertEquals(List.of(1_000L, 1_000L), arbitrator.datasets(id -> true).stream()
        .map(d -> d.getLastAccessMs()).toList(), "the valid hits counted");
    assertTrue(registry.isRegistered(SLAVE));
    assertEquals(7, arbitrator.stats().invalidReportItems());
  }

  @Test
  void blockReport_badKey_skippedAndTheRestApplied() throws Exception {
    BlockKeyProto nul = BlockKeyProto.newBuilder().setBlockPoolId("BP-\u00001").setBlockId(3)
        .setGenerationStamp(1).build();
    BlockReportResponseProto r = handler.blockReport(null, BlockReportRequestProto.newBuilder()
        .setSlaveId(SLAVE).addCached(ProtoConverters.toProto(K1)).addCached(nul)
        .addCached(ProtoConverters.toProto(K2)).build());
    assertFalse(r.getReregister());
    assertEquals(List.of(K1, K2), registry.blocksOf(SLAVE).stream().sorted().toList());
    assertEquals(1, arbitrator.stats().invalidReportItems());
  }
}
