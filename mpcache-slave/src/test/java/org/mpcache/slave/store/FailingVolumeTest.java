package org.mpcache.slave.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.util.Time;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.common.BlockKey;
import org.mpcache.slave.SlaveConfigKeys;
import org.mpcache.slave.space.DynamicSpaceTuner;
import org.mpcache.slave.space.SsdVolume;
import org.mpcache.slave.space.TunedInputCacheSpace;
import org.mpcache.slave.store.FaultInjectingBlockStorage.Errno;
import org.mpcache.slave.store.FaultInjectingBlockStorage.Injection;
import org.mpcache.slave.store.FaultInjectingBlockStorage.Op;
import org.mpcache.slave.volume.VolumeHealth;
import org.mpcache.slave.volume.VolumeHealth.DirState;

/**
 * A store whose one SSD directory fails under it ({@link FaultInjectingBlockStorage}): past the
 * tolerated faults ({@value SlaveConfigKeys#VOLUME_FAULTS_TOLERATED_DEFAULT} by default) the
 * directory is out of service, and neither reads, lends nor fills touch it again; the other
 * directory keeps serving and takes the new fills.
 */
class FailingVolumeTest {
  private static final int CHUNK = 1024;
  private static final int BLOCK = 5000;
  private static final long CAPACITY = 1 << 20;
  private static final int TAKES_OUT = SlaveConfigKeys.VOLUME_FAULTS_TOLERATED_DEFAULT + 1;

  @TempDir
  Path root;
  private Path a;
  private Path b;
  private final FaultInjectingBlockStorage storage =
      new FaultInjectingBlockStorage(BlockStorage.local());
  private FileBlockStore store;
  /** The blocks cached in directory a, then in b. */
  private final List<BlockKey> inA = new ArrayList<>();
  private final List<BlockKey> inB = new ArrayList<>();

  /** The blocks each directory's removal dropped, as the store reported them. */
  private final Map<Path, List<BlockKey>> dropped = new ConcurrentHashMap<>();

  @BeforeEach
  void open() throws IOException {
    a = root.resolve("a");
    b = root.resolve("b");
    open(TestStores.open(storage, List.of(a, b), space(), CHUNK));
  }

  private TunedInputCacheSpace space() {
    List<SsdVolume> layout = List.of(SsdVolume.split(a.toString(), CAPACITY, CAPACITY, 1.0, 0),
        SsdVolume.split(b.toString(), CAPACITY, CAPACITY, 1.0, 0));
    return new TunedInputCacheSpace(new DynamicSpaceTuner(layout, 0.5), new Object());
  }

  /** Uses {@code s}, empty, and caches two blocks in each directory. */
  private void open(FileBlockStore s) throws IOException {
    store = s;
    store.onVolumeOut(dropped::put);
    inA.clear();
    inB.clear();
    for (long id = 1; id <= 4; id++) {
      BlockKey k = key(id);
      fill(k);
      (store.blockFile(k).orElseThrow().startsWith(a) ? inA : inB).add(k);
    }
    assertEquals(2, inA.size(), "new blocks go to the directory with the most room: " + inA);
  }

  private static BlockKey key(long id) {
    return new BlockKey("BP-1", id, 1001);
  }

  private void fill(BlockKey k) throws IOException {
    byte[] data = new byte[BLOCK];
    new Random(k.getBlockId()).nextBytes(data);
    BlockFill f = store.beginFill(k, BLOCK, "/data", 1, "").orElseThrow();
    f.append(0, ByteBuffer.wrap(data));
    f.commit();
  }

  /** Fails every read of the blocks in directory a with EIO. */
  private List<Injection> failReadsOfA() {
    List<Injection> out = new ArrayList<>();
    for (BlockKey k : inA) {
      out.add(storage.fail(Op.READ, Errno.EIO, k));
    }
    return out;
  }

