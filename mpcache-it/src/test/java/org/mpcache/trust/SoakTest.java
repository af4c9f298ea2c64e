package org.mpcache.trust;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.hdfs.server.datanode.ReplicaNotFoundException;
import org.apache.hadoop.thirdparty.protobuf.ServiceException;
import org.apache.hadoop.util.Time;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.AdminProtos.EvictRequestProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;
import org.mpcache.common.protocolPB.AdminProtocolPB;
import org.mpcache.common.protocolPB.LocalizedGrant;
import org.mpcache.common.protocolPB.LocalizedProtocolClientSideTranslatorPB;
import org.mpcache.common.protocolPB.RpcSupport;
import org.mpcache.hdfs.ClientConfigKeys;
import org.mpcache.hdfs.ClientCounters;
import org.mpcache.hdfs.FallbackCause;
import org.mpcache.minicluster.MiniMpCacheCluster;
import org.mpcache.slave.MpCacheSlave;
import org.mpcache.slave.SlaveConfigKeys;
import org.mpcache.slave.space.SpaceSnapshot;
import org.mpcache.slave.store.FileBlockStore;
import org.mpcache.trust.SoakFiles.SoakFile;
import org.mpcache.trust.SoakFiles.Version;

/**
 * The soak: 64 reader threads read a working set twice the size of the Input Cache with
 * sequential, positional and ByteBuffer reads while, in the background, the operator evicts
 * datasets, localized data reclaims Input Cache room (requests to the slaves' Localized Cache, as
 * tasks make them, that the tuner can meet only by excluding cached input), files are replaced by
 * renaming new versions over their paths, and files are appended to. Every byte read is compared
 * with what HDFS held when the file was opened ({@link SoakReader}). At the end: no wrong byte,
 * no short read, no exception the cache caused, no block left filling, each slave's tuner accounts
 * exactly the bytes of the block files on its disk, and every localized grant is released.
 *
 * <p>It runs {@value #DEFAULT_SECONDS} s unless {@code -Dmpcache.soak.seconds} says otherwise
 * (the {@code soak} Maven profile runs it for 30 minutes); its figures go to standard output and
 * {@code target/soak-report.txt}.
 */
class SoakTest {
  private static final int DEFAULT_SECONDS = 90;
  private static final int BLOCK = 256 * 1024;
  private static final int READERS = 64;
  private static final int FILES = 12;
  private static final int DATASETS = 4;
  /** Each slave's Input Cache (its own space and the Dynamic Pool): 12 blocks. */
  private static final long SLAVE_INPUT = 12L * BLOCK;
  private static final long LOCALIZED = 4L * BLOCK;
  /** Files stay below HDFS's first fetch of block locations (10 blocks), as the stream sees them. */
  private static final int MAX_BLOCKS = 8;
  /** How long the end of the soak waits for the slaves' fills to end. */
  private static final long QUIET_WAIT_MS = 30_000;

  private static MiniMpCacheCluster cluster;

