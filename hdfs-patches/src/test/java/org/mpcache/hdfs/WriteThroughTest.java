package org.mpcache.hdfs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.after;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.timeout;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.Time;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.mpcache.common.BlockKey;
import org.mpcache.common.Waits;
import org.mpcache.common.proto.ClientSlaveProtos.AbortResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.CommitResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.WriteRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.WriteResponseProto;
import org.mpcache.common.protocolPB.ClientSlaveProtocolPB;
import org.mpcache.common.protocolPB.FillChecksums;

/**
 * The write-behind of one block's fill against a mocked slave: the reader's {@link
 * WriteThrough#offer} never waits for the slave; the bytes arrive in order with their checksums
 * and are committed; a slave that falls behind loses the fill (queue full), a call past the
 * deadline marks the slave faulty and it gets nothing more, and an abandoned fill is aborted off
 * the reader's thread.
 */
class WriteThroughTest {
  private static final int BLOCK = 1 << 20;
  private static final int PIECE = 64 * 1024;
  private static final BlockKey KEY = new BlockKey("BP-1", 1, 1);

  private final ClientSlaveProtocolPB proxy = mock(ClientSlaveProtocolPB.class);
  private final SlaveDirectory directory = new SlaveDirectory(new Configuration(false),
      new InetSocketAddress("127.0.0.1", 1), 1_000, 1_000, 60_000, 60_000, Time::monotonicNow);
  private final BackgroundCalls senders = new BackgroundCalls("mpcache-client-fill", 2, 1_000);
  private final SlaveDirectory.Slave slave = new SlaveDirectory.Slave("slave-1", proxy, false,
      "127.0.0.1", 0, new HashMap<>());
  private final byte[] block = new byte[BLOCK];
  /** Holds the slave's writes while closed. */
  private final CountDownLatch writesHeld = new CountDownLatch(1);

  WriteThroughTest() throws Exception {
    new Random(3).nextBytes(block);
    when(proxy.commit(any(), any()))
        .thenReturn(CommitResponseProto.newBuilder().setCached(true).build());
    when(proxy.abort(any(), any())).thenReturn(AbortResponseProto.getDefaultInstance());
    when(proxy.write(any(), any()))
        .thenReturn(WriteResponseProto.newBuilder().setAccepted(true).build());
  }

  @AfterEach
  void stop() {
    writesHeld.countDown();
    senders.close();
    directory.close();
  }

  private WriteThrough fill(long queueBytes, int deadlineMs) {
    Configuration conf = new Configuration(false);
    conf.setBoolean(ClientConfigKeys.FILL_WRITE_THROUGH_KEY, true);
    conf.setInt(ClientConfigKeys.FILL_WRITE_BYTES_KEY, PIECE);
    conf.setLong(ClientConfigKeys.FILL_QUEUE_BYTES_KEY, queueBytes);
    conf.setInt(ClientConfigKeys.READ_BYTES_KEY, BLOCK);
    conf.setInt(ClientConfigKeys.CACHE_DEADLINE_MS_KEY, deadlineMs);
    conf.setBoolean(ClientConfigKeys.DOMAIN_SOCKET_ENABLED_KEY, false);
    conf.setBoolean(ClientConfigKeys.STREAM_ENABLED_KEY, false);
    conf.setLong(ClientConfigKeys.MISS_LOOKUP_INTERVAL_MS_KEY, 0);
    ClientContext ctx = new ClientContext(new ClientConf(conf), directory, senders, senders,
        new OpenStreams(), null);
    return new WriteThrough(ctx, slave, KEY, "", List.of("127.0.0.1:9866"), BLOCK, 7);
  }

  /** Offers {@code [from, to)} of the block in 10 000-byte reads; returns the time it took. */
  private long offer(WriteThrough f, int from, int to) {
    long t0 = Time.monotonicNow();
    for (int at = from; at < to; at += 10_000) {
      f.offer(at, block, at, Math.min(10_000, to - at));
    }
    return Time.monotonicNow() - t0;
  }

