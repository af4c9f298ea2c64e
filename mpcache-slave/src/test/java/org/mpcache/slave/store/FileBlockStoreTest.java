package org.mpcache.slave.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.common.BlockKey;
import org.mpcache.slave.space.DynamicSpaceTuner;
import org.mpcache.slave.space.SsdVolume;
import org.mpcache.slave.space.TunedInputCacheSpace;

class FileBlockStoreTest {
  private static final int CHUNK = 1024;
  private static final String DATASET = "/data/in";
  @TempDir
  Path dir;

  private static byte[] bytes(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  private static BlockKey key(long id) {
    return new BlockKey("BP-1", id, 1001);
  }

  /** A store whose directories each have an Input Cache of {@code capacity} bytes and no pool. */
  private FileBlockStore open(long capacity, Path... dirs) throws IOException {
    List<Path> all = dirs.length == 0 ? List.of(dir) : Arrays.asList(dirs);
    return TestStores.open(all, space(capacity, all), CHUNK);
  }

  private static InputCacheSpace space(long capacity, List<Path> dirs) {
    List<SsdVolume> layout = new ArrayList<>();
    for (Path d : dirs) {
      layout.add(SsdVolume.split(d.toString(), capacity, capacity, 1.0, 0.0));
    }
    return new TunedInputCacheSpace(new DynamicSpaceTuner(layout, 0.5), new Object());
  }

  private static void fill(FileBlockStore s, BlockKey k, byte[] data) throws IOException {
    BlockFill f = s.beginFill(k, data.length, DATASET, 1, "").orElseThrow();
    for (int off = 0; off < data.length; off += 777) {
      f.append(off, ByteBuffer.wrap(data, off, Math.min(777, data.length - off)));
    }
    f.commit();
  }

  @Test
  void read_returnsChunkAlignedBytesWithTheirChecksums() throws IOException {
    FileBlockStore s = open(1 << 20);
    byte[] data = bytes(5000, 1);
    fill(s, key(1), data);
    BlockReadResult r = s.read(key(1), 1500, 2000);
    assertEquals(1024, r.offset());
    assertArrayEquals(Arrays.copyOfRange(data, 1024, 4096), r.data());
    CRC32C crc = new CRC32C();
    crc.update(data, 2048, 1024);
    assertEquals((int) crc.getValue(), r.checksums()[1]);
    assertEquals(3, r.checksums().length);
    BlockReadResult tail = s.read(key(1), 4500, 4096);
    assertArrayEquals(Arrays.copyOfRange(data, 4096, 5000), tail.data());
    assertTrue(s.verify(key(1)));
  }

  @Test
  void lease_carriesTheStoredChecksumsAndOnlyOfCachedBlocks() throws IOException {
    FileBlockStore s = open(1 << 20);
    BlockFill f = s.beginFill(key(1), 5000, DATASET, 1, "").orElseThrow();
    assertEquals(Optional.empty(), s.lease(key(1)), "a block being filled is not lent");
    f.abort();
    byte[] data = bytes(5000, 2);
    fill(s, key(1), data);
    try (BlockLease l = s.lease(key(1)).orElseThrow()) {
      assertEquals(5000, l.length());
      assertEquals(CHUNK, l.chunkSize());
      assertArrayEquals(s.read(key(1), 0, 5000).checksums(), l.checksums());
      assertArrayEquals(data, Files.readAllBytes(l.path()));
      assertEquals(1, s.leasesHeld());
    }
    assertEquals(0, s.leasesHeld());
    assertEquals(Optional.empty(), s.lease(key(2)));
  }

  @Test
  void remove_ofALeasedBlockKeepsItsSpaceUntilTheLastLeaseCloses() throws IOException {
    FileBlockStore s = open(6000);
    byte[] data = bytes(5000, 3);
    fill(s, key(1), data);
    BlockLease first = s.lease(key(1)).orElseThrow();
    BlockLease second = s.lease(key(1)).orElseThrow();
    try (java.nio.channels.FileChannel open = java.nio.channels.FileChannel.open(first.path())) {
      assertTrue(s.remove(key(1)));
      assertFalse(Files.exists(first.path()), "the file is unlinked at once");
      assertEquals(Optional.empty(), s.lease(key(1)), "no new lease after the removal");
      assertEquals(-1, s.cachedLength(key(1)));
      assertEquals(5000, s.space().usedBytes(), "the open file still holds the SSD's bytes");
      assertEquals(Optional.empty(), s.beginFill(key(2), 2000, DATASET, 1, ""));
      ByteBuffer all = ByteBuffer.allocate(5000);
      open.read(all, 0);
      assertArrayEquals(data, all.array(), "a reader that has the file reads it to its end");
      first.close();
      first.close();
      assertEquals(5000, s.space().usedBytes());
      second.close();
    }
    assertEquals(0, s.space().usedBytes(), "the last lease released the space");
    assertEquals(Optional.empty(), s.state(key(1)));
    assertTrue(s.beginFill(key(1), 5000, DATASET, 1, "").isPresent(), "the key is free again");
  }

  @Test
  void beginFill_reservesSpaceAndRefusesWhatDoesNotFit() throws IOException {
    FileBlockStore s = open(6000);
    BlockFill f = s.beginFill(key(1), 5000, DATASET, 1, "").orElseThrow();
    assertEquals(5000, s.space().usedBytes());
    assertEquals(Optional.empty(), s.beginFill(key(2), 2000, DATASET, 1, ""));
    assertEquals(Optional.empty(), s.beginFill(key(1), 10, DATASET, 1, ""), "a block being filled is claimed");
    f.abort();
    assertEquals(0, s.space().usedBytes());
    assertTrue(s.beginFill(key(2), 2000, DATASET, 1, "").isPresent());
  }

  @Test
  void bytesWritten_countsDataAndChecksumsOfCommittedAndAbortedFills() throws IOException {
    FileBlockStore s = open(1 << 20);
    assertEquals(0, s.bytesWritten());
    byte[] data = bytes(3000, 7);
    fill(s, key(1), data);
    long sidecar = s.bytesWritten() - data.length;
    // The checksum file: a header and one CRC per 1 KiB chunk.
    assertTrue(sidecar > 3 * 4, "the checksum file counts: " + sidecar);
    BlockFill f = s.beginFill(key(2), 2000, DATASET, 1, "").orElseThrow();
    f.append(0, ByteBuffer.wrap(bytes(1500, 8)));
    f.abort();
    assertEquals(data.length + sidecar + 1500, s.bytesWritten(),
        "an aborted fill's bytes wore the flash too");
  }

  @Test
  void append_rejectsOutOfOrderAndOverlongWrites() throws IOException {
    FileBlockStore s = open(1 << 20);
    BlockFill f = s.beginFill(key(1), 100, DATASET, 1, "").orElseThrow();
    assertThrows(IOException.class, () -> f.append(10, ByteBuffer.allocate(5)));
    f.append(0, ByteBuffer.allocate(60));
    assertThrows(IOException.class, () -> f.append(60, ByteBuffer.allocate(41)));
    assertThrows(IOException.class, f::commit, "commit before all bytes arrived");
  }

  @Test
  void read_blockNotCachedWhileFillingOrAfterRemove() throws IOException {
    FileBlockStore s = open(1 << 20);
    BlockFill f = s.beginFill(key(1), 10, DATASET, 1, "").orElseThrow();
    assertThrows(BlockNotCachedException.class, () -> s.read(key(1), 0, 10));
    f.append(0, ByteBuffer.allocate(10));
    f.commit();
    assertEquals(10, s.cachedLength(key(1)));
    assertTrue(s.remove(key(1)));
    assertFalse(s.remove(key(1)));
    assertThrows(BlockNotCachedException.class, () -> s.read(key(1), 0, 10));
    assertEquals(0, s.space().usedBytes());
  }

  @Test
  void open_keepsIntactBlocksAndDropsDamagedOnes() throws IOException {
    FileBlockStore s = open(1 << 20);
    byte[] a = bytes(3000, 2);
    fill(s, key(1), a);
    fill(s, key(2), bytes(3000, 3));
    fill(s, key(3), bytes(3000, 4));
    try (RandomAccessFile raf = new RandomAccessFile(s.blockFile(key(2)).orElseThrow().toFile(),
        "rw")) {
      raf.setLength(1000);
    }
    Path crc3 = s.blockFile(key(3)).orElseThrow().resolveSibling("blk_3_1001.crc");
    Files.write(crc3, new byte[] {1, 2, 3});
    BlockFill unfinished = s.beginFill(key(4), 3000, DATASET, 1, "").orElseThrow();
    unfinished.append(0, ByteBuffer.allocate(100));

    FileBlockStore again = open(1 << 20);
    assertEquals(List.of(key(1)), again.cachedBlocks());
    assertEquals(3000, again.space().usedBytes());
    assertArrayEquals(a, again.read(key(1), 0, 3000).data());
    try (var tmp = Files.list(dir.resolve("tmp"))) {
      assertEquals(0, tmp.count(), "unfinished fills are deleted");
    }
  }

  @Test
  void open_restoresEachBlocksDatasetAndFileFromItsSidecar() throws IOException {
    FileBlockStore s = open(1 << 20);
    BlockFill f = s.beginFill(key(1), 1500, "/data/a", 7, "/data/a/part-00000").orElseThrow();
    f.append(0, ByteBuffer.wrap(bytes(1500, 9)));
    f.commit();
    fill(s, key(2), bytes(10, 10));

    FileBlockStore again = open(1 << 20);
    List<CachedBlock> restored = new ArrayList<>(again.cachedBlockRecords());
    restored.sort((x, y) -> x.key().compareTo(y.key()));
    assertEquals(List.of(new CachedBlock(key(1), 1500, "/data/a", 7, "/data/a/part-00000"),
        new CachedBlock(key(2), 10, DATASET, 1, "")), restored);
  }

  @Test
  void open_sidecarOfAnOlderFormat_dropsThatBlockOnly() throws IOException {
    FileBlockStore s = open(1 << 20);
    fill(s, key(1), bytes(2000, 11));
    fill(s, key(2), bytes(2000, 12));
    Path crc1 = s.blockFile(key(1)).orElseThrow().resolveSibling("blk_1_1001.crc");
    ByteBuffer v1 = ByteBuffer.allocate(20 + 8);
    v1.putInt(0x4d504343).putInt(1).putInt(CHUNK).putLong(2000);
    Files.write(crc1, v1.array());

    FileBlockStore again = open(1 << 20);
    assertEquals(List.of(key(2)), again.cachedBlocks());
    assertFalse(Files.exists(crc1), "the dropped block's files are deleted");
  }

  @Test
  void verify_findsAFlippedByte() throws IOException {
    FileBlockStore s = open(1 << 20);
    fill(s, key(1), bytes(4000, 5));
    try (RandomAccessFile raf = new RandomAccessFile(s.blockFile(key(1)).orElseThrow().toFile(),
        "rw")) {
      raf.seek(3333);
      int b = raf.read();
      raf.seek(3333);
      raf.write(b ^ 1);
    }
    assertFalse(s.verify(key(1)));
  }

  @Test
  void beginFill_spreadsBlocksOverDirectories() throws IOException {
    Path d1 = dir.resolve("ssd1");
    Path d2 = dir.resolve("ssd2");
    FileBlockStore s = open(1 << 20, d1, d2);
    fill(s, key(1), bytes(2000, 6));
    fill(s, key(2), bytes(2000, 7));
    assertTrue(s.blockFile(key(1)).orElseThrow().startsWith(d1)
        != s.blockFile(key(2)).orElseThrow().startsWith(d1), "one block on each SSD");
  }

  @Test
  void open_rejectsNoDirectories() {
    assertThrows(IllegalArgumentException.class,
        () -> TestStores.open(List.of(), space(1, List.of(dir)), CHUNK));
  }

  private static long openDescriptors() throws IOException {
    try (java.util.stream.Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      return fds.count();
    }
  }

  /**
   * A space that, once armed, stops in {@link #release} until let go: the moment an evicted
   * block's entry may be gone while its reservation is still held.
   */
  private static final class PausingSpace implements InputCacheSpace {
    final InputCacheSpace delegate;
    final CountDownLatch inRelease = new CountDownLatch(1);
    final CountDownLatch letGo = new CountDownLatch(1);
    volatile boolean armed;

    PausingSpace(InputCacheSpace delegate) {
      this.delegate = delegate;
    }

    @Override
    public String tryReserve(BlockKey block, long bytes, String dir) {
      return delegate.tryReserve(block, bytes, dir);
    }

    @Override
    public void filled(BlockKey block) {
      delegate.filled(block);
    }

    @Override
    public void release(BlockKey block) {
      if (armed) {
        inRelease.countDown();
        try {
          letGo.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      delegate.release(block);
    }

    @Override
    public long freeBytes() {
      return delegate.freeBytes();
    }

    @Override
    public long usedBytes() {
      return delegate.usedBytes();
    }

    @Override
    public long capacityBytes() {
      return delegate.capacityBytes();
    }

    @Override
    public void setInService(String dir, boolean inService) {
      delegate.setInService(dir, inService);
    }
  }

  @Test
  void beginFill_holdsNoFileDescriptorBeforeTheFirstWrite() throws IOException {
    FileBlockStore s = open(1 << 20);
    long before = openDescriptors();
    List<BlockFill> fills = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      fills.add(s.beginFill(key(i), 1000, DATASET, 1, "").orElseThrow());
    }
    long held = openDescriptors() - before;
    fills.forEach(BlockFill::abort);
    assertTrue(held < 10, "200 empty fills hold " + held + " descriptors");
    assertEquals(0, s.space().usedBytes(), "aborted fills release their space");
  }

  @Test
  void append_thenCommit_closesTheFileBetweenWrites() throws IOException {
    FileBlockStore s = open(1 << 20);
    byte[] data = bytes(5000, 3);
    BlockFill f = s.beginFill(key(1), data.length, DATASET, 1, "").orElseThrow();
    long before = openDescriptors();
    f.append(0, ByteBuffer.wrap(data, 0, 2000));
    assertTrue(openDescriptors() - before < 1, "no descriptor is held between writes");
    f.append(2000, ByteBuffer.wrap(data, 2000, 3000));
    f.commit();
    assertArrayEquals(data, s.read(key(1), 0, data.length).data());
  }

  @Test
  void beginFill_whileTheSameKeyIsBeingRemoved_neverLeavesItFilling() throws Exception {
    PausingSpace space = new PausingSpace(space(1 << 20, List.of(dir)));
    FileBlockStore s = TestStores.open(List.of(dir), space, CHUNK);
    byte[] data = bytes(3000, 8);
    fill(s, key(1), data);
    space.armed = true;
    Thread evictor = new Thread(() -> s.remove(key(1)));
    evictor.start();
    assertTrue(space.inRelease.await(10, TimeUnit.SECONDS));
    space.armed = false;
    Optional<BlockFill> refill = assertDoesNotThrow(() -> s.beginFill(key(1), data.length, DATASET, 1, ""),
        "a fill racing the removal of its key");
    space.letGo.countDown();
    evictor.join(10_000);
    if (refill.isPresent()) {
      refill.get().append(0, ByteBuffer.wrap(data));
      refill.get().commit();
      assertArrayEquals(data, s.read(key(1), 0, data.length).data());
    } else {
      assertEquals(Optional.empty(), s.state(key(1)), "the removed key is free again");
      fill(s, key(1), data);
    }
    assertEquals(Optional.of(FileBlockStore.State.CACHED), s.state(key(1)));
    assertEquals(data.length, s.space().usedBytes());
  }

  @Test
  void remove_whileFilling_discardsTheBlockAtCommit() throws IOException {
    FileBlockStore s = open(1 << 20);
    byte[] data = bytes(3000, 9);
    BlockFill f = s.beginFill(key(1), data.length, DATASET, 1, "").orElseThrow();
    f.append(0, ByteBuffer.wrap(data, 0, 1000));
    assertTrue(s.remove(key(1)), "a block being filled is removed");
    f.append(1000, ByteBuffer.wrap(data, 1000, 2000));
    assertThrows(IOException.class, f::commit, "the commit of a removed block");
    assertEquals(Optional.empty(), s.state(key(1)));
    assertEquals(0, s.space().usedBytes());
    assertFalse(s.blockFile(key(1)).isPresent());
    fill(s, key(1), data);
    assertArrayEquals(data, s.read(key(1), 0, data.length).data());
  }

  @Test
  void removeAndFill_racingThreads_endCachedWithTheRightBytesOrAbsent() throws Exception {
    FileBlockStore s = open(1 << 20);
    byte[] data = bytes(20_000, 10);
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      for (int round = 0; round < 200; round++) {
        CyclicBarrier go = new CyclicBarrier(3);
        List<Future<?>> racers = new ArrayList<>();
        for (int filler = 0; filler < 2; filler++) {
          racers.add(pool.submit(() -> {
            go.await();
            Optional<BlockFill> f = s.beginFill(key(1), data.length, DATASET, 1, "");
            if (f.isPresent()) {
              for (int off = 0; off < data.length; off += 4096) {
                f.get().append(off, ByteBuffer.wrap(data, off,
                    Math.min(4096, data.length - off)));
              }
              try {
                f.get().commit();
              } catch (IOException discarded) {
                // Removed while filling: the block is dropped, as the evictor asked.
              }
            }
            return null;
          }));
        }
        racers.add(pool.submit(() -> {
          go.await();
          for (int i = 0; i < 50; i++) {
            s.remove(key(1));
          }
          return null;
        }));
        for (Future<?> r : racers) {
          r.get(30, TimeUnit.SECONDS);
        }
        Optional<FileBlockStore.State> state = s.state(key(1));
        assertTrue(state.isEmpty() || state.get() == FileBlockStore.State.CACHED,
            "round " + round + ": " + state);
        if (state.isPresent()) {
          assertArrayEquals(data, s.read(key(1), 0, data.length).data());
          assertEquals(data.length, s.space().usedBytes());
          assertTrue(s.remove(key(1)));
        }
        assertEquals(0, s.space().usedBytes(), "round " + round);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