  @BeforeAll
  static void start() throws IOException {
    // Hours of reads would log a line per file opened (the NameNode's audit log) and a stack trace
    // per read of a block evicted since its lookup (the slave's RPC server); keep their warnings.
    Logger.getLogger("org.apache.hadoop.hdfs.server.namenode.FSNamesystem.audit")
        .setLevel(Level.WARN);
    Logger.getLogger(Server.class).setLevel(Level.WARN);
    cluster = new MiniMpCacheCluster.Builder(new File("target/e2e/soak"))
        .blockSize(BLOCK).slaveCapacity(SLAVE_INPUT).localizedCapacity(LOCALIZED)
        .set("dfs.namenode.fs-limits.min-block-size", String.valueOf(BLOCK))
        // A failed HDFS read (the old blocks of a replaced file) gives up in about a second.
        .set("dfs.client.retry.window.base", "100")
        .set("dfs.client.block.write.replace-datanode-on-failure.enable", "false")
        .build();
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static DistributedFileSystem plain() throws IOException {
    return (DistributedFileSystem) cluster.plainFileSystem();
  }

  private static void writeGeneration(Path p, int file, int generation, long length)
      throws IOException {
    long seed = SoakFiles.seed(file, generation);
    try (FSDataOutputStream out = plain().create(p, true)) {
      writeBytes(out, seed, 0, length);
    }
  }

  private static void writeBytes(FSDataOutputStream out, long seed, long from, long length)
      throws IOException {
    byte[] b = new byte[64 * 1024];
    for (long off = from; off < from + length; ) {
      int n = (int) Math.min(b.length, from + length - off);
      SoakFiles.bytes(seed, off, b, 0, n);
      out.write(b, 0, n);
      off += n;
    }
  }

  private static List<LocatedBlock> blocks(Path p) throws IOException {
    return DFSTestUtil.getAllBlocks(plain(), p);
  }

  private static BlockKey key(ExtendedBlock b) {
    return new BlockKey(b.getBlockPoolId(), b.getBlockId(), b.getGenerationStamp());
  }

  /**
   * The scenario the soak counts as an HDFS-side error, on plain HDFS and through the cache: a
   * stream opened before its path was renamed over fails to read a block HDFS has since deleted,
   * and the cache fails it the same way instead of giving other bytes.
   */
  @Test
  void read_afterThePathWasRenamedOverAndTheOldBlocksDeleted_failsOnPlainHdfsAndThroughTheCache()
      throws Exception {
    Path p = new Path("/compare/f");
    Path next = new Path("/compare/next");
    writeGeneration(p, 1000, 1, 3L * BLOCK);
    writeGeneration(next, 1000, 2, 3L * BLOCK);
    List<LocatedBlock> old = blocks(p);
    long seed = SoakFiles.seed(1000, 1);
    byte[] b = new byte[BLOCK];
    try (FileSystem fs = cluster.fileSystem(); FSDataInputStream plainIn = plain().open(p);
        FSDataInputStream cacheIn = fs.open(p)) {
      plainIn.readFully(0, b, 0, BLOCK);
      assertEquals(0, SoakFiles.mismatches(seed, 0, b, 0, BLOCK));
      cacheIn.readFully(0, b, 0, BLOCK);
      assertEquals(0, SoakFiles.mismatches(seed, 0, b, 0, BLOCK));

      plain().rename(next, p, Options.Rename.OVERWRITE);
      ExtendedBlock third = old.get(2).getBlock();
      awaitDeleted(third);

      IOException plainError = assertThrows(IOException.class,
          () -> plainIn.readFully(2L * BLOCK, b, 0, BLOCK), "plain HDFS fails the read");
      IOException cacheError = assertThrows(IOException.class,
          () -> cacheIn.readFully(2L * BLOCK, b, 0, BLOCK), "the cache fails it too");
      System.out.println("After a rename over the path: plain HDFS: " + plainError
          + "; through the cache: " + cacheError);
    }
  }

  private static void awaitDeleted(ExtendedBlock b) throws Exception {
    long deadline = Time.monotonicNow() + 60_000;
    while (true) {
      boolean anywhere = false;
      for (DataNode dn : cluster.dfs().getDataNodes()) {
        try {
          anywhere |= dn.getFSDataset().getStoredBlock(b.getBlockPoolId(), b.getBlockId()) != null;
        } catch (ReplicaNotFoundException e) {
          // deleted on this DataNode
        }
      }
      if (!anywhere) {
        return;
      }
      assertTrue(Time.monotonicNow() < deadline, "HDFS did not delete " + b + " in 60 s");
      Thread.sleep(100);
    }
  }

  @Test
  void soak_readersCheckEveryByteWhileTheCacheChurns() throws Exception {
    long seconds = Long.getLong("mpcache.soak.seconds", DEFAULT_SECONDS);
    Random rnd = new Random(12);
    List<SoakFile> files = new ArrayList<>();
    Set<BlockKey> keys = ConcurrentHashMap.newKeySet();
    long workingSet = 0;
    for (int i = 0; i < FILES; i++) {
      SoakFile f = new SoakFile(i, new Path("/soak/d" + (i % DATASETS) + "/f" + i));
      long length = initialLength(rnd);
      writeGeneration(f.path, i, 1, length);
      f.setCurrent(new Version(1, length));
      blocks(f.path).forEach(lb -> keys.add(key(lb.getBlock())));
      files.add(f);
      workingSet += length;
    }
    long cache = SLAVE_INPUT * cluster.slaves().size();
    assertTrue(workingSet >= 1.5 * cache, "working set " + workingSet + " vs cache " + cache);

    SoakTally tally = new SoakTally();
    ClientCounters client = ClientCounters.get();
    Map<FallbackCause, Long> fallbacksBefore = client.fallbacks();
    long hitsBefore = client.hits();
    long fromCacheBefore = client.bytesFromCache();
    long fromHdfsBefore = client.bytesFromHdfs();
    SlaveCountersProto slavesBefore = cluster.totals();

    long end = Time.monotonicNow() + seconds * 1000;
    BooleanSupplier stopped = () -> Time.monotonicNow() >= end;
    ExecutorService readers = Executors.newFixedThreadPool(READERS);
    ExecutorService background = Executors.newFixedThreadPool(4);
    long started = Time.monotonicNow();
    try (FileSystem fs = cluster.fileSystem()) {
      for (int i = 0; i < READERS; i++) {
        readers.execute(new SoakReader(files, fs, plain(), BLOCK, tally, stopped, 1000 + i));
      }
      background.execute(loop(stopped, tally, 300, 700, r -> replace(files, keys, tally, r)));
      background.execute(loop(stopped, tally, 200, 500, r -> append(files, keys, tally, r)));
      background.execute(loop(stopped, tally, 2000, 2000, r -> evict(tally, r)));
      background.execute(loop(stopped, tally, 1000, 1000, r -> reclaim(tally, r)));
      readers.shutdown();
      background.shutdown();
      long wait = seconds + 180;
      assertTrue(readers.awaitTermination(wait, TimeUnit.SECONDS),
          "readers still running " + wait + " s after the start: a read stalled");
      assertTrue(background.awaitTermination(60, TimeUnit.SECONDS), "background work stalled");
    } finally {
      readers.shutdownNow();
      background.shutdownNow();
    }
    long elapsed = Time.monotonicNow() - started;

    // A slave's own fill may still be yielding to the readers' hits (for at most
    // mpcache.slave.fill.yield.max-delay.ms after it was asked for) when the readers stop.
    awaitQuiet("fills in progress to end", () -> cluster.slaves().stream().allMatch(
        s -> s.getFiller().readerFillsPending() == 0));
    List<String> filling = new ArrayList<>();
    for (MpCacheSlave s : cluster.slaves()) {
      for (BlockKey k : keys) {
        if (s.getStore().state(k).orElse(null) == FileBlockStore.State.FILLING) {
          filling.add(s.info().getSlaveId() + " " + k);
        }
      }
    }
    awaitQuiet("each tuner's input usage to equal its block files' bytes", () ->
        cluster.slaves().stream().allMatch(s -> inputUsed(s) == bytesOnDisk(s)));

    Map<FallbackCause, Long> fallbacks = new TreeMap<>();
    client.fallbacks().forEach((k, v) -> {
      long d = v - fallbacksBefore.getOrDefault(k, 0L);
      if (d > 0) {
        fallbacks.put(k, d);
      }
    });
    SlaveCountersProto slaves = cluster.totals();
    String report = String.join("\n",
        "soak: " + READERS + " readers, " + FILES + " files in " + DATASETS + " datasets, blocks of "
            + BLOCK + " bytes, working set " + workingSet + " bytes at the start, Input Cache "
            + cache + " bytes, " + elapsed / 1000 + " s",
        "reads " + tally.reads.sum() + " (sequential " + tally.sequentialReads.sum()
            + ", positional " + tally.positionalReads.sum() + ", ByteBuffer "
            + tally.byteBufferReads.sum() + ") on " + tally.opens.sum() + " opens ("
            + tally.racedOpens.sum() + " racing a replacement)",
        "bytes verified " + tally.bytesVerified.sum() + ", wrong bytes " + tally.wrongBytes.sum()
            + ", short reads " + tally.shortReads.sum() + ", HDFS-side errors (file replaced"
            + " since open) " + tally.hdfsSideErrors.sum() + ", unexpected errors "
            + tally.unexpectedErrors.sum(),
        "client: hits " + (client.hits() - hitsBefore) + ", bytes from cache "
            + (client.bytesFromCache() - fromCacheBefore) + ", bytes from HDFS "
            + (client.bytesFromHdfs() - fromHdfsBefore) + ", fallbacks by cause " + fallbacks,
        "slaves: fills committed " + (slaves.getBlocksCached() - slavesBefore.getBlocksCached())
            + ", blocks evicted " + (slaves.getBlocksEvicted() - slavesBefore.getBlocksEvicted())
            + ", corrupt " + (slaves.getBlocksCorrupt() - slavesBefore.getBlocksCorrupt())
            + ", read errors " + (slaves.getReadErrors() - slavesBefore.getReadErrors()),
        "background: replacements " + tally.replacements.sum() + ", appends "
            + tally.appends.sum() + ", dataset evictions " + tally.evictions.sum() + " (+"
            + tally.evictionsOfUnknownDatasets.sum() + " of uncached datasets), localized"
            + " requests granted " + tally.reclaimsGranted.sum() + ", denied "
            + tally.reclaimsDenied.sum() + ", errors " + tally.backgroundErrors.sum(),
        "blocks left filling " + filling.size() + ", examples " + tally.samples());
    System.out.println(report);
    Files.writeString(new File("target/soak-report.txt").toPath(), report + "\n",
        StandardCharsets.UTF_8);

    assertEquals(0, tally.wrongBytes.sum(), "wrong bytes: " + tally.samples());
    assertEquals(0, tally.shortReads.sum(), "short reads: " + tally.samples());
    assertEquals(0, tally.unexpectedErrors.sum(), "unexpected errors: " + tally.samples());
    assertEquals(List.of(), filling, "blocks left filling");
    for (MpCacheSlave s : cluster.slaves()) {
      assertEquals(bytesOnDisk(s), inputUsed(s),
          s.info().getSlaveId() + ": the tuner's input usage against the block files' bytes");
      assertEquals(0, s.getLocalizedCache().snapshot().localizedCacheUsed(),
          s.info().getSlaveId() + ": localized bytes still reserved");
      try (Stream<java.nio.file.Path> tmp = Files.list(
          cluster.slaveSsdDir(cluster.slaves().indexOf(s)).toPath().resolve("tmp"))) {
        assertEquals(List.of(), tmp.toList(), "unfinished fill files");
      }
    }
    assertEquals(0, tally.backgroundErrors.sum(), "background errors: " + tally.samples());
    assertTrue(tally.bytesVerified.sum() > 0 && client.bytesFromCache() > fromCacheBefore,
        "readers read through the cache");
    assertTrue(tally.replacements.sum() > 0 && tally.appends.sum() > 0
        && tally.evictions.sum() > 0 && tally.reclaimsGranted.sum() > 0, report);
  }

  /** A length of 2 to 6 blocks, with a partial last block most of the time. */
  private static long initialLength(Random rnd) {
    return 2L * BLOCK + (long) (rnd.nextDouble() * 4 * BLOCK);
  }

  /** One background activity. */
  @FunctionalInterface
  private interface Step {
    void run(Random rnd) throws Exception;
  }

  /** Runs {@code step} until {@code stopped}, pausing {@code pause} to {@code pause + jitter} ms. */
  private static Runnable loop(BooleanSupplier stopped, SoakTally tally, int pause, int jitter,
      Step step) {
    return () -> {
      Random rnd = new Random(pause * 31L + jitter);
      while (!stopped.getAsBoolean()) {
        try {
          step.run(rnd);
          Thread.sleep(pause + rnd.nextInt(jitter));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        } catch (Exception | Error e) {
          tally.backgroundErrors.increment();
          tally.sample("background: " + e);
        }
      }
    };
  }

  /** Writes a new generation of a random file under a temporary name and renames it over. */
  private static void replace(List<SoakFile> files, Set<BlockKey> keys, SoakTally tally,
      Random rnd) throws IOException {
    SoakFile f = files.get(rnd.nextInt(files.size()));
    f.writer.lock();
    try {
      replaceLocked(f, keys, initialLength(rnd));
      tally.replacements.increment();
    } finally {
      f.writer.unlock();
    }
  }

  private static void replaceLocked(SoakFile f, Set<BlockKey> keys, long length)
      throws IOException {
    int generation = f.current().generation() + 1;
    Path tmp = new Path("/soak-tmp/f" + f.id + "-" + generation);
    writeGeneration(tmp, f.id, generation, length);
    f.prepare(generation, length);
    f.changes.incrementAndGet();
    try {
      plain().rename(tmp, f.path, Options.Rename.OVERWRITE);
      f.setCurrent(new Version(generation, length));
    } finally {
      f.changes.incrementAndGet();
    }
    blocks(f.path).forEach(lb -> keys.add(key(lb.getBlock())));
  }

  /**
   * Appends to a random file, into its last block or (one time in three) into a new block; a file
   * that would grow past {@link #MAX_BLOCKS} is replaced by a short one instead.
   */
  private static void append(List<SoakFile> files, Set<BlockKey> keys, SoakTally tally,
      Random rnd) throws IOException {
    SoakFile f = files.get(rnd.nextInt(files.size()));
    if (!f.writer.tryLock()) {
      return;
    }
    try {
      Version v = f.current();
      long add = 1 + rnd.nextInt(BLOCK + BLOCK / 2);
      boolean newBlock = rnd.nextInt(3) == 0;
      int blocksAfter = blocks(f.path).size() + (newBlock ? 2 : 1) + (int) (add / BLOCK);
      if (v.length() + add > (long) MAX_BLOCKS * BLOCK || blocksAfter > MAX_BLOCKS) {
        replaceLocked(f, keys, initialLength(rnd));
        tally.replacements.increment();
        return;
      }
      EnumSet<CreateFlag> flags = newBlock ? EnumSet.of(CreateFlag.APPEND, CreateFlag.NEW_BLOCK)
          : EnumSet.of(CreateFlag.APPEND);
      try (FSDataOutputStream out = plain().append(f.path, flags, 4096, null)) {
        writeBytes(out, SoakFiles.seed(f.id, v.generation()), v.length(), add);
      }
      f.setCurrent(new Version(v.generation(), v.length() + add));
      blocks(f.path).forEach(lb -> keys.add(key(lb.getBlock())));
      tally.appends.increment();
    } finally {
      f.writer.unlock();
    }
  }

  /** Evicts a random dataset (a directory of the working set) through the master's admin RPC. */
  private static void evict(SoakTally tally, Random rnd) throws IOException {
    Configuration conf = cluster.conf();
    InetSocketAddress master = new InetSocketAddress("127.0.0.1",
        cluster.master().getRpcAddress().getPort());
    AdminProtocolPB admin = RpcSupport.proxy(AdminProtocolPB.class, master, conf, 20_000);
    try {
      admin.evict(null, EvictRequestProto.newBuilder()
          .setPath("/soak/d" + rnd.nextInt(DATASETS)).build());
      tally.evictions.increment();
    } catch (ServiceException e) {
      if (!String.valueOf(e.getCause()).contains("knows no dataset")) {
        throw new IOException(e);
      }
      tally.evictionsOfUnknownDatasets.increment();
    } finally {
      RpcSupport.close(admin);
    }
  }

  private static final AtomicInteger applications = new AtomicInteger();

  /**
   * Asks a random slave's Localized Cache for 2 to 8 blocks of room, as a task does before a
   * spill, holds the grant a little and ends the application, as the NodeManager reports it.
   * Beyond the Localized Cache's own 4 blocks the tuner lends Dynamic Pool units, and when the
   * Input Cache holds them it reclaims them from cached input.
   */
  private static void reclaim(SoakTally tally, Random rnd) throws Exception {
    int i = rnd.nextInt(cluster.slaves().size());
    MpCacheSlave s = cluster.slaves().get(i);
    int app = applications.incrementAndGet();
    String appId = String.format("application_1_%04d", app);
    try (LocalizedProtocolClientSideTranslatorPB nm = new LocalizedProtocolClientSideTranslatorPB(
        s.getLocalizedAddress(), cluster.conf())) {
      try {
        LocalizedGrant g = nm.requestSpace(appId, String.format("container_1_%04d_01_000002", app),
            String.format("attempt_1_%04d_m_000000_0", app), (2L + rnd.nextInt(7)) * BLOCK);
        (g.isGranted() ? tally.reclaimsGranted : tally.reclaimsDenied).increment();
        Thread.sleep(200 + rnd.nextInt(600));
      } finally {
        nm.applicationFinished(appId);
      }
    }
  }

  /** The input bytes the slave's tuner accounts (cached and being filled). */
  private static long inputUsed(MpCacheSlave s) {
    SpaceSnapshot snap = s.getLocalizedCache().snapshot();
    return snap.inputCacheUsed();
  }

  /** The bytes of the cached block files (not their checksum files) in the slave's SSD dir. */
  private static long bytesOnDisk(MpCacheSlave s) {
    java.nio.file.Path current = cluster.slaveSsdDir(cluster.slaves().indexOf(s)).toPath()
        .resolve("current");
    try (Stream<java.nio.file.Path> all = Files.walk(current)) {
      return all.filter(Files::isRegularFile)
          .filter(p -> p.getFileName().toString().startsWith("blk_")
              && !p.getFileName().toString().endsWith(".crc"))
          .mapToLong(p -> {
            try {
              return Files.size(p);
            } catch (IOException e) {
              return 0; // deleted while walking: no longer on disk
            }
          }).sum();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Waits up to 30 s for {@code condition}; the assertions that follow say what is wrong. */
  private static void awaitQuiet(String what, BooleanSupplier condition)
      throws InterruptedException {
    long waitMs = QUIET_WAIT_MS;
    long deadline = Time.monotonicNow() + waitMs;
    while (!condition.getAsBoolean() && Time.monotonicNow() < deadline) {
      Thread.sleep(100);
    }
    if (!condition.getAsBoolean()) {
      System.out.println("still waiting for " + what + " after " + waitMs / 1000 + " s");
    }
  }
}
