package org.mpcache.slave;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.ClientSlaveProtos.LookupRequestProto;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.proto.SlaveMasterProtos.PrefetchCommandProto;
import org.mpcache.common.proto.SlaveMasterProtos.ReplaceRequestProto;
import org.mpcache.common.protocolPB.LocalizedGrant;
import org.mpcache.common.protocolPB.LocalizedJob;
import org.mpcache.common.protocolPB.RpcSupport;
import org.mpcache.slave.fill.BlockFiller;

/**
 * The slave's fills give way to its Localized Cache's writers: while tasks keep being granted SSD
 * room (as their spills and map outputs are), a reader's fill and a prefetch wait without asking
 * for admission, and they go on once the tasks stop. On a slave whose HDFS is unreachable, so a
 * fill that goes on asks the fake master for admission and then fails to read its file: its end
 * is counted as a failure.
 */
class FillYieldServiceTest {
  /** On the fixture's unreachable HDFS: the slave's fill of it fails at once. */
  private static final String UNREACHABLE = SlaveFixture.UNREACHABLE_HDFS + "/no-such-file";
  /** What each task asks for: within the Localized Cache, and given back before the next. */
  private static final long GRANT = 128 * 1024;

  @TempDir
  Path dir;
  private SlaveFixture fx;
  private final AtomicBoolean writing = new AtomicBoolean(true);
  private CompletableFuture<Void> writer;

  @BeforeEach
  void start() throws Exception {
    fx = new SlaveFixture(dir, c -> {
      // Readers' fills start at once: only the yield may hold them.
      c.setLong(SlaveConfigKeys.FILL_QUIET_MS_KEY, 0);
      // One grant a second keeps the SSD busy; the test's writer grants many more.
      c.setLong(SlaveConfigKeys.FILL_YIELD_FOREGROUND_BYTES_PER_SEC_KEY, GRANT / 2);
      c.setLong(SlaveConfigKeys.FILL_YIELD_WINDOW_MS_KEY, 1_000);
      // Longer than the test waits: only the writer's stop may let the fills go.
      c.setLong(SlaveConfigKeys.FILL_YIELD_MAX_DELAY_MS_KEY, 600_000);
    }, MpCacheSlave::new);
    fx.awaitRegistration();
  }

  @AfterEach
  void stop() throws Exception {
    writing.set(false);
    if (writer != null) {
      writer.get(10, TimeUnit.SECONDS);
    }
    fx.close();
  }

  /**
   * Has tasks ask for room and give it back, one container after another, until
   * {@link #writing} is cleared; returns once the SSD has been granted two tasks' room.
   */
  private void startWriter() throws Exception {
    writer = CompletableFuture.runAsync(() -> {
      try {
        for (int i = 0; writing.get(); i++) {
          LocalizedGrant g = fx.localized().requestSpace("application_1_0001", "c" + i,
              "attempt_1_0001_m_" + i + "_0", GRANT, LocalizedJob.UNKNOWN);
          assertTrue(g.isGranted(), g.denyReason());
          fx.localized().containerFinished("c" + i);
          Thread.sleep(10);
        }
      } catch (Exception e) {
        throw new AssertionError("the writer failed", e);
      }
    });
    SlaveFixture.waitFor(() -> fx.slave().getLocalizedCache().bytesGranted() >= 2 * GRANT,
        "the tasks' first grants");
  }

  private static BlockAccessProto access(long id) {
    return SlaveFixture.access(new BlockKey("BP-1", id, 1), 1000, "/d", 1).build();
  }

  private BlockFiller filler() {
    return fx.slave().getFiller();
  }

  private int admissionsAsked() {
    return fx.master().received(ReplaceRequestProto.class).size();
  }

  /**
   * Waits until a fill has yielded for a while, checks that it has not gone on meanwhile, then
   * stops the writer.
   */
  private void assertYieldsUntilTheWriterStops(String fill) throws Exception {
    SlaveFixture.waitFor(() -> filler().yieldedMs() >= 500, fill + " to yield for 500 ms");
    assertEquals(0, admissionsAsked(), fill + " asked for no admission while it yielded");
    writing.set(false);
    writer.get(10, TimeUnit.SECONDS);
  }

  @Test
  void readerFill_whileTasksAreGrantedRoom_waitsAndGoesOnOnceTheyStop() throws Exception {
    startWriter();
    RpcSupport.call(() -> fx.client().lookup(null, LookupRequestProto.newBuilder()
        .setAccess(access(1)).setPath(UNREACHABLE).setBlockOffset(0).build()));
    assertYieldsUntilTheWriterStops("the reader's fill");
    SlaveFixture.waitFor(() -> fx.slave().getCounters().snapshot().getFillsBySlaveFailed() == 1,
        "the reader's fill to go on (and fail to read its file)");
    assertEquals(1, admissionsAsked());
    // The failure is counted before the fill's thread lets go of the block.
    SlaveFixture.waitFor(() -> filler().readerFillsPending() == 0, "the fill to end");
  }

  @Test
  void prefetch_whileTasksAreGrantedRoom_waitsAndGoesOnOnceTheyStop() throws Exception {
    startWriter();
    fx.slave().prefetch(List.of(PrefetchCommandProto.newBuilder().setAccess(access(2))
        .setPath(UNREACHABLE).setOffset(0).build()));
    assertYieldsUntilTheWriterStops("the prefetch");
    SlaveFixture.waitFor(() -> filler().failed() == 1,
        "the prefetch to go on (and fail to read its file)");
    assertEquals(1, admissionsAsked());
  }
}
