package org.mpcache.common.stream;

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
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ChecksumException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mpcache.common.TcpKeepAlive;
import org.mpcache.common.proto.ClientSlaveProtos.StreamRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.StreamResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.StreamResponseProto.Status;
import org.mpcache.common.proto.MpCacheProtos.BlockKeyProto;

/**
 * The client's side of the block stream against a scripted slave: good answers, and every kind
 * of bad one (truncated, oversized, misplaced, wrong checksums, refusals, silence) fails with an
 * exception and never hands on bytes.
 */
class BlockStreamConnectionTest {
  private static final int CHUNK = 512;
  private static final BlockKeyProto BLOCK = BlockKeyProto.newBuilder().setBlockPoolId("BP-1")
      .setBlockId(7).setGenerationStamp(1001).build();
  private final byte[] block = new byte[5000];
  private ServerSocket server;
  private CompletableFuture<StreamRequestProto> received;

  /** What the scripted slave sends for the request it read. */
  private interface Script {
    void answer(StreamRequestProto req, DataOutputStream out) throws IOException;
  }

  @BeforeEach
  void start() throws IOException {
    new Random(3).nextBytes(block);
    server = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
  }

  @AfterEach
  void stop() throws IOException {
    server.close();
  }

  /** Serves one connection with {@code script} on a thread of its own. */
  private void serve(Script script) {
    received = CompletableFuture.supplyAsync(() -> {
      try (Socket s = server.accept()) {
        DataInputStream in = new DataInputStream(s.getInputStream());
        byte[] body = new byte[in.readInt()];
        in.readFully(body);
        StreamRequestProto req = StreamRequestProto.parseFrom(body);
        DataOutputStream out = new DataOutputStream(s.getOutputStream());
        script.answer(req, out);
        out.flush();
        // Holds the connection open until the client is done with it.
        in.read();
        return req;
      } catch (IOException e) {
        throw new RuntimeException(e);
      }
    });
  }

  private BlockStreamConnection connect(int timeoutMs) throws IOException {
    return BlockStreamConnection.open(new InetSocketAddress(server.getInetAddress(),
        server.getLocalPort()), BLOCK, "token", block.length, timeoutMs);
  }

  private static void frame(DataOutputStream out, StreamResponseProto r) throws IOException {
    byte[] b = r.toByteArray();
    out.writeInt(b.length);
    out.write(b);
  }

  /** A correct answer's header for {@code [from, from + n)} of the block. */
  private StreamResponseProto.Builder header(long from, int n) {
    StreamResponseProto.Builder r = StreamResponseProto.newBuilder().setStatus(Status.GRANTED)
        .setOffset(from).setLength(n).setChunkSize(CHUNK);
    CRC32C crc = new CRC32C();
    for (int i = 0; i < n; i += CHUNK) {
      crc.reset();
      crc.update(block, (int) from + i, Math.min(CHUNK, n - i));
      r.addChecksums((int) crc.getValue());
    }
    return r;
  }

  @Test
  void open_kernelProbesTheSlaveWithKeepalives() throws Exception {
    assumeTrue(TcpKeepAlive.visible(), "needs Linux's /proc/net/tcp");
    try (BlockStreamConnection c = connect(5_000); Socket accepted = server.accept()) {
      assertTrue(TcpKeepAlive.on(accepted.getPort(), server.getLocalPort()),
          "SO_KEEPALIVE on the reader's socket");
    }
  }

  @Test
  void receive_goodAnswerFromTheChunkHoldingTheOffset() throws Exception {
    serve((req, out) -> {
      frame(out, header(1024, 1536).build());
      out.write(block, 1024, 1536);
    });
    try (BlockStreamConnection c = connect(5_000)) {
      c.request(1100, 1000);
      assertTrue(c.nextCovers(1100));
      BlockStreamConnection.Answer a = c.receive();
      assertEquals(1024, a.offset());
      assertEquals(1536, a.length());
      assertArrayEquals(Arrays.copyOfRange(block, 1024, 2560),
          Arrays.copyOf(a.data(), a.length()));
      assertFalse(c.hasPending());
    }
    StreamRequestProto req = received.get(5, TimeUnit.SECONDS);
    assertEquals(BLOCK, req.getBlock());
    assertEquals("token", req.getBlockToken());
    assertEquals(1100, req.getOffset());
  }

  @Test
  void receive_answerAtTheBlocksEndMayEndInsideAChunk() throws Exception {
    serve((req, out) -> {
      frame(out, header(4608, 392).build());
      out.write(block, 4608, 392);
    });
    try (BlockStreamConnection c = connect(5_000)) {
      c.request(4700, 1 << 20);
      BlockStreamConnection.Answer a = c.receive();
      assertEquals(5000, a.end());
    }
  }