  /** The slave's writes wait until the test opens {@link #writesHeld}. */
  private void holdWrites() throws Exception {
    when(proxy.write(any(), any())).thenAnswer(inv -> {
      writesHeld.await(30, TimeUnit.SECONDS);
      return WriteResponseProto.newBuilder().setAccepted(true).build();
    });
  }

  private static long fallbacks(FallbackCause cause) {
    return ClientCounters.get().fallbacks(cause);
  }

  @Test
  void offer_wholeBlock_writesItInOrderWithItsChecksumsAndCommits() throws Exception {
    long fills = ClientCounters.get().fills();
    offer(fill(BLOCK, 5_000), 0, BLOCK);
    verify(proxy, timeout(10_000)).commit(any(), any());
    ArgumentCaptor<WriteRequestProto> writes = ArgumentCaptor.forClass(WriteRequestProto.class);
    verify(proxy, times(BLOCK / PIECE)).write(any(), writes.capture());
    ByteArrayOutputStream sent = new ByteArrayOutputStream();
    for (WriteRequestProto w : writes.getAllValues()) {
      assertEquals(sent.size(), w.getOffset(), "writes in order");
      assertEquals(7, w.getFillId());
      assertEquals(-1, FillChecksums.firstMismatch(w), "checksums of the bytes sent");
      w.getData().writeTo(sent);
    }
    assertArrayEquals(block, sent.toByteArray());
    Waits.waitFor(() -> ClientCounters.get().fills() == fills + 1, "the fill to be counted");
    verify(proxy, never()).abort(any(), any());
    verify(proxy, never()).lookup(any(), any());
  }

  @Test
  void offer_slaveHoldsTheWrites_readerGoesOnAndTheFullQueueAbandonsTheFill() throws Exception {
    holdWrites();
    long full = fallbacks(FallbackCause.FILL_QUEUE_FULL);
    WriteThrough f = fill(BLOCK / 2, 60_000);
    offer(f, 0, 300_000);
    verify(proxy, timeout(10_000).atLeastOnce()).write(any(), any());
    long ms = offer(f, 300_000, BLOCK);
    assertTrue(ms < 2_000, "the reader waited for the slave: " + ms + " ms");
    assertEquals(full + 1, fallbacks(FallbackCause.FILL_QUEUE_FULL));
    writesHeld.countDown();
    verify(proxy, timeout(10_000)).abort(any(), any());
    verify(proxy, after(300).never()).commit(any(), any());
  }

  @Test
  void offer_callUnderWayPastTheDeadline_marksTheSlaveFaultyAndSendsItNothingMore()
      throws Exception {
    holdWrites();
    long late = fallbacks(FallbackCause.DEADLINE_EXCEEDED);
    WriteThrough f = fill(BLOCK, 200);
    offer(f, 0, 300_000);
    verify(proxy, timeout(10_000).atLeastOnce()).write(any(), any());
    Thread.sleep(400);
    offer(f, 300_000, 310_000);
    assertEquals(late + 1, fallbacks(FallbackCause.DEADLINE_EXCEEDED));
    assertTrue(directory.isFaulty(slave.id), "the slave is left alone");
    AtomicBoolean reported = new AtomicBoolean();
    f.leave(() -> reported.set(true));
    writesHeld.countDown();
    verify(proxy, after(500).never()).abort(any(), any());
    verify(proxy, never()).commit(any(), any());
    assertFalse(reported.get(), "no read report to a faulty slave");
  }

  @Test
  void leave_beforeTheBlocksEnd_abortsTheFillAndThenReports() throws Exception {
    WriteThrough f = fill(BLOCK, 5_000);
    offer(f, 0, 300_000);
    verify(proxy, timeout(10_000).atLeastOnce()).write(any(), any());
    CountDownLatch reported = new CountDownLatch(1);
    f.leave(reported::countDown);
    assertTrue(reported.await(10, TimeUnit.SECONDS), "the read report is sent");
    verify(proxy).abort(any(), any());
    verify(proxy, never()).commit(any(), any());
  }
}
