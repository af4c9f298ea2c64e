package org.mpcache.hdfs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.net.SocketTimeoutException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.thirdparty.protobuf.ServiceException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mpcache.common.proto.ClientSlaveProtos.FallbackCauseProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReportReadRequestProto;

/**
 * The stream against an in-memory slave ({@link FakeSlave}): hits come from the slave, misses
 * from HDFS, and every fault of the cache falls back to HDFS with the right bytes, counted by
 * its cause, the slave left alone only when it failed itself. Time is the fake's ticker: a
 * deadline passes when a fault or a delay says so, not by waiting. A master that cannot be
 * reached leaves the stream with no slave for its blocks, as {@code read_noSlaveForTheBlocks} has
 * it.
 */
class CachingInputStreamTest {
  private static final int BLOCK = 16 * 1024;
  /** A read size that takes several reads per block. */
  private static final int READ = 3_000;

  private final FakeSlave slave;

  CachingInputStreamTest() throws Exception {
    slave = new FakeSlave(2, BLOCK);
  }

  @AfterEach
  void stop() {
    slave.close();
  }

  /** Reads the whole file sequentially, {@link #READ} bytes at a time. */
  private byte[] readSequentially(CachingInputStream in) throws Exception {
    byte[] got = new byte[slave.content.length];
    int at = 0;
    while (at < got.length) {
      int n = in.read(got, at, Math.min(READ, got.length - at));
      assertTrue(n > 0, "read at " + at + " returned " + n);
      at += n;
    }
    assertEquals(-1, in.read(new byte[1], 0, 1));
    return got;
  }

  /** Reads the whole file by positional reads, {@link #READ} bytes at a time, back to front. */
  private byte[] readPositionally(CachingInputStream in) throws Exception {
    byte[] got = new byte[slave.content.length];
    for (int at = (got.length - 1) / READ * READ; at >= 0; at -= READ) {
      int want = Math.min(READ, got.length - at);
      for (int done = 0; done < want; ) {
        done += in.read(at + done, got, at + done, want - done);
      }
    }
    return got;
  }

  private static long fallbacks(FallbackCause cause) {
    return ClientCounters.get().fallbacks(cause);
  }

  @Test
  void read_hit_readsEveryByteFromTheSlave() throws Exception {
    slave.cached.addAll(Arrays.asList(0, 1));
    long fromCache = ClientCounters.get().bytesFromCache();
    try (CachingInputStream in = slave.open()) {
      assertArrayEquals(slave.content, readSequentially(in));
    }
    assertEquals(0, slave.bytesFromHdfs.get());
    assertEquals(slave.content.length, ClientCounters.get().bytesFromCache() - fromCache);
    assertEquals(2, slave.lookups.get(), "one lookup per block");
  }

  @Test
  void read_miss_readsHdfsAndReportsItsBytes() throws Exception {
    long misses = ClientCounters.get().misses();
    try (CachingInputStream in = slave.open()) {
      assertArrayEquals(slave.content, readSequentially(in));
    }
    slave.close();
    assertEquals(slave.content.length, slave.bytesFromHdfs.get());
    assertEquals(0, slave.reads.get());
    assertEquals(misses + 2, ClientCounters.get().misses());
    long reported = slave.readReports.stream().mapToLong(r -> r.getBytesFromHdfs()).sum()
        + slave.lookupsCarried();
    assertEquals(slave.content.length, reported, "each block's HDFS bytes reach the slave");
  }

