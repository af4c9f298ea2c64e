package org.mpcache.hdfs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.mockito.Mockito.mock;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.ClientSlaveProtos.StreamRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.StreamResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.StreamResponseProto.Status;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.protocolPB.ClientSlaveProtocolPB;
import org.mpcache.common.protocolPB.ProtoConverters;

/**
 * A block stream reader over its FileSystem's kept connections, against a scripted slave that
 * serves any block's bytes (each block's bytes differ) and records, per connection, the blocks
 * asked for: a second block of the slave moves a kept connection on; a kept connection the slave
 * closed meanwhile is replaced by a new one, once, with no fault; a let-go reader never touches
 * its connection again.
 */
class StreamBlockReaderTest {
  private static final int LENGTH = 8192;
  private static final int CHUNK = 512;
  private ServerSocket server;
  private final ExecutorService slave = Executors.newCachedThreadPool();
  /** Per connection accepted, the block ids its requests named, in order. */
  private final List<List<Long>> asked = new CopyOnWriteArrayList<>();
  private final List<Socket> accepted = new CopyOnWriteArrayList<>();
  /** Connections the slave closes after answering this many requests; -1 never. */
  private volatile int closeAfter = -1;
  private final StreamConnections pool = new StreamConnections(4, Long.MAX_VALUE,
      System::nanoTime);

  @BeforeEach
  void start() throws IOException {
    server = new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
    slave.execute(() -> {
      while (!server.isClosed()) {
        try {
          Socket s = server.accept();
          accepted.add(s);
          List<Long> blocks = new CopyOnWriteArrayList<>();
          asked.add(blocks);
          slave.execute(() -> serve(s, blocks));
        } catch (IOException e) {
          return;
        }
      }
    });
  }

  @AfterEach
  void stop() throws Exception {
    pool.close();
    server.close();
    for (Socket s : accepted) {
      s.close();
    }
    slave.shutdownNow();
    slave.awaitTermination(10, TimeUnit.SECONDS);
  }

  /** The bytes of block {@code id}: different for every block. */
  private static byte[] bytesOf(long id) {
    byte[] b = new byte[LENGTH];
    new Random(id).nextBytes(b);
    return b;
  }

  private void serve(Socket s, List<Long> blocks) {
    try (s) {
      DataInputStream in = new DataInputStream(s.getInputStream());
      DataOutputStream out = new DataOutputStream(s.getOutputStream());
      while (closeAfter < 0 || blocks.size() < closeAfter) {
        byte[] body = new byte[in.readInt()];
        in.readFully(body);
        StreamRequestProto req = StreamRequestProto.parseFrom(body);
        blocks.add(req.getBlock().getBlockId());
        byte[] block = bytesOf(req.getBlock().getBlockId());
        int from = (int) (req.getOffset() / CHUNK * CHUNK);
        int n = (int) Math.min(LENGTH - from,
            (req.getOffset() + req.getLength() + CHUNK - 1) / CHUNK * CHUNK - from);
        StreamResponseProto.Builder r = StreamResponseProto.newBuilder()
            .setStatus(Status.GRANTED).setOffset(from).setLength(n).setChunkSize(CHUNK);
        CRC32C crc = new CRC32C();
        for (int i = 0; i < n; i += CHUNK) {
          crc.reset();
          crc.update(block, from + i, Math.min(CHUNK, n - i));
          r.addChecksums((int) crc.getValue());
        }
        byte[] header = r.build().toByteArray();
        out.writeInt(header.length);
        out.write(header);
        out.write(block, from, n);
        out.flush();
      }
    } catch (EOFException e) {
      // The reader closed the connection.
    } catch (IOException e) {
      // Closed under the slave at teardown.
    }
  }

