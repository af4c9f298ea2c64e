package org.mpcache.master.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.AdminProtos.CheckpointStatusProto;
import org.mpcache.common.proto.MasterStateProtos.PrefetchQueueProto;
import org.mpcache.common.proto.MasterStateProtos.QueuedPrefetchProto;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.proto.SlaveMasterProtos.PrefetchCommandProto;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.master.MasterConfigKeys;
import org.mpcache.master.admin.PrefetchPlanner;
import org.mpcache.master.arbitrator.BlockAccess;
import org.mpcache.master.arbitrator.CachePolicies;
import org.mpcache.master.arbitrator.PolicyParameters;
import org.mpcache.master.arbitrator.ReplaceArbitrator;
import org.mpcache.master.registry.SlaveRegistry;
import org.mpcache.master.status.ArbitratorStats;

/**
 * The checkpointer of a master's state directory: what one master leaves at stop, the next
 * restores at start; a checkpoint that cannot be read never stops a master.
 */
class MasterStateCheckpointerTest {
  private static final String SLAVE = "host1:50121";

  @TempDir
  Path dir;

  /** The parts of one master the checkpointer reads and restores. */
  private final class Master {
    final SlaveRegistry registry = new SlaveRegistry(() -> 0L, 60_000);
    final ReplaceArbitrator arbitrator;
    final PrefetchPlanner prefetch;
    final MasterStateCheckpointer checkpointer;

    Master(String policy, long maxBytes) {
      arbitrator = new ReplaceArbitrator(
          p -> CachePolicies.create(policy, PolicyParameters.defaults(), p), registry, 100,
          new ArbitratorStats(), () -> 1_000L);
      registry.readHoldingsFrom(arbitrator.holdings());
      prefetch = new PrefetchPlanner(() -> null, registry, arbitrator, 10, 10);
      checkpointer = new MasterStateCheckpointer(new MasterStateFile(dir, maxBytes), 3_600_000,
          arbitrator, registry, prefetch, () -> 42L);
      checkpointer.init(new Configuration(false));
      checkpointer.start();
    }
  }

  private static PrefetchCommandProto command(long block) {
    return PrefetchCommandProto.newBuilder().setAccess(BlockAccessProto.newBuilder()
        .setBlock(ProtoConverters.toProto(new BlockKey("BP-1", block, 1))).setBlockBytes(100)
        .setDatasetId("hdfs://nn/p").setDatasetBlocks(2).setJobId("prefetch-7"))
        .setPath("/p").setOffset(0).build();
  }

  @Test
  void stop_thenStart_restoresPolicyDecommissionsAndPrefetchQueue() {
    Master first = new Master(CachePolicies.MPCACHE, 1 << 20);
    first.arbitrator.onReplaceRequest(new BlockAccess(SLAVE, new BlockKey("BP-1", 1, 1), 100,
        "A", 2, "j1", 5), 1_000);
    first.registry.restoreDecommissioned(List.of(SLAVE));
    first.prefetch.restore(PrefetchQueueProto.newBuilder().setSequence(7)
        .addQueued(QueuedPrefetchProto.newBuilder().setSlaveId("host2:50121")
            .addCommands(command(5)).addCommands(command(6))).build());
    first.checkpointer.stop();
    assertEquals(1, first.checkpointer.written());

    Master second = new Master(CachePolicies.MPCACHE, 1 << 20);
    assertEquals(first.arbitrator.policyState(), second.arbitrator.policyState());
    assertTrue(second.registry.isDecommissioning(SLAVE));
    assertEquals(List.of(command(5), command(6)), second.prefetch.take("host2:50121"));
    assertEquals(7, second.prefetch.queueState().getSequence());
    assertTrue(second.checkpointer.status().getRestored().startsWith("1 datasets"),
        second.checkpointer.status().getRestored());
    assertEquals(42, second.checkpointer.status().getLastMs(), "the restored checkpoint's time");
    assertEquals(0, second.checkpointer.written());
    second.checkpointer.stop();
  }

