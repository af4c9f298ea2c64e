package org.mpcache.master.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.AdminProtos.DatasetStatusProto;
import org.mpcache.common.proto.SlaveMasterProtos.DatasetCountersProto;
import org.mpcache.master.arbitrator.BlockAccess;
import org.mpcache.master.arbitrator.CachePolicies;
import org.mpcache.master.arbitrator.CachePolicy;
import org.mpcache.master.arbitrator.CacheDecision;
import org.mpcache.master.arbitrator.DatasetFigures;
import org.mpcache.master.arbitrator.DatasetStanding;
import org.mpcache.master.arbitrator.PlacementIndex;
import org.mpcache.master.arbitrator.PolicyParameters;

/**
 * The operators' record of datasets: placement (read from the index an LRU policy keeps), verdicts,
 * eviction causes and its bound. The helpers tell the catalog and the policy in the order the
 * Replace Arbitrator does.
 */
class DatasetCatalogTest {
  private final ArbitratorStats stats = new ArbitratorStats();
  private final PlacementIndex placement = new PlacementIndex();
  private final CachePolicy policy =
      CachePolicies.create(CachePolicies.LRU, PolicyParameters.defaults(), placement);
  private final DatasetCatalog catalog = new DatasetCatalog(2, stats, placement);

  private static BlockKey block(long id) {
    return new BlockKey("BP-1", id, 1);
  }

  private static BlockAccess access(String slave, long block, String dataset, int size,
      long time) {
    return new BlockAccess(slave, block(block), 100, dataset, size, "job", time);
  }

  private DatasetStatusProto status(String id) {
    return catalog.status(id, d -> new DatasetStanding(Double.NaN, 0, false, false));
  }

  private void admit(String slave, long block, String dataset, int size, long time) {
    BlockAccess a = access(slave, block, dataset, size, time);
    catalog.verdict(a, policy.onMiss(a, 1L << 40));
  }

  private void stored(String slave, long block, boolean draining, long time) {
    policy.onCached(slave, block(block));
    catalog.cached(slave, block(block), draining, time);
  }

  private void removed(String slave, long block, long time) {
    catalog.removed(slave, block(block), time);
    policy.onRemoved(slave, block(block));
  }

  private void cache(String slave, long block, String dataset, int size) {
    admit(slave, block, dataset, size, 10);
    stored(slave, block, false, 10);
  }

  @Test
  void verdict_admittedBlocksFillThenCountAsCachedPerSlave() {
    admit("s1", 1, "A", 2, 10);
    DatasetStatusProto filling = status("A");
    assertEquals(0, filling.getCachedBlocks());
    assertEquals(1, filling.getFillingBlocks());
    stored("s1", 1, false, 11);
    cache("s2", 2, "A", 2);
    DatasetStatusProto d = status("A");
    assertEquals(2, d.getCachedBlocks());
    assertEquals(200, d.getCachedBytes());
    assertTrue(d.getFull());
    assertEquals(2, d.getSlavesCount());
    assertEquals("ADMITTED_FREE_SPACE", d.getLastVerdict().getReason());
    assertEquals(2, d.getVerdicts(0).getCount());
    assertEquals(2, stats.replaceRequests());
    assertEquals(2, stats.admitted());
  }

  @Test
  void verdict_evictionsAreChargedToTheVictimAsReplacement() {
    cache("s1", 1, "A", 1);
    catalog.verdict(access("s1", 2, "B", 1, 20),
        CacheDecision.admit(CacheDecision.Reason.ADMITTED_BY_REPLACEMENT, List.of(block(1))));
    removed("s1", 1, 21);
    DatasetStatusProto a = status("A");
    assertEquals(0, a.getCachedBlocks());
    assertEquals("REPLACEMENT", a.getLastEviction().getCause());
    assertEquals("to admit B on s1", a.getLastEviction().getDetail());
    assertEquals(1, stats.evictions(EvictionCause.REPLACEMENT));
    assertEquals(0, stats.evictions(EvictionCause.SLAVE_DROPPED));
  }

  @Test
  void removed_unorderedRemovalCountsAsADrop() {
    cache("s1", 1, "A", 1);
    removed("s1", 1, 30);
    assertEquals("SLAVE_DROPPED", status("A").getLastEviction().getCause());
    assertEquals(1, stats.evictions(EvictionCause.SLAVE_DROPPED));
  }

