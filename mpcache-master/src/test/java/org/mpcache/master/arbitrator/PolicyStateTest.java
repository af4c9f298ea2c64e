package org.mpcache.master.arbitrator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.AdminProtos.DatasetStatusProto;
import org.mpcache.common.proto.MasterStateProtos.DatasetStateProto;
import org.mpcache.common.proto.MasterStateProtos.PolicyStateProto;

/**
 * A policy's state exported for the master's checkpoint and restored into a new policy, as a
 * restarted master does before slaves re-register and their blocks are adopted: the new policy
 * ranks every dataset as the old one did and decides the next request the same way.
 */
class PolicyStateTest {
  private static final String[] SLAVES = {"s1", "s2"};

  private static BlockKey block(long id) {
    return new BlockKey("BP-1", id, 1);
  }

  private static BlockAccess access(String slave, long block, String dataset, int size,
      String job) {
    return new BlockAccess(slave, block(block), 100, dataset, size, job, 0);
  }

  /**
   * Datasets A (2 blocks on s1, read again by a second job), B and C (1 block each on s2), D (read
   * by two jobs, the second admitted in place of a victim, which raises mpcache's Clock) and E (on
   * a full slave: rejected by mpcache, remembered by its auxiliary cache); slaves hold 300 bytes
   * each.
   */
  private static CachePolicy workload(String name, PlacementIndex placement) {
    CachePolicy p = CachePolicies.create(name, new PolicyParameters(1.0, 16), placement);
    String[] jobs = {"j1", "j2"};
    step(p, access("s1", 1, "A", 2, jobs[0]), 300);
    step(p, access("s1", 2, "A", 2, jobs[0]), 200);
    p.onHit(access("s1", 1, "A", 2, jobs[1]));
    step(p, access("s2", 3, "B", 1, "j3"), 300);
    step(p, access("s2", 4, "C", 1, "j4"), 200);
    step(p, access("s2", 5, "D", 2, "j5"), 0);
    step(p, access("s2", 5, "D", 2, "j5b"), 0);
    step(p, access("s1", 6, "E", 8, "j6"), 0);
    return p;
  }

  /** A miss; an admitted block is cached and the evictions it needs are carried out. */
  private static void step(CachePolicy p, BlockAccess a, long free) {
    CacheDecision d = p.onMiss(a, free);
    for (BlockKey k : d.evict()) {
      p.onRemoved(a.slaveId(), k);
    }
    for (String s : SLAVES) {
      for (BlockKey k : p.pendingEvictions(s)) {
        p.onRemoved(s, k);
      }
    }
    if (d.admitted()) {
      p.onCached(a.slaveId(), a.block());
    }
  }

  /** A new policy restored from {@code state}, then every block {@code from} holds adopted. */
  private static CachePolicy restarted(String name, PolicyStateProto state,
      PlacementIndex from) {
    CachePolicy p = CachePolicies.create(name, new PolicyParameters(1.0, 16), new PlacementIndex());
    p.restoreState(state);
    Map<String, Integer> sizes = new HashMap<>();
    state.getDatasetsList().forEach(d -> sizes.put(d.getId(), d.getSize()));
    for (String s : SLAVES) {
      for (BlockKey k : from.storedOn(s)) {
        String dataset = from.ownerOf(k);
        p.adopt(s, k, 100, dataset, sizes.get(dataset));
      }
    }
    return p;
  }

  @ParameterizedTest
  @ValueSource(strings = {CachePolicies.MPCACHE, CachePolicies.GDSF, CachePolicies.LFU_F,
      CachePolicies.LIFE})
  void restoreState_thenAdoption_resumesWhereThePolicyWas(String name) {
    PlacementIndex placement = new PlacementIndex();
    CachePolicy before = workload(name, placement);
    PolicyStateProto state = before.exportState();
    assertNotNull(state);
    assertEquals(name, state.getPolicy());
    assertTrue(state.getDatasetsCount() >= 2, state.toString());

    CachePolicy after = restarted(name, state, placement);

    assertEquals(state, after.exportState());
    for (DatasetStateProto d : state.getDatasetsList()) {
      DatasetStanding a = before.standing(d.getId());
      DatasetStanding b = after.standing(d.getId());
      if (a == null) {
        assertNull(b, d.getId());
        continue;
      }
      assertEquals(a.priority(), b.priority(), 0, d.getId() + " priority");
      assertEquals(a.frequency(), b.frequency(), 0, d.getId() + " frequency");
      assertEquals(a.full(), b.full(), d.getId() + " full");
      assertEquals(a.inAuxiliaryCache(), b.inAuxiliaryCache(), d.getId() + " auxiliary");
    }
    BlockAccess next = access("s1", 7, "E", 8, "j7");
    assertEquals(before.onMiss(next, 100).toString(), after.onMiss(next, 100).toString());
    assertEquals(before.exportState(), after.exportState());
  }