  @Test
  void start_unreadableCheckpoint_isMovedAsideAndTheMasterRelearns() throws Exception {
    Files.writeString(dir.resolve(MasterStateFile.NAME), "not a checkpoint");
    Master m = new Master(CachePolicies.MPCACHE, 1 << 20);
    assertTrue(m.checkpointer.isInState(org.apache.hadoop.service.Service.STATE.STARTED));
    assertEquals("not a checkpoint",
        Files.readString(dir.resolve(MasterStateFile.NAME + ".corrupt")));
    assertTrue(m.checkpointer.status().getRestored().contains("bad magic"));
    assertEquals(0, m.arbitrator.policyState().getDatasetsCount());
    m.checkpointer.stop();
    assertTrue(new MasterStateFile(dir, 1 << 20).load().isPresent(), "checkpointed again");
  }

  @Test
  void start_invalidPolicyState_isMovedAsideAndNothingIsRestored() throws Exception {
    Master first = new Master(CachePolicies.MPCACHE, 1 << 20);
    first.registry.restoreDecommissioned(List.of(SLAVE));
    first.checkpointer.stop();
    MasterStateFile f = new MasterStateFile(dir, 1 << 20);
    var s = f.load().orElseThrow();
    f.save(s.toBuilder().setPolicy(s.getPolicy().toBuilder().addDatasets(
        org.mpcache.common.proto.MasterStateProtos.DatasetStateProto.newBuilder().setId("Z")
            .setSize(0))).build());

    Master second = new Master(CachePolicies.MPCACHE, 1 << 20);
    assertFalse(second.registry.isDecommissioning(SLAVE));
    assertTrue(Files.exists(dir.resolve(MasterStateFile.NAME + ".corrupt")));
    assertTrue(second.checkpointer.status().getRestored().contains("dataset Z"),
        second.checkpointer.status().getRestored());
    second.checkpointer.stop();
  }

  @Test
  void start_anotherPolicysState_isIgnoredAndTheRestRestored() {
    Master first = new Master(CachePolicies.GDSF, 1 << 20);
    first.arbitrator.onReplaceRequest(new BlockAccess(SLAVE, new BlockKey("BP-1", 1, 1), 100,
        "A", 2, "j1", 5), 1_000);
    first.registry.restoreDecommissioned(List.of(SLAVE));
    first.checkpointer.stop();
    Master second = new Master(CachePolicies.MPCACHE, 1 << 20);
    assertEquals(0, second.arbitrator.policyState().getDatasetsCount());
    assertTrue(second.registry.isDecommissioning(SLAVE));
    assertTrue(second.checkpointer.status().getRestored().contains("written by policy gdsf"));
    second.checkpointer.stop();
  }

  @Test
  void checkpoint_pastTheBound_isCountedAsFailedAndReported() {
    Master m = new Master(CachePolicies.MPCACHE, 8);
    m.registry.restoreDecommissioned(List.of(SLAVE));
    m.checkpointer.checkpoint();
    CheckpointStatusProto s = m.checkpointer.status();
    assertEquals(1, s.getFailed());
    assertEquals(0, s.getWritten());
    assertFalse(s.hasLastMs());
    assertTrue(s.getLastError().contains(MasterConfigKeys.STATE_MAX_BYTES_KEY), s.getLastError());
    m.checkpointer.stop();
  }

  @Test
  void status_noStateDir_saysSo() throws Exception {
    SlaveRegistry registry = new SlaveRegistry(() -> 0L, 60_000);
    ReplaceArbitrator arbitrator = new ReplaceArbitrator(
        p -> CachePolicies.create(CachePolicies.MPCACHE, PolicyParameters.defaults(), p),
        registry, 100, new ArbitratorStats(), () -> 1_000L);
    MasterStateCheckpointer c = new MasterStateCheckpointer(null, 1, arbitrator, registry,
        new PrefetchPlanner(() -> null, registry, arbitrator, 10, 10), () -> 42L);
    c.init(new Configuration(false));
    c.start();
    c.stop();
    assertFalse(c.status().hasStateDir());
    assertEquals(0, c.written());
  }
}