  /** Fails enough fills in directory a with EIO on their writes to take it out. */
  private void failFillsInA() throws IOException {
    try (Injection eio = storage.fail(Op.WRITE, Errno.EIO)) {
      for (int i = 0; i < TAKES_OUT; i++) {
        // Both directories have the same room: each fill goes to the first, a.
        BlockFill f = store.beginFill(key(20 + i), BLOCK, "/data", 1, "").orElseThrow();
        assertEquals(a, f.file().dir());
        assertThrows(IOException.class, () -> f.append(0, ByteBuffer.wrap(new byte[BLOCK])));
        f.abort();
      }
    }
  }

  private static long hits(List<Injection> injections) {
    return injections.stream().mapToLong(Injection::hits).sum();
  }

  @Test
  void read_pastTheToleratedFaults_takesTheDirectoryOutAndNoLongerTouchesIt() throws Exception {
    List<Injection> eio = failReadsOfA();
    for (int i = 0; i < TAKES_OUT; i++) {
      IOException e = assertThrows(IOException.class, () -> store.read(inA.get(0), 0, BLOCK));
      assertFalse(e instanceof BlockNotCachedException, "fault " + i + " is the disk's: " + e);
    }
    long faults = hits(eio);
    for (BlockKey k : inA) {
      assertThrows(BlockNotCachedException.class, () -> store.read(k, 0, BLOCK),
          "the directory's blocks are dropped");
      assertEquals(-1, store.cachedLength(k));
      assertEquals(Optional.empty(), store.lease(k), "nor are they lent");
    }
    assertEquals(faults, hits(eio), "no read touched the directory again");
    for (BlockKey k : inB) {
      assertEquals(BLOCK, store.read(k, 0, BLOCK).data().length, "the other directory serves");
    }
    fill(key(10));
    fill(key(11));
    assertTrue(store.blockFile(key(10)).orElseThrow().startsWith(b), "new fills go to b");
    assertTrue(store.blockFile(key(11)).orElseThrow().startsWith(b));
    assertEquals(CAPACITY, store.space().capacityBytes(), "a's space left the totals");
  }

  @Test
  void lease_pastTheToleratedFaults_takesTheDirectoryOut() throws Exception {
    List<Injection> eio = failReadsOfA();
    for (int i = 0; i < TAKES_OUT; i++) {
      assertThrows(IOException.class, () -> store.lease(inA.get(1)));
    }
    long faults = hits(eio);
    assertEquals(Optional.empty(), store.lease(inA.get(1)), "a descriptor or stream is refused");
    assertEquals(Optional.empty(), store.lease(inA.get(0)));
    assertEquals(faults, hits(eio));
    try (BlockLease l = store.lease(inB.get(0)).orElseThrow()) {
      assertEquals(BLOCK, l.length());
    }
  }

  @Test
  void fill_writeErrorsPastTheTolerated_takeTheDirectoryOut() throws Exception {
    failFillsInA();
    for (BlockKey k : inA) {
      assertEquals(-1, store.cachedLength(k), "a's blocks are dropped");
    }
    fill(key(30));
    assertTrue(store.blockFile(key(30)).orElseThrow().startsWith(b), "the next fill goes to b");
    assertEquals(BLOCK, store.read(inB.get(0), 0, BLOCK).data().length);
  }

  @Test
  void read_fullDiskAndMissingFilesAndTooManyOpenFiles_areNotFaultsOfTheDirectory()
      throws Exception {
    for (Errno errno : List.of(Errno.ENOSPC, Errno.EMFILE)) {
      try (Injection i = storage.fail(Op.READ, errno, inA.get(0))) {
        for (int n = 0; n < 2 * TAKES_OUT; n++) {
          assertThrows(IOException.class, () -> store.read(inA.get(0), 0, BLOCK));
        }
      }
    }
    assertEquals(BLOCK, store.read(inA.get(1), 0, BLOCK).data().length, "a is in service");
  }