  @Test
  void restoreState_mpcache_keepsFrequencyClockAndAuxiliaryCache() {
    PlacementIndex placement = new PlacementIndex();
    MpCachePolicy before = (MpCachePolicy) workload(CachePolicies.MPCACHE, placement);
    assertTrue(before.clock() > 0, "D's victim raised the Clock");
    MpCachePolicy after = (MpCachePolicy) restarted(CachePolicies.MPCACHE,
        before.exportState(), placement);
    assertEquals(before.clock(), after.clock(), 0);
    assertEquals(1.5, after.standing("A").frequency(), 0, "3 block accesses over 2 blocks");
    assertTrue(after.isFull("A"));
    assertTrue(after.inAuxiliaryCache("E"));
  }

  @Test
  void restoreState_operatorsHistory_keepsLastReadAndJob() {
    PlacementIndex placement = new PlacementIndex();
    CachePolicy before = workload(CachePolicies.MPCACHE, placement);
    placement.records().read("A").history(2)
        .access(new BlockAccess("s1", block(1), 100, "A", 2, "j9", 1234));

    PlacementIndex restored = new PlacementIndex();
    CachePolicies.create(CachePolicies.MPCACHE, new PolicyParameters(1.0, 16), restored)
        .restoreState(before.exportState());

    DatasetStatusProto.Builder a = DatasetStatusProto.newBuilder().setDatasetId("A");
    restored.records().get("A").history().describe(a);
    assertEquals(1234, a.getLastAccessMs());
    assertEquals("j9", a.getLastJob());
    assertEquals(List.of("A"), restored.records().seenIds("A"::equals));
  }

  @Test
  void restoreState_withoutAdoption_datasetsWaitOutsideTheQueue() {
    PlacementIndex placement = new PlacementIndex();
    MpCachePolicy before = (MpCachePolicy) workload(CachePolicies.MPCACHE, placement);
    MpCachePolicy after = new MpCachePolicy(new PolicyParameters(1.0, 16), new PlacementIndex());
    after.restoreState(before.exportState());
    assertTrue(after.tracks("A"));
    assertTrue(Double.isNaN(after.priorityOf("A")), "not in the main cache until adopted");
    after.adopt("s1", block(1), 100, "A", 2);
    after.adopt("s1", block(2), 100, "A", 2);
    assertEquals(before.priorityOf("A"), after.priorityOf("A"), 0);
  }

  @Test
  void restoreState_invalidRecord_namesItAndRestoresNothing() {
    PolicyStateProto bad = PolicyStateProto.newBuilder().setPolicy(CachePolicies.MPCACHE)
        .setAccessSeq(3).setClock(0.5)
        .addDatasets(DatasetStateProto.newBuilder().setId("A").setSize(2).setAccesses(1))
        .addDatasets(DatasetStateProto.newBuilder().setId("B").setSize(0)).build();
    MpCachePolicy p = new MpCachePolicy(new PolicyParameters(1.0, 16), new PlacementIndex());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> p.restoreState(bad));
    assertTrue(e.getMessage().contains("dataset B") && e.getMessage().contains("size"),
        e.getMessage());
    assertFalse(p.tracks("A"));
    assertEquals(0, p.clock(), 0);
  }

  @Test
  void restoreState_unknownVerdict_isRefused() {
    PolicyStateProto bad = PolicyStateProto.newBuilder().setPolicy(CachePolicies.MPCACHE)
        .addDatasets(DatasetStateProto.newBuilder().setId("A").setSize(2).setVerdict("MAYBE"))
        .build();
    MpCachePolicy p = new MpCachePolicy(new PolicyParameters(1.0, 16), new PlacementIndex());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> p.restoreState(bad));
    assertTrue(e.getMessage().contains("verdict"), e.getMessage());
  }

  @Test
  void restoreState_afterEvents_isRefused() {
    CachePolicy p = workload(CachePolicies.MPCACHE, new PlacementIndex());
    assertThrows(IllegalStateException.class, () -> p.restoreState(p.exportState()));
  }

  @ParameterizedTest
  @ValueSource(strings = {CachePolicies.NONE, CachePolicies.LRU, CachePolicies.LFU})
  void exportState_blockPolicies_keepNothing(String name) {
    assertNull(workload(name, new PlacementIndex()).exportState());
  }

  @Test
  void restoreState_auxiliaryCapacityShrank_keepsTheMostRecent() {
    PolicyStateProto state = PolicyStateProto.newBuilder().setPolicy(CachePolicies.MPCACHE)
        .addAllAuxiliary(List.of("old", "mid", "new")).build();
    MpCachePolicy p = new MpCachePolicy(new PolicyParameters(1.0, 2), new PlacementIndex());
    p.restoreState(state);
    assertFalse(p.inAuxiliaryCache("old"));
    assertTrue(p.inAuxiliaryCache("mid") && p.inAuxiliaryCache("new"));
  }
}