  /**
   * Block 0 cached; a read after its first meets {@code fault}; the rest of block 0 comes from
   * HDFS, the fallback counted as {@code cause}, the slave left alone only when {@code benched}.
   * An evicted block is the slave's answer that it no longer has it.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({"CORRUPT, CHECKSUM_MISMATCH, false", "SHORT, SHORT_READ, false",
      "REFUSED, SLAVE_ERROR, false", "EVICT, SLAVE_ERROR, false",
      "UNREACHABLE, SLAVE_UNREACHABLE, true", "SLOW, DEADLINE_EXCEEDED, true"})
  void read_faultOfTheCache_fallsBackToHdfsWithTheRightBytes(FakeSlave.Fault fault,
      FallbackCause cause, boolean benched) throws Exception {
    slave.cached.add(0);
    long before = fallbacks(cause);
    try (CachingInputStream in = slave.open()) {
      byte[] got = new byte[slave.content.length];
      assertEquals(READ, in.read(got, 0, READ));
      slave.failNext("read", fault);
      int at = READ;
      while (at < got.length) {
        at += in.read(got, at, got.length - at);
      }
      assertArrayEquals(slave.content, got, "the right bytes whatever the fault");
    }
    assertEquals(before + 1, fallbacks(cause));
    assertTrue(slave.bytesFromHdfs.get() >= BLOCK, "the rest of block 0 and block 1 from HDFS");
    assertEquals(cause == FallbackCause.CHECKSUM_MISMATCH ? 1 : 0, slave.corruptReports.get(),
        "a mismatch is reported to the slave");
    if (benched) {
      verify(slave.directory).markFaulty("s1");
    } else {
      verify(slave.directory, never()).markFaulty(anyString());
    }
  }

  @Test
  void read_positionalAndSequentialOfTheSameBlocks_agreeAndHitOncePerBlockEach()
      throws Exception {
    slave.cached.addAll(Arrays.asList(0, 1));
    try (CachingInputStream in = slave.open()) {
      assertArrayEquals(slave.content, readPositionally(in));
      assertEquals(2, slave.lookups.get(), "positional reads look a block up once");
      assertArrayEquals(slave.content, readSequentially(in));
      assertArrayEquals(slave.content, readPositionally(in));
    }
    assertEquals(4, slave.lookups.get(), "and the sequential reader once per block");
    assertEquals(0, slave.bytesFromHdfs.get());
  }

  @Test
  void read_positionalFault_blockGoesToHdfsForLaterPositionalReads() throws Exception {
    slave.cached.addAll(Arrays.asList(0, 1));
    try (CachingInputStream in = slave.open()) {
      slave.failNext("read", FakeSlave.Fault.CORRUPT);
      byte[] got = new byte[READ];
      assertEquals(READ, in.read(0, got, 0, READ));
      assertArrayEquals(Arrays.copyOf(slave.content, READ), got);
      int reads = slave.reads.get();
      assertEquals(READ, in.read(READ, got, 0, READ));
      assertEquals(reads, slave.reads.get(), "no more cache reads of the block");
    }
    assertEquals(1, slave.corruptReports.get());
  }

  /**
   * At close, the read reports of missed positional blocks stop at the first one their slave
   * does not answer in time: the slave is marked faulty and sent no more, so close costs one
   * deadline per slave, not one per block.
   */
  @Test
  void close_positionalReportsToASlaveThatTimesOut_oneCallAndTheSlaveLeftAlone()
      throws Exception {
    try (FakeSlave four = new FakeSlave(4, BLOCK)) {
      AtomicInteger reports = new AtomicInteger();
      when(four.proxy.reportRead(any(), any())).thenAnswer(inv -> {
        reports.incrementAndGet();
        throw new ServiceException(new SocketTimeoutException("scripted: no answer in time"));
      });
      try (CachingInputStream in = four.open()) {
        readEachBlockPositionally(four, in);
      }
      assertEquals(1, reports.get(), "read reports sent to a slave that timed out");
      verify(four.directory).markFaulty("s1");
    }
  }