  @Test
  void receive_truncatedFrameFails() {
    serve((req, out) -> {
      byte[] b = header(0, 1024).build().toByteArray();
      out.writeInt(b.length);
      out.write(b, 0, b.length / 2);
      out.flush();
      throw new IOException("hang up");
    });
    assertThrows(IOException.class, () -> {
      try (BlockStreamConnection c = connect(5_000)) {
        c.request(0, 1024);
        c.receive();
      }
    });
  }

  @Test
  void receive_truncatedBytesFail() {
    serve((req, out) -> {
      frame(out, header(0, 1024).build());
      out.write(block, 0, 700);
      out.flush();
      throw new IOException("hang up");
    });
    assertThrows(IOException.class, () -> {
      try (BlockStreamConnection c = connect(5_000)) {
        c.request(0, 1024);
        c.receive();
      }
    });
  }

  @Test
  void receive_oversizeFrameLengthFailsWithoutReadingIt() throws Exception {
    serve((req, out) -> out.writeInt(Integer.MAX_VALUE));
    try (BlockStreamConnection c = connect(5_000)) {
      c.request(0, 1024);
      IOException e = assertThrows(IOException.class, c::receive);
      assertTrue(e.getMessage().contains("frame of " + Integer.MAX_VALUE), e.getMessage());
    }
  }

  @Test
  void receive_oversizeAnswerLengthFails() throws Exception {
    serve((req, out) -> frame(out, header(0, 1024).setLength(1 << 30).build()));
    try (BlockStreamConnection c = connect(5_000)) {
      c.request(0, 1024);
      IOException e = assertThrows(IOException.class, c::receive);
      assertTrue(e.getMessage().contains("answered " + (1 << 30) + " bytes"), e.getMessage());
    }
  }

  @Test
  void receive_answerElsewhereThanAskedFails() throws Exception {
    serve((req, out) -> {
      frame(out, header(2048, 1024).build());
      out.write(block, 2048, 1024);
    });
    try (BlockStreamConnection c = connect(5_000)) {
      c.request(0, 1024);
      assertThrows(IOException.class, c::receive);
    }
  }

  @Test
  void receive_wrongNumberOfChecksumsFails() throws Exception {
    serve((req, out) -> {
      frame(out, header(0, 1024).addChecksums(1).build());
      out.write(block, 0, 1024);
    });
    try (BlockStreamConnection c = connect(5_000)) {
      c.request(0, 1024);
      IOException e = assertThrows(IOException.class, c::receive);
      assertTrue(e.getMessage().contains("3 checksums for 2 chunks"), e.getMessage());
    }
  }

  @Test
  void receive_wrongCrcFailsAndTheConnectionIsDone() throws Exception {
    serve((req, out) -> {
      frame(out, header(0, 1024).build());
      byte[] changed = Arrays.copyOf(block, 1024);
      changed[600] ^= 1;
      out.write(changed);
    });
    try (BlockStreamConnection c = connect(5_000)) {
      c.request(0, 1024);
      ChecksumException e = assertThrows(ChecksumException.class, c::receive);
      assertEquals(512, e.getPos());
      assertThrows(IOException.class, c::receive, "no bytes after a failed answer");
    }
  }

  @Test
  void receive_refusalCarriesNoBytes() throws Exception {
    serve((req, out) -> frame(out, StreamResponseProto.newBuilder().setStatus(Status.REFUSED)
        .setMessage("Block access token rejected").build()));
    try (BlockStreamConnection c = connect(5_000)) {
      c.request(0, 1024);
      BlockStreamConnection.RefusedException e =
          assertThrows(BlockStreamConnection.RefusedException.class, c::receive);
      assertEquals(Status.REFUSED, e.status());
      assertTrue(e.getMessage().contains("token rejected"), e.getMessage());
    }
  }

  @Test
  void receive_silentSlaveTimesOut() throws Exception {
    serve((req, out) -> { });
    try (BlockStreamConnection c = connect(5_000)) {
      c.request(0, 1024);
      c.timeout(200);
      long t0 = System.nanoTime();
      assertThrows(SocketTimeoutException.class, c::receive);
      assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(4), "bounded by the timeout");
    }
  }

  @Test
  void allowed_onlyWithoutKerberosOrRpcProtection() {
    Configuration conf = new Configuration(false);
    assertTrue(BlockStreamConnection.allowed(conf));
    conf.set("hadoop.rpc.protection", "authentication");
    assertTrue(BlockStreamConnection.allowed(conf));
    conf.set("hadoop.rpc.protection", "privacy");
    assertFalse(BlockStreamConnection.allowed(conf));
    conf.set("hadoop.rpc.protection", "authentication,integrity");
    assertFalse(BlockStreamConnection.allowed(conf));
    conf.set("hadoop.rpc.protection", "authentication");
    conf.set("hadoop.security.authentication", "kerberos");
    assertFalse(BlockStreamConnection.allowed(conf));
  }
}
