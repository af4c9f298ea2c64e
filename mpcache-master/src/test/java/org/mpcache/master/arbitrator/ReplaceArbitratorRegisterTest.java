package org.mpcache.master.arbitrator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.AdminProtos.AdoptionProto;
import org.mpcache.common.proto.AdminProtos.DatasetStatusProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveInfoProto;
import org.mpcache.common.proto.MpCacheProtos.SpaceReportProto;
import org.mpcache.master.registry.SlaveIdentity;
import org.mpcache.master.registry.SlaveRegistry;
import org.mpcache.master.status.ArbitratorStats;
import org.mpcache.master.status.EvictionCause;

/**
 * A slave registering with blocks already on its SSD (after a restart of the slave or of the
 * master, or a lost connection): the Replace Arbitrator adopts them into their datasets and hands
 * back only what it cannot place.
 */
class ReplaceArbitratorRegisterTest {
  private static final String SLAVE = "host1:50121";
  private static final long BLOCK = 1000;
  private static final long CAPACITY = 10 * BLOCK;
  private static final SlaveIdentity IDENTITY =
      new SlaveIdentity("mpcache", InetAddress.getLoopbackAddress());

  private final SlaveRegistry registry = new SlaveRegistry(() -> 0L, 60_000);
  private ReplaceArbitrator arbitrator;

  private void start(String policy) {
    arbitrator = new ReplaceArbitrator(
        p -> CachePolicies.create(policy, PolicyParameters.defaults(), p), registry, 100,
        new ArbitratorStats(), () -> 1_000L);
    registry.readHoldingsFrom(arbitrator.holdings());
  }

  private static BlockKey key(long id) {
    return new BlockKey("BP-1", id, 1);
  }

  private static HeldBlock held(long id, String dataset, int blocks) {
    return new HeldBlock(key(id), BLOCK, dataset, blocks, null);
  }

  /** Registers the slave as the handler does: the registry first, then the arbitrator. */
  private List<BlockKey> register(List<HeldBlock> held) {
    registry.register(SlaveInfoProto.newBuilder().setSlaveId(SLAVE)
        .setHost("host1").setClientPort(50121).build(), SpaceReportProto.newBuilder()
        .setCapacity(CAPACITY).setInputCacheCapacity(CAPACITY).setInputCacheUsed(0)
        .setDynamicPoolCapacity(0).setPoolLentToInput(0).setPoolLentToLocalized(0)
        .setLocalizedCacheCapacity(0).setLocalizedCacheUsed(0).build(), IDENTITY,
        registry.holder(SLAVE));
    return arbitrator.onRegister(SLAVE, held, CAPACITY, 0).evict();
  }

  private DatasetStatusProto dataset(String id) {
    return arbitrator.datasets(id::equals).get(0);
  }

  private static BlockAccess hit(long id, String dataset, String job) {
    return new BlockAccess(SLAVE, key(id), BLOCK, dataset, 2, job, 2_000L);
  }

  /**
   * The mpcache policy admits a new dataset by the room of every registered slave, not only of
   * those that have asked to cache something: a cluster's first dataset, as large as both slaves'
   * free space together, is admitted at its first block.
   */
  @Test
  void onReplaceRequest_firstDatasetFillingEverySlave_admittedByTheRoomTheSlavesRegisteredWith() {
    start(CachePolicies.MPCACHE);
    for (String slave : List.of(SLAVE, "host2:50121")) {
      registry.register(SlaveInfoProto.newBuilder().setSlaveId(slave)
          .setHost(slave.substring(0, slave.indexOf(':'))).setClientPort(50121).build(),
          SpaceReportProto.newBuilder().setCapacity(CAPACITY).setInputCacheCapacity(CAPACITY)
              .setInputCacheUsed(0).setDynamicPoolCapacity(0).setPoolLentToInput(0)
              .setPoolLentToLocalized(0).setLocalizedCacheCapacity(0).setLocalizedCacheUsed(0)
              .build(), IDENTITY, registry.holder(slave));
      arbitrator.onRegister(slave, List.of(), CAPACITY, CAPACITY);
    }
    CacheDecision d = arbitrator.onReplaceRequest(new BlockAccess(SLAVE, key(1), BLOCK,
        "/data/first", 20, "job_1", 1_000L), CAPACITY);
    assertTrue(d.admitted(), "the first block of a dataset both slaves' room holds: "
        + d.reason());
  }