  /**
   * Reads 4 missed blocks, the ticker moving {@code stepMs} per block; returns the lookups made
   * by the time the stream is closed.
   */
  private static int lookupsOfMissedBlocks(long stepMs) throws Exception {
    try (FakeSlave four = new FakeSlave(4, BLOCK)) {
      Configuration conf = new Configuration(false);
      conf.setLong(ClientConfigKeys.MISS_LOOKUP_INTERVAL_MS_KEY, 200);
      // With the background threads closed, lookups go out on the reader's thread, in order:
      // only the interval decides which blocks one names.
      four.close();
      byte[] got = new byte[four.content.length];
      try (CachingInputStream in = four.open(conf)) {
        for (int at = 0; at < got.length; at += BLOCK) {
          assertEquals(BLOCK, in.read(got, at, BLOCK));
          four.nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(stepMs));
        }
      }
      assertArrayEquals(four.content, got);
      return four.lookups.get();
    }
  }

  @Test
  void read_missedBlocksWithinTheLookupInterval_lookedUpTogether() throws Exception {
    long misses = ClientCounters.get().misses();
    assertEquals(2, lookupsOfMissedBlocks(10), "the first block, then the rest at close");
    assertEquals(misses + 4, ClientCounters.get().misses());
  }

  @Test
  void read_missedBlocksSlowerThanTheLookupInterval_eachLookedUp() throws Exception {
    assertEquals(4, lookupsOfMissedBlocks(300));
  }

  /** Reads 10 bytes positionally at the start of each block of {@code s}, back to front. */
  private static void readEachBlockPositionally(FakeSlave s, CachingInputStream in)
      throws Exception {
    for (int i = s.blocks - 1; i >= 0; i--) {
      byte[] got = new byte[10];
      assertEquals(10, in.read((long) i * s.blockBytes, got, 0, 10));
      assertArrayEquals(Arrays.copyOfRange(s.content, i * s.blockBytes, i * s.blockBytes + 10),
          got);
    }
  }

  /** A slave caching all of a file of twelve blocks. */
  private static FakeSlave twelveCachedBlocks() throws Exception {
    FakeSlave twelve = new FakeSlave(12, BLOCK);
    for (int i = 0; i < 12; i++) {
      twelve.cached.add(i);
    }
    return twelve;
  }

  /** Settings under which a stream's positional reads keep the readers of four blocks. */
  private static Configuration holdingFourBlocks() {
    Configuration conf = new Configuration(false);
    conf.setInt(ClientConfigKeys.POSITIONAL_MAX_HELD_BLOCKS_KEY, 4);
    return conf;
  }

  @Test
  void read_positionalOverMoreBlocksThanHeld_holdsTheBoundAndReleasesAtCloseOfStreamOrFs()
      throws Exception {
    try (FakeSlave twelve = twelveCachedBlocks()) {
      Configuration conf = holdingFourBlocks();
      CachingInputStream closed = twelve.open(conf);
      readEachBlockPositionally(twelve, closed);
      assertEquals(4, closed.heldPositionalReaders(), "only the blocks read last keep readers");
      int lookups = twelve.lookups.get();
      readEachBlockPositionally(twelve, closed);
      assertEquals(lookups, twelve.lookups.get(),
          "let go, the readers are opened again from the lookups' answers");
      assertEquals(4, closed.heldPositionalReaders());
      closed.close();
      assertEquals(0, closed.heldPositionalReaders());

      // Never closed: the FileSystem's close lets its readers go.
      CachingInputStream leaked = twelve.open(conf);
      readEachBlockPositionally(twelve, leaked);
      assertEquals(4, leaked.heldPositionalReaders());
      twelve.openStreams.close();
      assertEquals(0, leaked.heldPositionalReaders());
      assertEquals(0, twelve.openStreams.size());
    }
  }

  @Test
  void read_positionalBlockEvictedAfterItsReaderWasLetGo_readFromHdfsWithTheRightBytes()
      throws Exception {
    try (FakeSlave twelve = twelveCachedBlocks()) {
      Configuration conf = holdingFourBlocks();
      try (CachingInputStream in = twelve.open(conf)) {
        readEachBlockPositionally(twelve, in);
        // Block 11 was read first, so it let its reader go; evicted, its kept answer is stale.
        twelve.cached.remove(11);
        long fromHdfs = ClientCounters.get().bytesFromHdfs();
        readEachBlockPositionally(twelve, in);
        assertEquals(fromHdfs + 10, ClientCounters.get().bytesFromHdfs(),
            "the evicted block's read went to HDFS, the others to the cache");
        byte[] got = new byte[10];
        assertEquals(10, in.read(11L * BLOCK + 100, got, 0, 10));
        assertArrayEquals(Arrays.copyOfRange(twelve.content, 11 * BLOCK + 100, 11 * BLOCK + 110),
            got);
      }
    }
  }

  /** The one read report of block {@code index} the slave had. */
  private static ReportReadRequestProto reportOf(FakeSlave s, int index) {
    List<ReportReadRequestProto> of = s.allReports().stream()
        .filter(r -> r.getBlock().getBlockId() == index + 1).collect(Collectors.toList());
    assertEquals(1, of.size(), "read reports of block " + index + ": " + of);
    return of.get(0);
  }

  @Test
  void read_noSlaveForTheBlocks_readsHdfsAndCallsNoSlave() throws Exception {
    when(slave.directory.choose(any())).thenReturn(Optional.empty());
    slave.cached.addAll(Arrays.asList(0, 1));
    try (CachingInputStream in = slave.open()) {
      assertArrayEquals(slave.content, readSequentially(in));
      assertArrayEquals(slave.content, readPositionally(in));
    }
    slave.close();
    assertEquals(0, slave.lookups.get());
    assertEquals(0, slave.reads.get());
    assertTrue(slave.allReports().isEmpty(), "blocks no slave was chosen for are not reported");
  }

  /**
   * After a miss, the next block's lookup goes off the reader's thread (here, with the
   * background threads closed, it is answered at once): a hit moves the rest of that block to
   * the cache from the reader's next read.
   */
  @Test
  void read_hitFoundByALookupOffTheReadersThread_restOfTheBlockFromTheCache() throws Exception {
    slave.cached.add(1);
    slave.close();
    long fromCache = ClientCounters.get().bytesFromCache();
    try (CachingInputStream in = slave.open()) {
      assertArrayEquals(slave.content, readSequentially(in));
    }
    assertEquals(BLOCK, slave.bytesFromHdfs.get(), "block 0 only");
    assertEquals(BLOCK, ClientCounters.get().bytesFromCache() - fromCache);
  }

  /**
   * A sequential reader's calls for one block share the cache deadline: a lookup and a read that
   * each take most of it exceed it together, and the rest of the block comes from HDFS. A
   * positional read's calls have the deadline each.
   */
  @Test
  void read_callsSlowerTogetherThanTheDeadline_sequentialFallsBackPositionalDoesNot()
      throws Exception {
    long slow = fallbacks(FallbackCause.DEADLINE_EXCEEDED);
    long most = FakeSlave.DEADLINE_MS * 6 / 10;
    slave.cached.addAll(Arrays.asList(0, 1));
    try (CachingInputStream in = slave.open()) {
      slave.delayNext("lookup", most);
      slave.delayNext("read", most);
      byte[] got = new byte[READ];
      assertEquals(READ, in.read(got, 0, READ));
      assertArrayEquals(Arrays.copyOf(slave.content, READ), got);
    }
    assertEquals(slow + 1, fallbacks(FallbackCause.DEADLINE_EXCEEDED));
    assertEquals(READ, slave.bytesFromHdfs.get());
    verify(slave.directory).markFaulty("s1");

    try (FakeSlave positional = new FakeSlave(2, BLOCK)) {
      positional.cached.addAll(Arrays.asList(0, 1));
      try (CachingInputStream in = positional.open()) {
        positional.delayNext("lookup", most);
        positional.delayNext("read", most);
        byte[] got = new byte[READ];
        assertEquals(READ, in.read(BLOCK, got, 0, READ));
        assertArrayEquals(Arrays.copyOfRange(positional.content, BLOCK, BLOCK + READ), got);
      }
      assertEquals(slow + 1, fallbacks(FallbackCause.DEADLINE_EXCEEDED));
      assertEquals(0, positional.bytesFromHdfs.get());
    }
  }

  /**
   * A block evicted while a sequential reader is in it: the slave answers that it no longer has
   * it, the rest of the block comes from HDFS, and the block's read report says how much and why;
   * the next block is read from the cache again.
   */
  @Test
  void read_blockEvictedMidSequentialRead_restFromHdfsAndReportedWithItsCause()
      throws Exception {
    slave.cached.addAll(Arrays.asList(0, 1));
    long errors = fallbacks(FallbackCause.SLAVE_ERROR);
    byte[] got = new byte[slave.content.length];
    int first;
    try (CachingInputStream in = slave.open()) {
      first = in.read(got, 0, BLOCK);
      assertTrue(first > 0 && first < BLOCK, "one read call's worth: " + first);
      slave.cached.remove(0);
      for (int at = first; at < got.length; ) {
        at += in.read(got, at, got.length - at);
      }
    }
    slave.close();
    assertArrayEquals(slave.content, got);
    assertEquals(errors + 1, fallbacks(FallbackCause.SLAVE_ERROR));
    verify(slave.directory, never()).markFaulty(anyString());
    ReportReadRequestProto report = reportOf(slave, 0);
    assertEquals(FallbackCauseProto.SLAVE_ERROR, report.getFallback());
    assertEquals(BLOCK - first, report.getBytesFromHdfs());
    assertEquals(BLOCK - first, slave.bytesFromHdfs.get(), "block 1 from the cache");
  }

  @Test
  void read_blockEvictedBetweenPositionalReads_laterOnesFromHdfs() throws Exception {
    slave.cached.add(0);
    byte[] got = new byte[READ];
    try (CachingInputStream in = slave.open()) {
      assertEquals(READ, in.read(0, got, 0, READ));
      slave.cached.remove(0);
      int reads = slave.reads.get();
      assertEquals(READ, in.read(2 * READ, got, 0, READ));
      assertArrayEquals(Arrays.copyOfRange(slave.content, 2 * READ, 3 * READ), got);
      assertEquals(READ, in.read(4 * READ, got, 0, READ));
      assertArrayEquals(Arrays.copyOfRange(slave.content, 4 * READ, 5 * READ), got);
      assertEquals(reads + 1, slave.reads.get(), "one read call found the block gone");
    }
    verify(slave.directory, never()).markFaulty(anyString());
  }

  /**
   * Sequential and positional reads of the same block at once: each has its own reader of it,
   * and neither disturbs the other's position or bytes.
   */
  @Test
  void read_positionalReadsInsideTheSequentialReadersBlock_bothFromTheCache() throws Exception {
    slave.cached.addAll(Arrays.asList(0, 1));
    byte[] got = new byte[slave.content.length];
    byte[] positional = new byte[READ];
    try (CachingInputStream in = slave.open()) {
      int at = in.read(got, 0, READ);
      for (long p = BLOCK - READ; p >= 0; p -= 2 * READ) {
        assertEquals(READ, in.read(p, positional, 0, READ));
        assertArrayEquals(Arrays.copyOfRange(slave.content, (int) p, (int) p + READ),
            positional);
        assertEquals(at, in.getPos());
        at += in.read(got, at, READ);
      }
      while (at < got.length) {
        at += in.read(got, at, got.length - at);
      }
    }
    assertArrayEquals(slave.content, got);
    assertEquals(0, slave.bytesFromHdfs.get());
  }

  @Test
  void seekToNewSource_inACachedBlock_restOfItFromHdfsAndReported() throws Exception {
    slave.cached.addAll(Arrays.asList(0, 1));
    long asked = fallbacks(FallbackCause.NEW_SOURCE_REQUESTED);
    byte[] got = new byte[slave.content.length];
    try (CachingInputStream in = slave.open()) {
      int at = in.read(got, 0, READ);
      in.seekToNewSource(at);
      while (at < got.length) {
        at += in.read(got, at, got.length - at);
      }
    }
    slave.close();
    assertArrayEquals(slave.content, got);
    assertEquals(asked + 1, fallbacks(FallbackCause.NEW_SOURCE_REQUESTED));
    assertEquals(BLOCK - READ, slave.bytesFromHdfs.get(), "block 1 from the cache again");
    assertEquals(FallbackCauseProto.NEW_SOURCE_REQUESTED, reportOf(slave, 0).getFallback());
  }
}
