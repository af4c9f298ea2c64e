package org.mpcache.slave.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.AccessControlException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.slave.master.DatasetCounters;
import org.mpcache.common.BlockKey;
import org.mpcache.common.TcpKeepAlive;
import org.mpcache.common.Waits;
import org.mpcache.common.proto.ClientSlaveProtos.StreamRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.StreamResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.StreamResponseProto.Status;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.common.stream.BlockStreamConnection;
import org.mpcache.common.stream.BlockStreamConnection.Answer;
import org.mpcache.slave.security.BlockAccessChecker;
import org.mpcache.slave.space.DynamicSpaceTuner;
import org.mpcache.slave.space.ForegroundActivity;
import org.mpcache.slave.space.SsdVolume;
import org.mpcache.slave.space.TunedInputCacheSpace;
import org.mpcache.slave.store.BlockFill;
import org.mpcache.slave.store.FileBlockStore;
import org.mpcache.slave.store.TestStores;

/** The slave's block stream server, against the real client and raw sockets. */
class BlockStreamServerTest {
  private static final int CHUNK = 1024;
  private static final String GOOD_TOKEN = "good";
  private static final BlockKey KEY = new BlockKey("BP-1", 7, 1001);
  private static final BlockKey OTHER = new BlockKey("BP-1", 8, 1001);

  @TempDir
  Path dir;
  private FileBlockStore store;
  private final SlaveCounters counters = new SlaveCounters(new DatasetCounters(16, 16, () -> 1L));
  /** On a clock that stands still: it keeps every byte it was told of. */
  private final ForegroundActivity foreground = new ForegroundActivity(1_000, () -> 0L);
  private BlockStreamServer server;
  private byte[] data;

  /** Grants what carries the good token, as a block token check would. */
  private static final BlockAccessChecker ACCESS = (block, token) -> {
    if (!GOOD_TOKEN.equals(token)) {
      throw new AccessControlException("Block access token rejected for " + block);
    }
  };

  @BeforeEach
  void start() throws IOException {
    Path ssd = Files.createDirectory(dir.resolve("ssd"));
    store = TestStores.open(List.of(ssd), new TunedInputCacheSpace(new DynamicSpaceTuner(
        List.of(SsdVolume.split(ssd.toString(), 1 << 20, 1 << 20, 1.0, 0.0)), 0.5),
        new Object()), CHUNK);
    data = new byte[10_000];
    new Random(5).nextBytes(data);
    for (BlockKey k : new BlockKey[] {KEY, OTHER}) {
      BlockFill f = store.beginFill(k, data.length, "/d", 2, "").orElseThrow();
      f.append(0, ByteBuffer.wrap(data));
      f.commit();
    }
    // Answers of at most 4096 bytes, as mpcache.slave.read.max.bytes would cap them.
    server = new BlockStreamServer(new InetSocketAddress("127.0.0.1", 0),
        new InputCache(store, counters, new RecordingReports()), ACCESS, foreground, 4096,
        limits(60_000), true);
    server.init(new Configuration(false));
    server.start();
  }

