package org.mpcache.daemons;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.daemons.LocalDaemons.waitFor;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.common.BlockKey;
import org.mpcache.admin.AdminCliRun;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.proto.MpCacheProtos.JobSpacePredictionProto;
import org.mpcache.common.proto.MpCacheProtos.SpaceReportProto;
import org.mpcache.common.protocolPB.ClientSlaveProtocolPB;
import org.mpcache.common.protocolPB.LocalizedGrant;
import org.mpcache.common.protocolPB.LocalizedJob;
import org.mpcache.common.protocolPB.LocalizedProtocolClientSideTranslatorPB;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.common.protocolPB.RpcSupport;
import org.mpcache.master.MasterConfigKeys;
import org.mpcache.master.MpCacheMaster;
import org.mpcache.master.space.SpaceSplit;
import org.mpcache.slave.MpCacheSlave;
import org.mpcache.slave.SlaveConfigKeys;
import org.mpcache.slave.localized.LocalizedConfigKeys;
import org.mpcache.slave.space.SpaceSnapshot;

/**
 * The slave's SSD split inside the real daemons: the Input Cache borrows Dynamic Pool units, the
 * Localized Cache gets cached input excluded by the master's Replace Arbitrator (whole datasets),
 * lent units come back when the application ends, the split reaches the master in heartbeats, a
 * finished job's localized space lands in the master's Dynamic Space Manager, which keeps it across
 * a master restart, and the next job of that type starts from it.
 */
class SlaveSpaceTest {
  /** One SSD dir of 1 MiB: Input Cache 256 KiB, pool 2 units of 256 KiB, Localized 256 KiB. */
  private static final int UNIT = 256 * 1024;
  private static final int BLOCK = 200_000;
  private static final String APP = "application_1_0001";

  @TempDir
  Path dir;
  private Path history;
  private MpCacheMaster master;
  private MpCacheSlave slave;
  private ClientSlaveProtocolPB client;
  private LocalizedProtocolClientSideTranslatorPB localized;
  private Configuration slaveConf;

  @BeforeEach
  void start() throws IOException {
    history = dir.resolve("space-history");
    master = startMaster(0);
    Configuration sc = LocalDaemons.slaveConf(master.getRpcAddress(), dir.resolve("ssd"));
    sc.setLong(SlaveConfigKeys.CACHE_CAPACITY_KEY, 4L * UNIT);
    sc.setLong(LocalizedConfigKeys.SPACE_UNIT_KEY, UNIT);
    sc.setDouble(LocalizedConfigKeys.INPUT_FRACTION_KEY, 0.25);
    sc.setDouble(LocalizedConfigKeys.LOCALIZED_FRACTION_KEY, 0.25);
    slave = LocalDaemons.startSlave(sc);
    slaveConf = sc;
    client = RpcSupport.proxy(ClientSlaveProtocolPB.class,
        new InetSocketAddress("127.0.0.1", slave.info().getClientPort()), sc, 5000);
    localized = new LocalizedProtocolClientSideTranslatorPB(slave.getLocalizedAddress(), sc);
  }

  private MpCacheMaster startMaster(int port) {
    Configuration mc = LocalDaemons.masterConf(port, 5_000);
    mc.set(MasterConfigKeys.SPACE_HISTORY_FILE_KEY, history.toString());
    return LocalDaemons.startMaster(mc);
  }

  @AfterEach
  void stop() {
    localized.close();
    RpcSupport.close(client);
    slave.stop();
    master.stop();
  }

  /** Caches one block of a dataset as the slave's own fill of a reader's miss would. */
  private void cache(BlockKey key, String dataset, int datasetBlocks) throws IOException {
    BlockAccessProto access = BlockAccessProto.newBuilder().setBlock(ProtoConverters.toProto(key))
        .setBlockBytes(BLOCK).setDatasetId(dataset).setDatasetBlocks(datasetBlocks)
        .setJobId("job_" + dataset).build();
    assertTrue(LocalDaemons.fill(slave, access, LocalDaemons.UNREACHABLE_HDFS + dataset
        + "/part-0", new byte[BLOCK]), "admitted and cached");
  }

  private SpaceSnapshot split() {
    return slave.getLocalizedCache().snapshot();
  }

  @Test
  void inputCacheFull_borrowsPoolUnits_andHeartbeatCarriesTheSplit() throws Exception {
    waitFor(() -> slave.getMasterLink().isRegistered(), "registration");
    cache(new BlockKey("BP-1", 1, 1), "/a", 2);
    assertEquals(0, split().poolLentToInput(), "one block fits the Input Cache's own space");
    cache(new BlockKey("BP-1", 2, 1), "/a", 2);
    assertEquals(UNIT, split().poolLentToInput(), "the second block borrows one pool unit");
    waitFor(() -> master.getSlaveRegistry().report().get(0).getSpace().getPoolLentToInput()
        == UNIT, "the split in a heartbeat");
    SpaceReportProto reported = master.getSlaveRegistry().report().get(0).getSpace();
    assertEquals(4L * UNIT, reported.getCapacity());
    assertEquals(2L * BLOCK, reported.getInputCacheUsed());
    assertEquals(2L * UNIT, reported.getDynamicPoolCapacity());
  }