  private BlockTarget target(long blockId) {
    SlaveDirectory.Slave s = new SlaveDirectory.Slave("s1", mock(ClientSlaveProtocolPB.class),
        false, "127.0.0.1", server.getLocalPort(), new HashMap<>());
    BlockKey key = new BlockKey("BP-1", blockId, 1);
    BlockAccessProto access = BlockAccessProto.newBuilder().setBlock(ProtoConverters.toProto(key))
        .setBlockBytes(LENGTH).setDatasetId("hdfs://nn/d").setDatasetBlocks(2).build();
    return new BlockTarget(s, key, access, "token", LENGTH);
  }

  private StreamBlockReader open(long blockId) throws IOException {
    return StreamBlockReader.open(target(blockId), pool, 1024, 0,
        Deadline.perBlock(TimeUnit.SECONDS.toNanos(10), System::nanoTime, "test"));
  }

  private static byte[] read(StreamBlockReader r, long at, int n) throws IOException {
    byte[] b = new byte[n];
    int got = 0;
    while (got < n) {
      got += r.read(at + got, b, got, n - got);
    }
    return b;
  }

  @Test
  void open_secondBlockOfTheSlave_movesTheKeptConnectionOnToIt() throws IOException {
    long reused = ClientCounters.get().streamConnectionsReused();
    StreamBlockReader first = open(1);
    assertArrayEquals(Arrays.copyOfRange(bytesOf(1), 100, 1100), read(first, 100, 1000));
    first.release();
    StreamBlockReader second = open(2);
    assertArrayEquals(Arrays.copyOfRange(bytesOf(2), 3000, 5000), read(second, 3000, 2000));
    second.release();
    assertEquals(1, asked.size(), "one connection");
    assertEquals(List.of(1L, 2L, 2L), asked.get(0), "block 1, then block 2 on the same one");
    assertEquals(reused + 1, ClientCounters.get().streamConnectionsReused());
    assertEquals(1, pool.idle(), "kept again for the next block");
  }

  @Test
  void read_keptConnectionTheSlaveClosed_replacedByANewOneOnce() throws Exception {
    closeAfter = 1;
    StreamBlockReader first = open(1);
    assertArrayEquals(Arrays.copyOfRange(bytesOf(1), 0, 512), read(first, 0, 512));
    first.release();
    // The slave answered its one request and closed; the kept connection does not know yet.
    StreamBlockReader second = open(2);
    assertArrayEquals(Arrays.copyOfRange(bytesOf(2), 0, 1024), read(second, 0, 1024),
        "the right block's bytes, over a new connection");
    assertEquals(2, asked.size(), "a second connection replaced the closed one");
    assertEquals(List.of(2L), asked.get(1));
    // The slave now closes every connection unanswered: the kept one is replaced once, and
    // the replacement's failure is the reader's to fall back from.
    closeAfter = 0;
    second.release();
    StreamBlockReader third = open(3);
    assertThrows(IOException.class, () -> read(third, 0, 512));
    assertThrows(IOException.class, () -> read(third, 0, 512));
    assertEquals(3, asked.size(), "one replacement, not more");
  }

  @Test
  void release_theReaderNeverTouchesItsConnectionAgain() throws IOException {
    StreamBlockReader first = open(1);
    read(first, 0, 512);
    first.release();
    first.release();
    StreamBlockReader second = open(2);
    IOException e = assertThrows(IOException.class, () -> read(first, 0, 512));
    assertEquals(true, e.getMessage().contains("let go"), e.getMessage());
    assertArrayEquals(Arrays.copyOfRange(bytesOf(2), 0, 512), read(second, 0, 512),
        "the connection's new reader reads its own block");
    assertEquals(List.of(1L, 2L), asked.get(0));
  }

  @Test
  void release_withAnAnswerDue_closesTheConnectionInsteadOfKeepingIt() throws IOException {
    StreamBlockReader sequential = StreamBlockReader.open(target(1), pool, 1024, 4096,
        Deadline.perBlock(TimeUnit.SECONDS.toNanos(10), System::nanoTime, "test"));
    read(sequential, 0, 100);
    sequential.release();
    assertEquals(0, pool.idle(), "answers asked ahead are due: not kept");
  }
}
