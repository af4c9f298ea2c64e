package org.mpcache.hdfs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.apache.hadoop.fs.ChecksumException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Positional reads of a block file through its descriptor at any offset: the right bytes, every
 * chunk they touch verified, and no array allocated per read for the chunks a read covers in
 * part.
 */
class DescriptorBlockReaderTest {
  private static final int CHUNK = 64 * 1024;
  /** Eight whole chunks and a short last one. */
  private static final int LENGTH = 8 * CHUNK + 1000;

  @TempDir
  Path dir;
  private BlockFiles files;
  private DescriptorCache cache;

  @BeforeEach
  void setUp() {
    files = new BlockFiles(dir, CHUNK);
    cache = new DescriptorCache(0, 0, System::nanoTime);
  }

  @AfterEach
  void tearDown() {
    cache.close();
  }

  private DescriptorBlockReader positional(BlockFiles.Opened b) {
    return new DescriptorBlockReader(cache.insert(b.reader()), null, CHUNK);
  }

  @Test
  void read_positionalAtRandomOffsets_returnsTheBlocksBytes() throws Exception {
    BlockFiles.Opened b = files.open(1, LENGTH);
    DescriptorBlockReader r = positional(b);
    Random random = new Random(42);
    for (int i = 0; i < 500; i++) {
      int pos = random.nextInt(LENGTH);
      int len = 1 + random.nextInt(i % 2 == 0 ? 3 * CHUNK : 100);
      int off = random.nextInt(17);
      byte[] dst = new byte[off + len];

      int n = r.read(pos, dst, off, len);

      assertEquals(Math.min(len, LENGTH - pos), n, "at " + pos + " for " + len);
      assertArrayEquals(Arrays.copyOfRange(b.bytes(), pos, pos + n),
          Arrays.copyOfRange(dst, off, off + n), "at " + pos + " for " + len);
    }
    r.release();
  }

  @Test
  void read_positionalUnalignedTouchingACorruptChunk_throws() throws Exception {
    files.open(1, LENGTH);
    files.corrupt(1, 3L * CHUNK + 5);
    // The corrupt chunk as a read's head, middle and tail, and wholly inside a read.
    long[][] reads = {{3L * CHUNK + 100, 2 * CHUNK}, {2L * CHUNK + 100, 3 * CHUNK},
        {CHUNK + 100, 2 * CHUNK + 50}, {3L * CHUNK + 1, 10}};
    for (long[] read : reads) {
      DescriptorBlockReader r = positional(files.open(1, LENGTH));
      files.corrupt(1, 3L * CHUNK + 5);
      byte[] dst = new byte[(int) read[1]];
      assertThrows(ChecksumException.class, () -> r.read(read[0], dst, 0, dst.length),
          "at " + read[0] + " for " + read[1]);
      r.release();
    }
  }

  @Test
  void read_positionalUnaligned_allocatesNoBufferPerRead() throws Exception {
    java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    assumeTrue(mx instanceof com.sun.management.ThreadMXBean,
        "the JVM counts the bytes a thread allocates");
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) mx;
    assumeTrue(threads.isThreadAllocatedMemorySupported());
    DescriptorBlockReader r = positional(files.open(1, LENGTH));
    byte[] dst = new byte[4 * CHUNK];
    r.read(1, dst, 0, dst.length);
    int reads = 200;
    long id = Thread.currentThread().getId();

    long before = threads.getThreadAllocatedBytes(id);
    for (int i = 0; i < reads; i++) {
      r.read(1 + i, dst, 0, dst.length);
    }
    long allocated = threads.getThreadAllocatedBytes(id) - before;

    assertTrue(allocated < (long) reads * CHUNK / 8, "allocated " + allocated + " bytes in "
        + reads + " reads of " + dst.length + " bytes");
    r.release();
  }
}
