package org.mpcache.hdfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.ChecksumException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.common.BlockKey;

/**
 * The FileSystem's shared block files: reference counts, the idle timeout on an injected ticker,
 * the bound on idle files, and entries that are never handed out again.
 */
class DescriptorCacheTest {
  private static final int CHUNK = 512;
  private static final int LENGTH = 4 * CHUNK;
  private static final long IDLE_NANOS = TimeUnit.SECONDS.toNanos(10);

  @TempDir
  Path dir;
  private final AtomicLong nanos = new AtomicLong(1);
  private BlockFiles files;
  private DescriptorCache cache;

  @BeforeEach
  void setUp() {
    files = new BlockFiles(dir, CHUNK);
    cache = new DescriptorCache(2, IDLE_NANOS, nanos::get);
  }

  @AfterEach
  void tearDown() {
    cache.close();
  }

  private static BlockKey key(long id) {
    return new BlockKey("BP-1", id, 1);
  }

  @Test
  void acquire_afterInsert_sharesTheOpenFileAndCountsTheHit() throws Exception {
    BlockFiles.Opened b = files.open(1, LENGTH);
    DescriptorCache.Ref first = cache.insert(b.reader());
    long hits = ClientCounters.get().descriptorCacheHits();

    DescriptorCache.Ref second = cache.acquire(key(1), LENGTH);

    assertNotNull(second, "the block's file is open already");
    assertSame(b.reader(), second.file());
    assertEquals(hits + 1, ClientCounters.get().descriptorCacheHits());
    assertNull(cache.acquire(key(2), LENGTH), "another block is not here");
    assertNull(cache.acquire(key(1), LENGTH + 1), "a block of another length is not this one");
    first.release();
    second.release();
  }

  @Test
  void release_lastReaderThenIdleTimeout_closesTheFileOnlyThen() throws Exception {
    BlockFiles.Opened b = files.open(1, LENGTH);
    DescriptorCache.Ref first = cache.insert(b.reader());
    DescriptorCache.Ref second = cache.acquire(key(1), LENGTH);

    first.release();
    first.release();
    assertEquals(0, b.hold().releases.get(), "the second reader still reads it");
    second.release();
    nanos.addAndGet(IDLE_NANOS - 1);
    cache.purge();
    assertEquals(0, b.hold().releases.get(), "idle, not yet for the timeout");

    DescriptorCache.Ref again = cache.acquire(key(1), LENGTH);
    assertSame(b.reader(), again.file(), "an idle file is handed out again");
    again.release();
    nanos.addAndGet(IDLE_NANOS);
    cache.purge();

    assertEquals(1, b.hold().releases.get(), "closed once, after its last reader and the timeout");
    assertNull(cache.acquire(key(1), LENGTH));
    assertEquals(0, cache.size());
  }

  @Test
  void drop_whileReferenced_notHandedOutAgainAndClosedAtTheLastRelease() throws Exception {
    BlockFiles.Opened b = files.open(1, LENGTH);
    DescriptorCache.Ref r = cache.insert(b.reader());

    cache.drop(key(1));

    assertNull(cache.acquire(key(1), LENGTH), "the slave evicted the block");
    assertEquals(0, b.hold().releases.get(), "its reader reads on, as through its own lease");
    r.release();
    assertEquals(1, b.hold().releases.get());
  }

  @Test
  void acquire_slaveLetTheLeaseGo_dropsTheFile() throws Exception {
    BlockFiles.Opened b = files.open(1, LENGTH);
    cache.insert(b.reader()).release();
    b.hold().letGo = true;

    assertNull(cache.acquire(key(1), LENGTH));
    assertEquals(1, b.hold().releases.get());
    assertEquals(0, cache.size());
  }

  @Test
  void revoke_idleFile_closesItAtOnce() throws Exception {
    BlockFiles.Opened b = files.open(1, LENGTH);
    cache.insert(b.reader()).release();

    b.hold().revoke();

    assertEquals(1, b.hold().releases.get(), "the slave frees the evicted block's space now");
    assertNull(cache.acquire(key(1), LENGTH));
  }

  @Test
  void revoke_whileRead_notHandedOutAgainAndClosedAtTheLastRelease() throws Exception {
    BlockFiles.Opened b = files.open(1, LENGTH);
    DescriptorCache.Ref r = cache.insert(b.reader());

    b.hold().revoke();

    assertNull(cache.acquire(key(1), LENGTH));
    assertEquals(0, b.hold().releases.get(), "its reader reads the block to its end");
    r.release();
    assertEquals(1, b.hold().releases.get());
  }

  @Test
  void read_chunkFailsItsChecksum_fileNotHandedOutAgain() throws Exception {
    BlockFiles.Opened b = files.open(1, LENGTH);
    files.corrupt(1, CHUNK + 7);
    DescriptorBlockReader r = new DescriptorBlockReader(cache.insert(b.reader()), null, CHUNK);

    assertThrows(ChecksumException.class, () -> r.read(0, new byte[LENGTH], 0, LENGTH));

    assertNull(cache.acquire(key(1), LENGTH));
    r.release();
    assertEquals(1, b.hold().releases.get());
  }

  @Test
  void release_pastTheBound_closesTheLongestIdleFirst() throws Exception {
    BlockFiles.Opened[] b = new BlockFiles.Opened[4];
    DescriptorCache.Ref[] refs = new DescriptorCache.Ref[b.length];
    for (int i = 0; i < b.length; i++) {
      b[i] = files.open(i + 1, LENGTH);
      refs[i] = cache.insert(b[i].reader());
    }
    assertEquals(4, cache.size(), "referenced files are never closed for the bound");

    for (DescriptorCache.Ref r : refs) {
      nanos.incrementAndGet();
      r.release();
    }

    assertEquals(2, cache.size());
    assertEquals(1, b[0].hold().releases.get());
    assertEquals(1, b[1].hold().releases.get());
    assertEquals(0, b[2].hold().releases.get());
    assertEquals(0, b[3].hold().releases.get());
    assertNull(cache.acquire(key(1), LENGTH));
    assertNotNull(cache.acquire(key(4), LENGTH));
  }

  @Test
  void close_closesIdleFilesAndKeepsNoNewOne() throws Exception {
    BlockFiles.Opened idle = files.open(1, LENGTH);
    cache.insert(idle.reader()).release();
    BlockFiles.Opened held = files.open(2, LENGTH);
    DescriptorCache.Ref r = cache.insert(held.reader());

    cache.close();

    assertEquals(1, idle.hold().releases.get());
    assertEquals(0, held.hold().releases.get(), "closed by its reader's release");
    r.release();
    assertEquals(1, held.hold().releases.get());
    BlockFiles.Opened late = files.open(3, LENGTH);
    cache.insert(late.reader()).release();
    assertEquals(1, late.hold().releases.get());
    assertEquals(0, cache.size());
  }
}
