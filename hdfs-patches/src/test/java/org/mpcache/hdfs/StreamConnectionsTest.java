package org.mpcache.hdfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mpcache.common.proto.MpCacheProtos.BlockKeyProto;
import org.mpcache.common.stream.BlockStreamConnection;

/**
 * The block stream connections a FileSystem keeps for other blocks: per slave, the most recent
 * first, bounded, expiring, never one that cannot move on. Connections are real sockets to a
 * listening socket that never answers (the kernel completes the handshakes).
 */
class StreamConnectionsTest {
  private static final BlockKeyProto BLOCK = BlockKeyProto.newBuilder().setBlockPoolId("BP-1")
      .setBlockId(1).setGenerationStamp(1).build();
  private ServerSocket slave;
  private ServerSocket otherSlave;
  private final List<BlockStreamConnection> opened = new ArrayList<>();
  private final AtomicLong nanos = new AtomicLong();

  @BeforeEach
  void listen() throws IOException {
    slave = new ServerSocket(0, 64, InetAddress.getLoopbackAddress());
    otherSlave = new ServerSocket(0, 64, InetAddress.getLoopbackAddress());
  }

  @AfterEach
  void close() throws IOException {
    opened.forEach(BlockStreamConnection::close);
    slave.close();
    otherSlave.close();
  }

  private InetSocketAddress address(ServerSocket s) {
    return new InetSocketAddress(s.getInetAddress(), s.getLocalPort());
  }

  private BlockStreamConnection connect(ServerSocket s) throws IOException {
    BlockStreamConnection c = BlockStreamConnection.open(address(s), BLOCK, "", 100, 5_000);
    opened.add(c);
    return c;
  }

  @Test
  void take_theMostRecentlyKeptConnectionOfThatSlave() throws IOException {
    StreamConnections pool = new StreamConnections(4, 1_000, nanos::get);
    BlockStreamConnection a = connect(slave);
    BlockStreamConnection b = connect(slave);
    pool.give(address(slave), a);
    pool.give(address(slave), b);
    assertNull(pool.take(address(otherSlave)), "another slave's");
    assertSame(b, pool.take(address(slave)));
    assertSame(a, pool.take(address(slave)));
    assertNull(pool.take(address(slave)));
    assertTrue(a.reusable());
  }

  @Test
  void give_pastTheBound_closesTheOneKeptLongest() throws IOException {
    StreamConnections pool = new StreamConnections(2, 1_000, nanos::get);
    BlockStreamConnection a = connect(slave);
    BlockStreamConnection b = connect(slave);
    BlockStreamConnection c = connect(slave);
    pool.give(address(slave), a);
    pool.give(address(slave), b);
    pool.give(address(slave), c);
    assertFalse(a.reusable(), "closed");
    assertEquals(2, pool.idle());
    pool.give(address(otherSlave), connect(otherSlave));
    assertEquals(3, pool.idle(), "the bound is per slave");
  }

  @Test
  void take_pastTheExpiry_closesInsteadOfHandingOut() throws IOException {
    StreamConnections pool = new StreamConnections(4, 1_000, nanos::get);
    BlockStreamConnection a = connect(slave);
    pool.give(address(slave), a);
    nanos.set(1_001);
    BlockStreamConnection b = connect(slave);
    pool.give(address(slave), b);
    assertFalse(a.reusable(), "expired, closed when the next was kept");
    nanos.set(2_002);
    assertNull(pool.take(address(slave)));
    assertFalse(b.reusable());
    assertEquals(0, pool.idle());
  }

  @Test
  void give_keepsNoConnectionThatCannotMoveOn_noneWhenTheBoundIsZero_noneAfterClose()
      throws IOException {
    StreamConnections pool = new StreamConnections(4, 1_000, nanos::get);
    BlockStreamConnection asked = connect(slave);
    asked.request(0, 10);
    pool.give(address(slave), asked);
    assertEquals(0, pool.idle(), "an answer is due: its bytes would go to the next block");
    assertFalse(asked.reusable());

    StreamConnections none = new StreamConnections(0, 1_000, nanos::get);
    BlockStreamConnection a = connect(slave);
    none.give(address(slave), a);
    assertFalse(a.reusable());

    BlockStreamConnection kept = connect(slave);
    pool.give(address(slave), kept);
    pool.close();
    assertFalse(kept.reusable());
    BlockStreamConnection late = connect(slave);
    pool.give(address(slave), late);
    assertFalse(late.reusable());
    assertNull(pool.take(address(slave)));
  }
}