  @Test
  void onRegister_blocksOfACompleteDataset_adoptedAndItStaysComplete() {
    start(CachePolicies.MPCACHE);
    List<BlockKey> evict = register(List.of(held(1, "/a", 2), held(2, "/a", 2)));
    assertEquals(List.of(), evict);
    DatasetStatusProto a = dataset("/a");
    assertEquals(2, a.getCachedBlocks());
    assertEquals(2 * BLOCK, a.getCachedBytes());
    assertTrue(a.getFull(), "a dataset complete on the cluster stays complete");
    assertEquals(List.of(key(1), key(2)), registry.blocksOf(SLAVE).stream().sorted().toList());
    assertEquals(2, arbitrator.stats().blocksAdopted());
  }

  @Test
  void onRegister_again_keepsTheDatasetsFrequency() {
    start(CachePolicies.MPCACHE);
    register(List.of(held(1, "/a", 2), held(2, "/a", 2)));
    arbitrator.onHits(List.of(hit(1, "/a", "job_1"), hit(2, "/a", "job_1")));
    double before = dataset("/a").getFrequency();
    assertTrue(before > 0, "hits counted: " + before);

    List<BlockKey> evict = register(List.of(held(1, "/a", 2), held(2, "/a", 2)));
    assertEquals(List.of(), evict);
    assertEquals(before, dataset("/a").getFrequency(), "a re-registration loses nothing");
    assertTrue(dataset("/a").getFull());
  }

  @Test
  void onRegister_again_forgetsWhatTheSlaveNoLongerHolds() {
    start(CachePolicies.MPCACHE);
    register(List.of(held(1, "/a", 2), held(2, "/a", 2)));
    register(List.of(held(1, "/a", 2)));
    assertEquals(1, dataset("/a").getCachedBlocks());
    assertEquals(List.of(key(1)), registry.blocksOf(SLAVE));
  }

  @Test
  void onRegister_noDatasetOrPastCapacity_handedBack() {
    start(CachePolicies.MPCACHE);
    List<HeldBlock> held = new ArrayList<>();
    held.add(new HeldBlock(key(100), 0, null, 0, null));
    for (long id = 1; id <= 11; id++) {
      held.add(held(id, "/big", 11));
    }
    List<BlockKey> evict = register(held);
    assertEquals(List.of(key(100), key(11)), evict, "no dataset; the 11th block past capacity");
    assertEquals(10, dataset("/big").getCachedBlocks());
    assertEquals(2, arbitrator.stats().blocksNotAdopted());
  }

  @Test
  void onRegister_datasetBaseline_adopts() {
    start(CachePolicies.GDSF);
    assertEquals(List.of(), register(List.of(held(1, "/a", 1))));
    assertEquals(1, dataset("/a").getCachedBlocks());
  }

  @Test
  void onRegister_blockPolicy_adoptsIntoItsEvictionOrder() {
    start(CachePolicies.LRU);
    assertEquals(List.of(), register(List.of(held(1, "/a", 1))));
    CacheDecision d = arbitrator.onReplaceRequest(
        new BlockAccess(SLAVE, key(2), BLOCK, "/b", 1, "job_1", 2_000L), 0);
    assertTrue(d.admitted(), d.toString());
    assertEquals(List.of(key(1)), d.evict(), "the adopted block is evictable");
  }