  @Test
  void localizedOutgrowsPool_masterExcludesAWholeDataset_unitsReturnAfterTheApp()
      throws Exception {
    waitFor(() -> slave.getMasterLink().isRegistered(), "registration");
    List<BlockKey> a = List.of(new BlockKey("BP-1", 1, 1), new BlockKey("BP-1", 2, 1));
    BlockKey b = new BlockKey("BP-1", 3, 1);
    cache(a.get(0), "/a", 2);
    cache(a.get(1), "/a", 2);
    cache(b, "/b", 1);
    assertEquals(2L * UNIT, split().poolLentToInput(), "the pool is all lent to the Input Cache");
    waitFor(() -> master.getSlaveRegistry().report().get(0).getCachedBlocks() == 3,
        "block reports");

    LocalizedGrant g = localized.requestSpace(APP, "c1", "m0", UNIT + 50_000,
        new LocalizedJob("sort", 3L * BLOCK));
    assertTrue(g.isGranted(), g.toString());
    List<BlockKey> cached = slave.getStore().cachedBlocks();
    boolean aGone = !cached.contains(a.get(0)) && !cached.contains(a.get(1));
    boolean bGone = !cached.contains(b);
    assertTrue(aGone || bGone, "a whole dataset was excluded: " + cached);
    assertTrue(cached.contains(b) || cached.containsAll(a), "only one dataset went: " + cached);
    SpaceSnapshot s = split();
    assertEquals(UNIT, s.poolLentToLocalized());
    assertTrue(s.inputCacheUsed() + s.localizedCacheUsed() <= s.capacity());
    for (BlockKey k : aGone ? a : List.of(b)) {
      assertTrue(slave.getStore().blockFile(k).isEmpty(), "files of " + k + " deleted");
    }

    localized.applicationFinished(APP);
    assertEquals(0, split().localizedCacheUsed());
    assertEquals(0, split().poolLentToLocalized(), "lent units returned to the pool");
    waitFor(() -> master.getSpaceManager().size() == 1, "the job's usage in a heartbeat");
    SpaceSplit predicted = master.getSpaceManager().predict("sort", 3L * BLOCK, 4L * UNIT);
    assertEquals(SpaceSplit.Basis.SAME_BUCKET, predicted.basis());
    assertEquals(UNIT + 50_000, predicted.localizedBytes());

    master.stop();
    assertTrue(Files.exists(history));
    master = startMaster(0);
    assertEquals(UNIT + 50_000,
        master.getSpaceManager().predict("sort", 3L * BLOCK, 4L * UNIT).localizedBytes(),
        "the history survived the restart");
  }

  @Test
  void localizedBeyondWhatExclusionCouldFree_isDenied_inputStays() throws Exception {
    waitFor(() -> slave.getMasterLink().isRegistered(), "registration");
    List<BlockKey> all = new ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      all.add(new BlockKey("BP-1", i, 1));
      cache(all.get(i - 1), "/big", 3);
    }
    waitFor(() -> master.getSlaveRegistry().report().get(0).getCachedBlocks() == 3,
        "block reports");
    LocalizedGrant g = localized.requestSpace(APP, "c1", "m0", 4L * UNIT, LocalizedJob.UNKNOWN);
    assertTrue(!g.isGranted(), "more than the SSD holds");
    assertTrue(slave.getStore().cachedBlocks().containsAll(all), "nothing excluded for nothing");
  }

  @Test
  void nextJobOfAType_startsFromItsRecordedLocalizedNeed_aTypeWithoutHistoryDoesNot()
      throws Exception {
    waitFor(() -> slave.getMasterLink().isRegistered(), "registration");
    LocalizedJob sort = new LocalizedJob("sort", 3L * BLOCK);
    LocalizedJob grep = new LocalizedJob("grep", 3L * BLOCK);
    // A first sort holds one pool unit beyond the Localized Cache's own; its peak is recorded.
    assertTrue(localized.requestSpace(APP, "c1", "m0", UNIT + 50_000, sort).isGranted());
    localized.applicationFinished(APP);
    waitFor(() -> master.getSpaceManager().size() == 1, "the sort's peak in the history");
    assertEquals(0, split().poolLentToLocalized());

    // The next grep (no history) and sort each start with a small request.
    assertTrue(localized.requestSpace("application_1_0002", "c2", "g0", 10_000, grep)
        .isGranted());
    assertTrue(localized.requestSpace("application_1_0003", "c3", "s0", 10_000, sort)
        .isGranted());
    // Asked in order in the heartbeats, so grep's answer is in by the time sort's applies.
    waitFor(() -> split().poolLentToLocalized() == UNIT, "the sort's predicted need lent up front");
    assertEquals(1, slave.getLocalizedCache().predictionsApplied(), "the sort's only");
    JobSpacePredictionProto sortInUse = JobSpacePredictionProto.newBuilder().setJobType("sort")
        .setInputBytes(3L * BLOCK).setLocalizedBytes(UNIT + 50_000).setFromHistory(true).build();
    JobSpacePredictionProto grepInUse = JobSpacePredictionProto.newBuilder().setJobType("grep")
        .setInputBytes(3L * BLOCK).setLocalizedBytes(UNIT).setFromHistory(false).build();
    waitFor(() -> master.getSlaveRegistry().report().get(0).getPredictionsList()
        .equals(List.of(grepInUse, sortInUse)), "the predictions in use in a heartbeat");
    AdminCliRun report = AdminCliRun.run(slaveConf, "report");
    assertEquals(0, report.code, report::toString);
    assertTrue(report.out.contains("Space predictions in use:")
        && report.out.matches("(?s).*sort +585.9 KiB +304.8 KiB +history.*")
        && report.out.matches("(?s).*grep +585.9 KiB +256.0 KiB +cold-start.*"), report.out);

    // The sort's units go back once it ends: the grep running on holds none.
    localized.applicationFinished("application_1_0003");
    assertEquals(0, split().poolLentToLocalized());
    assertTrue(slave.getStore().cachedBlocks().isEmpty(), "no input was excluded for a guess");
    localized.applicationFinished("application_1_0002");
  }
}
