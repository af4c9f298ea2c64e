package org.mpcache.slave;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.ClientSlaveProtos.LookupRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.LookupResponseProto;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.proto.SlaveMasterProtos.PrefetchCommandProto;
import org.mpcache.common.proto.SlaveMasterProtos.ReplaceRequestProto;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.common.protocolPB.RpcSupport;

/**
 * A slave fills only from its own cluster's HDFS ({@code fs.defaultFS}): a lookup or a prefetch
 * naming a path on another NameNode caches nothing and never connects to it, while the same
 * request naming the slave's own cluster is filled from there. Each "NameNode" is a listening
 * socket on loopback that counts the connections made to it and closes them, so a fill that
 * reaches one fails at once.
 */
class ForeignFillSourceTest {
  @TempDir
  Path dir;
  private NameNodeStandIn own;
  private NameNodeStandIn other;
  private SlaveFixture fx;

  @BeforeEach
  void start() throws Exception {
    own = new NameNodeStandIn();
    other = new NameNodeStandIn();
    fx = new SlaveFixture(dir, c -> {
      c.set(FileSystem.FS_DEFAULT_NAME_KEY, own.uri());
      c.setInt(CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_MAX_RETRIES_KEY, 0);
      c.setLong(SlaveConfigKeys.FILL_QUIET_MS_KEY, 0);
    }, MpCacheSlave::new);
    fx.awaitRegistration();
  }

  @AfterEach
  void stop() throws IOException {
    if (fx != null) {
      fx.close();
    }
    own.close();
    other.close();
  }

  private static BlockAccessProto access(long id) {
    return SlaveFixture.access(new BlockKey("BP-1", id, 1), 1000, "/d", 1).build();
  }

  private LookupResponseProto lookup(long id, String path) throws Exception {
    return RpcSupport.call(() -> fx.client().lookup(null, LookupRequestProto.newBuilder()
        .setAccess(access(id)).setPath(path).setBlockOffset(0).build()));
  }

  private long fillsBySlaveFailed() {
    return fx.slave().getCounters().snapshot().getFillsBySlaveFailed();
  }

  @Test
  void lookup_namingAnotherClustersPath_queuesNoFillAndNeverConnectsToIt() throws Exception {
    LookupResponseProto foreign = lookup(1, other.uri() + "/x");
    assertEquals(LookupResponseProto.Status.MISS, foreign.getStatus());
    assertFalse(foreign.getSlaveFills(), "a fill from another cluster was queued: "
        + foreign.getMissReason());
    assertTrue(foreign.getMissReason().startsWith("refused: "), foreign.getMissReason());
    assertEquals(0, fx.slave().getFiller().readerFillsPending());
    assertEquals(1, fx.slave().getFillSources().refused());
    assertEquals(0, fx.slave().getCounters().snapshot().getMisses(), "a refused lookup counts");
    assertEquals(0, fx.master().received(ReplaceRequestProto.class).size(),
        "admission asked for another cluster's block");
    // The slave's own cluster, named without an authority: queued behind anything queued above.
    LookupResponseProto mine = lookup(2, "/x");
    assertTrue(mine.getSlaveFills(), mine.getMissReason());
    SlaveFixture.waitFor(() -> fillsBySlaveFailed() == 1 && own.connections() > 0,
        "the fill from the slave's own cluster to be tried there");
    assertEquals(0, other.connections(), "connections made to the other cluster");
    assertTrue(fx.slave().getStore().cachedBlocks().isEmpty());
  }

  @Test
  void prefetch_ofAnotherClustersPath_isRefusedBeforeAdmissionAndNeverConnects()
      throws Exception {
    fx.slave().prefetch(List.of(command(4, other.uri() + "/x"), command(5, own.uri() + "/x")));
    // Run in order on one thread: once the second has reached its NameNode, the first is done.
    SlaveFixture.waitFor(() -> fx.slave().getFiller().failed() >= 1
        && own.connections() > 0, "the prefetch from the slave's own cluster to be tried");
    assertEquals(0, other.connections(), "connections made to the other cluster");
    assertEquals(List.of(ProtoConverters.toProto(new BlockKey("BP-1", 5, 1))),
        fx.master().received(ReplaceRequestProto.class).stream()
            .map(m -> ((ReplaceRequestProto) m).getAccess().getBlock()).toList(),
        "admission asked for the own cluster's block only");
    assertEquals(1, fx.slave().getFillSources().refused());
    assertEquals(1, fx.slave().getFiller().skipped());
    assertTrue(fx.slave().getStore().cachedBlocks().isEmpty());
  }

  private static PrefetchCommandProto command(long id, String path) {
    return PrefetchCommandProto.newBuilder().setAccess(access(id)).setPath(path).setOffset(0)
        .setForce(true).build();
  }

  /**
   * A NameNode's address as far as a client can tell before it speaks: a listening socket on
   * loopback that accepts, counts and closes every connection.
   */
  private static final class NameNodeStandIn implements AutoCloseable {
    private final ServerSocket socket;
    private final AtomicInteger connections = new AtomicInteger();

    NameNodeStandIn() throws IOException {
      socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      Thread t = new Thread(() -> {
        while (!socket.isClosed()) {
          try (Socket s = socket.accept()) {
            connections.incrementAndGet();
          } catch (IOException e) {
            // closed
          }
        }
      }, "namenode-stand-in-" + socket.getLocalPort());
      t.setDaemon(true);
      t.start();
    }

    String uri() {
      return "hdfs://127.0.0.1:" + socket.getLocalPort();
    }

    int connections() {
      return connections.get();
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }
}
