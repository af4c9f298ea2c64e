package org.mpcache.master.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.proto.MpCacheProtos.BlockKeyProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveInfoProto;
import org.mpcache.common.proto.MpCacheProtos.SpaceReportProto;
import org.mpcache.common.proto.SlaveMasterProtos.BlockReportRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.BlockReportResponseProto;
import org.mpcache.common.proto.SlaveMasterProtos.HitReportRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.HitReportResponseProto;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.master.admin.PrefetchPlanner;
import org.mpcache.master.arbitrator.CachePolicies;
import org.mpcache.master.arbitrator.PolicyParameters;
import org.mpcache.master.arbitrator.ReplaceArbitrator;
import org.mpcache.master.registry.SlaveRegistry;
import org.mpcache.master.space.DynamicSpaceManager;
import org.mpcache.master.status.ArbitratorStats;

/**
 * The master's handling of slaves' hit and block reports that carry bad items: each bad item is
 * skipped and counted, the rest of the batch is applied, and the slave stays registered.
 */
class SlaveMasterHandlerTest {
  private static final String SLAVE = "host1:50121";
  private static final BlockKey K1 = new BlockKey("BP-1", 1, 1);
  private static final BlockKey K2 = new BlockKey("BP-1", 2, 1);

  private SlaveRegistry registry;
  private ReplaceArbitrator arbitrator;
  private SlaveMasterHandler handler;

  @BeforeEach
  void setUp() {
    registry = new SlaveRegistry(() -> 0L, 60_000);
    arbitrator = new ReplaceArbitrator(
        p -> CachePolicies.create(CachePolicies.MPCACHE, PolicyParameters.defaults(), p), registry,
        100, new ArbitratorStats(), () -> 1_000L);
    registry.readHoldingsFrom(arbitrator.holdings());
    handler = new SlaveMasterHandler(registry, arbitrator,
        new PrefetchPlanner(() -> null, registry, arbitrator), DynamicSpaceManager.inMemory(0.5),
        1_000, () -> 1_000L);
    registry.register(SlaveInfoProto.newBuilder().setSlaveId(SLAVE).setHost("host1")
        .setClientPort(50121).build(), SpaceReportProto.newBuilder().setCapacity(1 << 30)
        .setInputCacheCapacity(1 << 29).setInputCacheUsed(0).setDynamicPoolCapacity(0)
        .setPoolLentToInput(0).setPoolLentToLocalized(0).setLocalizedCacheCapacity(1 << 29)
        .setLocalizedCacheUsed(0).build());
  }

  private static BlockAccessProto.Builder hit(BlockKey key, String dataset) {
    return BlockAccessProto.newBuilder().setBlock(ProtoConverters.toProto(key))
        .setBlockBytes(1000).setDatasetId(dataset).setDatasetBlocks(2).setJobId("job_1");
  }

  private List<String> datasets() {
    return arbitrator.datasets(id -> true).stream().map(d -> d.getDatasetId()).toList();
  }

  @Test
  void reportHits_badItems_skippedAndTheRestApplied() throws Exception {
    HitReportResponseProto r = handler.reportHits(null, HitReportRequestProto.newBuilder()
        .setSlaveId(SLAVE)
        .addHits(hit(K1, "/a"))
        .addHits(hit(K2, "/zero-blocks").setDatasetBlocks(0))
        .addHits(hit(K2, "/huge-blocks").setDatasetBlocks(-1))
        .addHits(hit(K2, "/zero-bytes").setBlockBytes(0))
        .addHits(hit(K2, "/absurd-bytes").setBlockBytes(1L << 40))
        .addHits(hit(K2, ""))
        .addHits(hit(K2, "/b"))
        .build());
    assertFalse(r.getReregister(), "one bad item does not make the slave register again");
    assertEquals(List.of("/a", "/b"), datasets());
    assertTrue(registry.isRegistered(SLAVE));
    assertEquals(5, arbitrator.stats().invalidReportItems());
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