  @Test
  void onRegister_fillReportedHeld_countsAsCachedNotAdopted() {
    start(CachePolicies.MPCACHE);
    register(List.of());
    assertTrue(arbitrator.onReplaceRequest(
        new BlockAccess(SLAVE, key(1), BLOCK, "/a", 2, "job_1", 2_000L), CAPACITY).admitted());
    assertEquals(1, dataset("/a").getFillingBlocks());

    assertEquals(List.of(), register(List.of(held(1, "/a", 2))));
    assertEquals(1, dataset("/a").getCachedBlocks());
    assertEquals(0, dataset("/a").getFillingBlocks());
    assertEquals(List.of(key(1)), registry.blocksOf(SLAVE));
    assertEquals(0, arbitrator.stats().blocksAdopted());
  }

  @Test
  void onRegister_fillNotReported_forgotten() {
    start(CachePolicies.MPCACHE);
    register(List.of());
    arbitrator.onReplaceRequest(
        new BlockAccess(SLAVE, key(1), BLOCK, "/a", 2, "job_1", 2_000L), CAPACITY);
    register(List.of());
    assertEquals(0, dataset("/a").getFillingBlocks());
    assertEquals(Set.of(), arbitrator.holders(key(1)));
  }

  @Test
  void onRegister_mixedBlocks_countsEachOutcomeAndListsTheAdopted() {
    start(CachePolicies.MPCACHE);
    register(List.of(held(1, "/a", 3)));
    List<HeldBlock> held = new ArrayList<>();
    held.add(held(1, "/a", 3));
    held.add(new HeldBlock(key(100), 0, null, 0, null));
    for (long id = 2; id <= 11; id++) {
      held.add(held(id, "/a", 11));
    }
    registry.register(SlaveInfoProto.newBuilder().setSlaveId(SLAVE).setHost("host1")
        .setClientPort(50121).build(), registry.space(SLAVE).orElseThrow(), IDENTITY,
        registry.holder(SLAVE));
    Registration r = arbitrator.onRegister(SLAVE, held, CAPACITY, 0);
    assertEquals(1, r.known(), "block 1 was known from the first registration");
    assertEquals(9, r.adopted().size());
    assertEquals(held.subList(2, 11), r.adopted());
    assertEquals(1, r.unknownDataset());
    assertEquals(1, r.overCapacity());
    assertEquals(List.of(key(100), key(11)), r.evict());
    assertEquals(10, r.kept());
  }

  @Test
  void dropStale_adoptedBlocks_orderedOutWithTheNextHeartbeat() {
    start(CachePolicies.MPCACHE);
    register(List.of(held(1, "/a", 2), held(2, "/a", 2)));
    assertEquals(1, arbitrator.dropStale(SLAVE, List.of(key(2), key(9))),
        "block 9 is not on the slave");
    assertEquals(List.of(key(2)), arbitrator.takeEvictions(SLAVE));
    assertEquals(1, arbitrator.stats().evictions(EvictionCause.STALE));
    assertEquals("STALE", dataset("/a").getLastEviction().getCause());
    arbitrator.onBlockReport(SLAVE, List.of(), List.of(key(2)));
    assertEquals(List.of(key(1)), registry.blocksOf(SLAVE));
  }

  @Test
  void report_afterAdoptionAndStaleDrop_showsTheSlavesFigures() {
    start(CachePolicies.MPCACHE);
    register(List.of(held(1, "/a", 2), held(2, "/a", 2), new HeldBlock(key(3), 0, null, 0, null)));
    registry.adoption(SLAVE, 2, 1, 0);
    registry.readChecksPendingFrom(id -> 5);
    registry.staleDropped(SLAVE, arbitrator.dropStale(SLAVE, List.of(key(2))));
    AdoptionProto a = registry.report().get(0).getAdoption();
    assertEquals(1, a.getAdopted());
    assertEquals(1, a.getStale());
    assertEquals(1, a.getUnknownDataset());
    assertEquals(0, a.getOverCapacity());
    assertEquals(5, a.getChecksPending());
  }
}