  /** At most 16 connections, 10 s to send a request, {@code idleMs} of silence once granted. */
  private static ConnectionLimits limits(long idleMs) {
    return new ConnectionLimits(16, "max-connections", 10_000, idleMs);
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop();
    }
  }

  /** The idle timeout of a stream in the tests that wait for it. */
  private static final long IDLE_MS = 200;

  /** Replaces the server with one whose granted streams close after {@code idleMs} of silence. */
  private void restart(long idleMs) {
    restart(idleMs, true);
  }

  /** Replaces the server, its connections with TCP keepalive on or off. */
  private void restart(long idleMs, boolean keepAlive) {
    server.stop();
    server = new BlockStreamServer(new InetSocketAddress("127.0.0.1", 0),
        new InputCache(store, counters, new RecordingReports()), ACCESS, foreground, 4096,
        limits(idleMs), keepAlive);
    server.init(new Configuration(false));
    server.start();
  }

  private BlockStreamConnection connect(BlockKey key, String token) throws IOException {
    return BlockStreamConnection.open(new InetSocketAddress("127.0.0.1", server.port()),
        ProtoConverters.toProto(key), token, data.length, 10_000);
  }

  private byte[] bytes(Answer a) {
    return Arrays.copyOf(a.data(), a.length());
  }

  @Test
  void serve_requestsSentAheadAreAnsweredInOrderWithVerifiedBytes() throws IOException {
    try (BlockStreamConnection c = connect(KEY, GOOD_TOKEN)) {
      c.request(0, 2048);
      c.request(2048, 2048);
      c.request(5000, 100_000);
      assertArrayEquals(Arrays.copyOfRange(data, 0, 2048), bytes(c.receive()));
      assertArrayEquals(Arrays.copyOfRange(data, 2048, 4096), bytes(c.receive()));
      Answer capped = c.receive();
      assertEquals(4096, capped.offset(), "from the chunk holding offset 5000");
      assertEquals(9216, capped.end(), "capped at 4096 bytes from the offset, whole chunks");
      assertArrayEquals(Arrays.copyOfRange(data, 4096, 9216), bytes(capped));
    }
    assertEquals(2048 + 2048 + 4096, counters.snapshot().getBytesFromCache(),
        "bytes from the offsets asked for, as a read call counts them");
    assertEquals(2048 + 2048 + 5120, foreground.recentBytes(),
        "the SSD's foreground work: the whole chunks sent");
  }

  @Test
  void serve_refusedTokenGetsAnErrorAndNoBytes() throws IOException {
    for (String token : new String[] {"", "forged"}) {
      try (Socket s = new Socket("127.0.0.1", server.port())) {
        s.setSoTimeout(10_000);
        DataOutputStream out = new DataOutputStream(s.getOutputStream());
        request(out, KEY, token, 4096);
        out.flush();
        DataInputStream in = new DataInputStream(s.getInputStream());
        StreamResponseProto r = response(in);
        assertEquals(Status.REFUSED, r.getStatus());
        assertTrue(r.getMessage().contains("rejected"), r.getMessage());
        assertEquals(-1, in.read(), "no bytes follow a refusal: the slave closes the stream");
      }
    }
    assertEquals(0, counters.snapshot().getBytesFromCache());
    assertEquals(0, store.leasesHeld());
  }

  @Test
  void serve_laterRequestForAnotherBlockOrWithoutTheTokenIsRefused() throws IOException {
    try (BlockStreamConnection c = connect(KEY, GOOD_TOKEN)) {
      c.request(0, 1024);
      c.receive();
    }
    try (BlockStreamConnection granted = connect(KEY, GOOD_TOKEN);
        BlockStreamConnection other = BlockStreamConnection.open(
            new InetSocketAddress("127.0.0.1", server.port()), ProtoConverters.toProto(OTHER),
            GOOD_TOKEN, data.length, 10_000)) {
      granted.request(0, 1024);
      granted.receive();
      other.request(0, 1024);
      other.receive();
    }
    // The same connection, a second block: the raw exchange, since the client names one block.
    try (Socket s = new Socket("127.0.0.1", server.port())) {
      s.setSoTimeout(10_000);
      DataOutputStream out = new DataOutputStream(s.getOutputStream());
      DataInputStream in = new DataInputStream(s.getInputStream());
      for (BlockKey k : new BlockKey[] {KEY, OTHER}) {
        request(out, k, GOOD_TOKEN, 1024);
      }
      out.flush();
      assertEquals(Status.GRANTED, response(in).getStatus());
      in.readFully(new byte[1024]);
      StreamResponseProto r = response(in);
      assertEquals(Status.REFUSED, r.getStatus());
      assertTrue(r.getMessage().contains("one block"), r.getMessage());
      assertEquals(-1, in.read());
    }
  }

  @Test
  void serve_grantedStream_kernelProbesItsReaderWithKeepalives() throws Exception {
    assumeTrue(TcpKeepAlive.visible(), "needs Linux's /proc/net/tcp");
    try (Socket s = grantedRawStream()) {
      assertTrue(TcpKeepAlive.on(server.port(), s.getLocalPort()),
          "SO_KEEPALIVE on the accepted socket");
    }
  }

  @Test
  void serve_keepaliveTurnedOff_kernelDoesNotProbe() throws Exception {
    assumeTrue(TcpKeepAlive.visible(), "needs Linux's /proc/net/tcp");
    restart(60_000, false);
    try (Socket s = grantedRawStream()) {
      assertFalse(TcpKeepAlive.on(server.port(), s.getLocalPort()),
          "no SO_KEEPALIVE on the accepted socket");
    }
  }

  /** A connection granted the first KiB of {@link #KEY}, its answer read. */
  private Socket grantedRawStream() throws IOException {
    Socket s = new Socket("127.0.0.1", server.port());
    s.setSoTimeout(10_000);
    DataOutputStream out = new DataOutputStream(s.getOutputStream());
    request(out, KEY, GOOD_TOKEN, 1024);
    out.flush();
    DataInputStream in = new DataInputStream(s.getInputStream());
    assertEquals(Status.GRANTED, response(in).getStatus());
    in.readFully(new byte[1024]);
    return s;
  }

  /** Writes a framed request for the first {@code length} bytes of {@code key}. */
  private static void request(DataOutputStream out, BlockKey key, String token, int length)
      throws IOException {
    byte[] req = StreamRequestProto.newBuilder().setBlock(ProtoConverters.toProto(key))
        .setBlockToken(token).setOffset(0).setLength(length).build().toByteArray();
    out.writeInt(req.length);
    out.write(req);
  }

  /** Reads one framed response. */
  private static StreamResponseProto response(DataInputStream in) throws IOException {
    byte[] body = new byte[in.readInt()];
    in.readFully(body);
    return StreamResponseProto.parseFrom(body);
  }

  @Test
  void serve_oversizeRequestFrameClosesTheConnectionWithNoBytes() throws IOException {
    try (Socket s = new Socket("127.0.0.1", server.port())) {
      s.setSoTimeout(10_000);
      DataOutputStream out = new DataOutputStream(s.getOutputStream());
      out.writeInt(1 << 30);
      out.write(new byte[1024]);
      out.flush();
      assertEquals(-1, s.getInputStream().read());
    }
    assertEquals(0, store.leasesHeld());
  }

  @Test
  void serve_blockNotCachedGetsNotCached() throws IOException {
    try (BlockStreamConnection c = connect(new BlockKey("BP-1", 9, 1001), GOOD_TOKEN)) {
      c.request(0, 1024);
      BlockStreamConnection.RefusedException e =
          assertThrows(BlockStreamConnection.RefusedException.class, c::receive);
      assertEquals(Status.NOT_CACHED, e.status());
    }
  }

  @Test
  void serve_silentGrantedStreamOfAnEvictedBlock_releasesItsSpaceWithinTheIdleTimeout()
      throws Exception {
    restart(IDLE_MS);
    long used = store.space().usedBytes();
    // A reader whose host vanished: it never sends again, and never closes.
    BlockStreamConnection silent = connect(KEY, GOOD_TOKEN);
    try {
      silent.request(0, 1024);
      silent.receive();
      assertTrue(store.remove(KEY));
      assertEquals(used, store.space().usedBytes(), "the stream holds the evicted block");
      Waits.waitFor(() -> store.leasesHeld() == 0, "the silent stream to be closed");
      assertEquals(used - data.length, store.space().usedBytes(), "the block's space freed");
    } finally {
      silent.close();
    }
  }

  @Test
  void serve_blockEvictedDuringAStreamReadsToItsEndAndIsFreedAtClose() throws Exception {
    long used = store.space().usedBytes();
    try (BlockStreamConnection c = connect(KEY, GOOD_TOKEN)) {
      c.request(0, 4096);
      assertArrayEquals(Arrays.copyOfRange(data, 0, 4096), bytes(c.receive()));
      assertTrue(store.remove(KEY));
      assertEquals(-1, store.cachedLength(KEY), "evicted: no new reader gets it");
      for (long off = 4096; off < data.length; off += 4096) {
        c.request(off, 4096);
        Answer a = c.receive();
        assertArrayEquals(Arrays.copyOfRange(data, (int) off, (int) a.end()), bytes(a));
      }
      assertEquals(used, store.space().usedBytes(), "its bytes are still on the SSD");
    }
    Waits.waitFor(() -> store.leasesHeld() == 0, "the lease to end with the stream");
    assertEquals(used - data.length, store.space().usedBytes(), "freed at the stream's end");
  }
}