  @Test
  void evictDataset_ordersCachedReplicasOutAndBlocksStillFillingOnceCached() {
    cache("s1", 1, "A", 2);
    admit("s2", 2, "A", 2, 10);
    assertEquals(1, catalog.evictDataset("A", 40));
    assertEquals(List.of(block(1)), catalog.takeQueued("s1"));
    stored("s2", 2, false, 41);
    assertEquals(List.of(block(2)), catalog.takeQueued("s2"));
    removed("s1", 1, 42);
    removed("s2", 2, 42);
    DatasetStatusProto a = status("A");
    assertEquals(0, a.getCachedBlocks());
    assertEquals("ADMIN_EVICT", a.getLastEviction().getCause());
    assertEquals(2, stats.evictions(EvictionCause.ADMIN_EVICT));
    assertEquals(0, stats.evictions(EvictionCause.SLAVE_DROPPED));
  }

  @Test
  void slaveLost_forgetsItsBlocks() {
    cache("s1", 1, "A", 1);
    catalog.slaveLost("s1", 50);
    policy.onSlaveLost("s1");
    assertEquals(0, status("A").getCachedBlocks());
    assertEquals("SLAVE_LOST", status("A").getLastEviction().getCause());
    assertTrue(placement.holders(block(1)).isEmpty());
  }

  @Test
  void drainSlave_queuesEveryHeldBlockAndNewlyCachedOnes() {
    cache("s1", 1, "A", 2);
    assertEquals(1, catalog.drainSlave("s1", List.of(block(1)), 60));
    admit("s1", 2, "A", 2, 61);
    stored("s1", 2, true, 62);
    assertEquals(List.of(block(1), block(2)), catalog.takeQueued("s1"));
    assertEquals("DECOMMISSION", status("A").getLastEviction().getCause());
  }

  @Test
  void bound_dropsTheLeastRecentlyReadDatasetsWithNothingCached() {
    cache("s1", 1, "A", 1);
    catalog.verdict(access("s1", 2, "B", 1, 70),
        CacheDecision.reject(CacheDecision.Reason.REJECTED_NOT_IN_AUXILIARY_CACHE));
    catalog.verdict(access("s1", 3, "C", 1, 71),
        CacheDecision.reject(CacheDecision.Reason.REJECTED_NOT_PROFITABLE));
    assertEquals(2, catalog.size());
    assertFalse(catalog.datasetIds(id -> true).contains("B"));
    assertTrue(catalog.datasetIds(id -> true).contains("A"), "a cached dataset is kept");
    assertNull(status("B"));
    assertEquals("REJECTED_NOT_PROFITABLE", status("C").getLastVerdict().getReason());
  }

  @Test
  void datasetPaths_matchBareAndQualifiedPathsAndPrefixes() {
    String id = "hdfs://nn:8020/data/in,hdfs://nn:8020/other";
    assertTrue(DatasetPaths.matches(id, "/data/in", false));
    assertTrue(DatasetPaths.matches(id, "/data/in/", false));
    assertTrue(DatasetPaths.matches(id, "hdfs://nn:8020/other", false));
    assertFalse(DatasetPaths.matches(id, "/data", false));
    assertTrue(DatasetPaths.matches(id, "/data", true));
    assertFalse(DatasetPaths.matches(id, "/dat", true));
    assertTrue(DatasetPaths.matches(id, "/", true));
    assertFalse(DatasetPaths.matches(id, "hdfs://other:8020/data/in", false));
  }

  private static DatasetCountersProto figures(String dataset, long fromCache, long fromHdfs) {
    return DatasetCountersProto.newBuilder().setDatasetId(dataset).setSinceMs(1).setHits(1)
        .setMisses(2).setBytesFromCache(fromCache).setBytesFromHdfs(fromHdfs).setFills(2)
        .setEvictions(0).build();
  }

  @Test
  void figures_showInTheDatasetsStatusSummedOverSlaves() {
    catalog.access(access("s1", 1, "/d", 2, 10));
    catalog.figures("s1", figures("/d", 300, 100));
    catalog.figures("s2", figures("/d", 100, 0));
    DatasetStatusProto d = status("/d");
    assertEquals(2, d.getHits());
    assertEquals(4, d.getMisses());
    assertEquals(400, d.getBytesFromCache());
    assertEquals(100, d.getBytesFromHdfs());
    assertEquals(4, d.getFills());
    assertEquals(0.8, d.getByteHitRatio(), 1e-12);
  }

  @Test
  void topByBytesRead_mostBytesFirstAndBounded() {
    catalog.figures("s1", figures("/c", 20, 0));
    catalog.figures("s1", figures("/b", 0, 30));
    List<Map.Entry<String, DatasetFigures.Totals>> top = catalog.topByBytesRead(5);
    assertEquals(List.of("/b", "/c"), top.stream().map(Map.Entry::getKey).toList());
    assertEquals(30, top.get(0).getValue().bytesFromHdfs());
    assertEquals(List.of("/b"), catalog.topByBytesRead(1).stream().map(Map.Entry::getKey)
        .toList());
  }
}
