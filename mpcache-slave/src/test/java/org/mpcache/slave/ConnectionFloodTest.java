package org.mpcache.slave;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.util.Time;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.common.Waits;
import org.mpcache.common.proto.ClientSlaveProtos.LookupRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.LookupResponseProto;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.common.protocolPB.RpcSupport;
import org.mpcache.common.stream.BlockStreamConnection;
import org.mpcache.slave.store.FileBlockStore;

/**
 * A flood of more block stream connections than the slave has file descriptors for, that is
 * more than its process's {@code ulimit -n}: the slave keeps answering lookups and filling, and a
 * silent granted stream whose block was evicted still releases the block's space within its idle
 * timeout.
 *
 * <p>At a real scale this would take tens of thousands of connections. The test scales it down:
 * it lowers the soft {@code RLIMIT_NOFILE} of its own process, which hosts the slave, with
 * {@code prlimit} to the descriptors open before the flood plus {@link #HEADROOM} plus the
 * stream server's cap ({@link #CAP}), so that the limit has room for the cap's connections and
 * the slave's other needs (its RPC connections, the files of a fill) and no more, as an operator
 * sizes {@code mpcache.slave.stream.max-connections} below the daemon's {@code ulimit -n}. A
 * second process ({@link ConnectionFlood}), whose sockets count against its own limit, then holds
 * twice that many silent connections to the stream server, opening a new one for each the slave
 * closes. The idle timeout is shortened to {@link #IDLE_MS}, the time to send a request to the
 * fixture's RPC timeout. Linux only (the limit is read from {@code /proc/self/limits}).
 */
class ConnectionFloodTest {
  private static final int BLOCK = 10_000;
  private static final int CAP = 16;
  /** Descriptors the limit leaves the slave beyond the stream server's cap and those open. */
  private static final int HEADROOM = 64;
  private static final long IDLE_MS = 1_000;
  /** How long lookups and fills are checked under the flood: the refused are replaced meanwhile. */
  private static final long CHECK_MS = 3_000;

  @TempDir
  Path dir;
  private SlaveFixture fx;
  private Process flood;
  /** The soft descriptor limit to put back; 0 while it is not lowered. */
  private long softLimit;
  private long hardLimit;
  private long lowered;

  @AfterEach
  void stop() throws Exception {
    if (flood != null) {
      flood.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    if (softLimit > 0) {
      // prlimit itself needs descriptors: those the flood took are given back first.
      Waits.waitFor(() -> openFiles() + 8 < lowered, "the flood's connections to close");
      prlimit(softLimit, hardLimit);
    }
    if (fx != null) {
      fx.close();
    }
  }

  private void cache(long id) throws Exception {
    assertTrue(fx.fillRandom(id, BLOCK), "block " + id + " cached");
  }

  private static long[] openFilesLimit() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
      if (line.startsWith("Max open files")) {
        String[] f = line.trim().split("\\s+");
        return new long[] {Long.parseLong(f[3]), Long.parseLong(f[4])};
      }
    }
    throw new IOException("no open files limit in /proc/self/limits");
  }

  private static int openFiles() {
    return new File("/proc/self/fd").list().length;
  }

  private static void prlimit(long soft, long hard) throws Exception {
    Process p = new ProcessBuilder("prlimit", "--pid", Long.toString(ProcessHandle.current().pid()),
        "--nofile=" + soft + ":" + hard).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), "prlimit: " + out);
  }

  private static boolean prlimitRuns() {
    try {
      return new ProcessBuilder("prlimit", "--version").start().waitFor() == 0;
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }

  @Test
  void streamFlood_moreConnectionsThanTheProcessHasDescriptors_slaveServesAndFreesSpace()
      throws Exception {
    assumeTrue(Files.isReadable(Path.of("/proc/self/limits")) && prlimitRuns(),
        "needs Linux and prlimit");
    fx = new SlaveFixture(dir, c -> {
      c.setInt(SlaveConfigKeys.STREAM_MAX_CONNECTIONS_KEY, CAP);
      c.setLong(SlaveConfigKeys.STREAM_IDLE_TIMEOUT_MS_KEY, IDLE_MS);
    }, MpCacheSlave::new);
    fx.awaitRegistration();
    FileBlockStore store = fx.slave().getStore();
    cache(1);
    cache(2);
    int port = fx.slave().info().getStreamPort();

    // A granted reader of block 1 that then goes silent for good; the block is evicted.
    BlockStreamConnection silent = BlockStreamConnection.open(
        new InetSocketAddress("127.0.0.1", port), ProtoConverters.toProto(SlaveFixture.key(1)), "",
        BLOCK, 10_000);
    silent.request(0, 1024);
    silent.receive();
    long used = store.space().usedBytes();
    assertTrue(store.remove(SlaveFixture.key(1)));
    assertEquals(used, store.space().usedBytes(), "the stream holds the evicted block");

    String javaBin = ProcessHandle.current().info().command().orElse("java");
    String classes = Path.of(ConnectionFlood.class.getProtectionDomain().getCodeSource()
        .getLocation().toURI()).toString();
    flood = new ProcessBuilder(javaBin, "-cp", classes, ConnectionFlood.class.getName(),
        "127.0.0.1", Integer.toString(port)).redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
    BufferedReader floodOut = new BufferedReader(new InputStreamReader(flood.getInputStream(),
        StandardCharsets.UTF_8));
    long[] limits = openFilesLimit();
    lowered = openFiles() + CAP + HEADROOM;
    assumeTrue(lowered < limits[0], "the limit is already lower than the test needs");
    prlimit(lowered, limits[1]);
    softLimit = limits[0];
    hardLimit = limits[1];
    long connections = 2 * lowered;
    OutputStream floodIn = flood.getOutputStream();
    floodIn.write((connections + "\n").getBytes(StandardCharsets.UTF_8));
    floodIn.flush();
    CompletableFuture<String> full = CompletableFuture.supplyAsync(() -> {
      try {
        return floodOut.readLine();
      } catch (IOException e) {
        throw new RuntimeException(e);
      }
    });
    assertEquals("full", full.get(60, TimeUnit.SECONDS),
        connections + " connections held at once, " + lowered + " descriptors allowed");
    SlaveFixture.waitFor(() -> fx.slave().getStreamServer().connections() >= CAP,
        "the stream server to be at its cap");

    long fresh = 3;
    long until = Time.monotonicNow() + CHECK_MS;
    do {
      LookupResponseProto r = RpcSupport.call(() -> fx.client().lookup(null,
          LookupRequestProto.newBuilder().setAccess(SlaveFixture.access(2, BLOCK)).build()));
      assertEquals(LookupResponseProto.Status.HIT, r.getStatus(), "a lookup under the flood");
      cache(fresh);
      assertTrue(store.remove(SlaveFixture.key(fresh)),
          "block " + fresh + " cached under the flood");
      fresh++;
    } while (Time.monotonicNow() < until);

    Waits.waitFor(() -> store.leasesHeld() == 0, IDLE_MS + 10_000,
        "the silent stream to be closed under the flood");
    assertEquals(used - BLOCK, store.space().usedBytes(), "the evicted block's space freed");
    assertTrue(openFiles() < lowered, "the slave keeps within its descriptors: " + openFiles()
        + " open of " + lowered);
    silent.close();
  }
}