  @Test
  void read_slowerThanTheThreshold_takesTheDirectoryOut() throws Exception {
    Path c = root.resolve("c");
    Path d = root.resolve("d");
    a = c;
    b = d;
    // Three slow reads tolerated (a block's read is two: its bytes and its checksums); a read
    // over 50 ms is slow.
    open(FileBlockStore.open(storage, List.of(c, d), space(), CHUNK,
        new VolumeHealth(List.of(c.toString(), d.toString()), 3, 60_000, 50, Time::monotonicNow,
            Time::now), Time::monotonicNow));
    try (Injection slow = storage.delay(Op.READ, 120, inA.get(0))) {
      store.read(inA.get(0), 0, BLOCK);
      assertEquals(BLOCK, store.read(inA.get(0), 0, BLOCK).data().length,
          "a slow read still answers");
      assertThrows(BlockNotCachedException.class, () -> store.read(inA.get(0), 0, BLOCK));
    }
    DirState s = store.volumes().get(0);
    assertFalse(s.inService());
    assertTrue(s.cause().startsWith("slow read: read of "), s.cause());
    assertTrue(store.volumes().get(1).inService());
  }

  @Test
  void takeOut_reportsTheDroppedBlocksAndTheDirectorysState() throws Exception {
    failReadsOfA();
    for (int i = 0; i < TAKES_OUT; i++) {
      assertThrows(IOException.class, () -> store.read(inA.get(0), 0, BLOCK));
    }
    assertEquals(Set.of(a), dropped.keySet());
    assertEquals(Set.copyOf(inA), Set.copyOf(dropped.get(a)), "the master hears of both blocks");
    DirState s = store.volumes().get(0);
    assertEquals(a.toString(), s.dir());
    assertFalse(s.inService());
    assertTrue(s.cause().startsWith("read error: read of "), s.cause());
    assertTrue(s.cause().endsWith("Input/output error"), s.cause());
    assertTrue(s.outSinceMs() > 0);
    assertEquals(1, store.volumeFailures());
    assertTrue(Files.exists(a.resolve("current")), "nothing was deleted on the failing device");
  }

  @Test
  void returnVolumes_putsTheDirectoryBackInServiceEmpty() throws Exception {
    failReadsOfA();
    for (int i = 0; i < TAKES_OUT; i++) {
      assertThrows(IOException.class, () -> store.read(inA.get(0), 0, BLOCK));
    }
    Path leftover = new BlockFile(a, inA.get(0), BlockFile.Kind.DATA).path();
    assertTrue(Files.exists(leftover));
    storage.clear();
    assertEquals(List.of(a.toString()), store.returnVolumes());
    assertEquals(List.of(), store.returnVolumes(), "nothing left to return");
    assertTrue(store.volumes().get(0).inService());
    assertFalse(Files.exists(leftover), "the master was told it was dropped: it is deleted");
    assertEquals(2 * CAPACITY, store.space().capacityBytes());
    fill(key(40));
    assertTrue(store.blockFile(key(40)).orElseThrow().startsWith(a), "a, empty, takes fills");
  }

  @Test
  void returnVolumes_ofADirectoryStillFailing_leavesItOut() throws Exception {
    failFillsInA();
    try (Injection eio = storage.fail(Op.LIST, Errno.EIO)) {
      assertEquals(List.of(), store.returnVolumes());
    }
    assertFalse(store.volumes().get(0).inService());
  }

  @Test
  void everyDirectoryOut_theStoreCachesAndServesNothing() throws Exception {
    List<Injection> eio = failReadsOfA();
    for (BlockKey k : inB) {
      eio.add(storage.fail(Op.READ, Errno.EIO, k));
    }
    for (int i = 0; i < TAKES_OUT; i++) {
      assertThrows(IOException.class, () -> store.read(inA.get(0), 0, BLOCK));
      assertThrows(IOException.class, () -> store.read(inB.get(0), 0, BLOCK));
    }
    assertEquals(List.of(), store.cachedBlocks());
    assertEquals(0, store.space().capacityBytes());
    assertEquals(Optional.empty(), store.beginFill(key(50), BLOCK, "/data", 1, ""), "no fill");
  }
}
