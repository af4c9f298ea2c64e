package org.mpcache.tiers;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Measures emulated tiers with plain Java file I/O, the way Hadoop's daemons use them (buffered
 * reads and writes, no O_DIRECT, which the blkio IOPS limit would count twice for large requests):
 * sequential write (including the final fsync), sequential read, random 4 KiB reads for a fixed
 * time (IOPS and mean latency), and the aggregate bandwidth of several concurrent sequential
 * readers, each reading its own file. The page cache is dropped before the write and before
 * every read phase; where that is not allowed the figures are marked warm (they then show the
 * page cache, not the device). Files are made in a scratch directory below each tier's directory
 * and deleted afterwards. Measure while nothing else uses the tiers (before the cluster's jobs):
 * the limits are shared, so a busy tier measures only what is left of it.
 *
 * <p>Immutable and thread-safe; one measurement at a time per directory.
 */
public final class TierMeasurement {
  private static final int CHUNK = 1 << 20;
  private static final int PAGE = 4096;

  private final double phaseSeconds;
  private final int readers;

  /**
   * @param phaseSeconds about how long each phase should take at the configured limits: each
   *     tier's file holds {@code phaseSeconds} of its read bandwidth (at least 1 MiB per reader,
   *     at most a quarter of the device). Longer phases dilute the throttle's first-slice burst.
   * @param readers concurrent readers of the parallel phase, at least 1
   */
  public TierMeasurement(double phaseSeconds, int readers) {
    if (readers < 1) {
      throw new IllegalArgumentException("need at least one reader, got " + readers);
    }
    if (!(phaseSeconds > 0)) {
      throw new IllegalArgumentException("phases must last > 0 s, got " + phaseSeconds);
    }
    this.phaseSeconds = phaseSeconds;
    this.readers = readers;
  }

  /** The size of the sequential file for a device: whole MiB, a multiple of the readers. */
  long fileBytes(TierSpec.Device limits) {
    long want = (long) (limits.readBytesPerSec() * phaseSeconds);
    long unit = (long) readers * CHUNK;
    long bytes = Math.min(want, limits.sizeBytes() / 4) / unit * unit;
    return Math.max(unit, bytes);
  }

  /**
   * Measures the HDD and SSD of the given nodes (all when {@code nodes} is empty), the nodes at
   * the same time: each has devices, and limits, of its own, so a slow emulated HDD is measured
   * once in the run's wall time, not once per node. Rows come in node order, HDD then SSD.
   */
  public TierReport measure(StorageTiers tiers, List<Integer> nodes) throws IOException {
    boolean throttled = tiers.mechanism() == TierMechanism.KERNEL;
    List<NodeTiers> chosen = tiers.nodes().stream()
        .filter(n -> nodes.isEmpty() || nodes.contains(n.index())).toList();
    if (chosen.isEmpty()) {
      return new TierReport(tiers.decision(), List.of());
    }
    ExecutorService pool = Executors.newFixedThreadPool(chosen.size());
    try {
      List<Future<List<TierFigures>>> perNode = new ArrayList<>();
      for (NodeTiers n : chosen) {
        perNode.add(pool.submit(() -> List.of(
            measure(n.index(), "hdd", n.hddDir(), throttled, tiers.spec().hdd()),
            measure(n.index(), "ssd", n.ssdDir(), throttled, tiers.spec().ssd()))));
      }
      List<TierFigures> rows = new ArrayList<>();
      for (Future<List<TierFigures>> f : perNode) {
        rows.addAll(await(f));
      }
      return new TierReport(tiers.decision(), rows);
    } finally {
      pool.shutdownNow();
    }
  }

  /** Measures one directory; {@code limits} are reported beside the figures. */
  TierFigures measure(int node, String tier, Path dir, boolean throttled, TierSpec.Device limits)
      throws IOException {
    long fileBytes = fileBytes(limits);
    Path scratch = Files.createDirectories(dir.resolve(".tier-measurement"));
    Path seq = scratch.resolve("seq");
    List<Path> parts = new ArrayList<>();
    for (int i = 0; i < readers; i++) {
      parts.add(scratch.resolve("part" + i));
    }
    try {
      boolean cold = PageCache.drop().dropped();
      double write = mibps(fileBytes, time(() -> write(seq, fileBytes)));
      for (Path p : parts) {
        write(p, fileBytes / readers);
      }
      cold &= PageCache.drop().dropped();
      double read = mibps(fileBytes, time(() -> read(seq)));
      cold &= PageCache.drop().dropped();
      long[] random = randomReads(seq, fileBytes);
      double seconds = random[1] / 1e9;
      cold &= PageCache.drop().dropped();
      double parallel = mibps(fileBytes, time(() -> readAll(parts)));
      return new TierFigures(node, tier, dir.toString(), throttled, cold, fileBytes >> 20,
          limits, write, read, random[0] / seconds, seconds * 1000 / random[0], readers,
          parallel);
    } finally {
      for (Path p : parts) {
        Files.deleteIfExists(p);
      }
      Files.deleteIfExists(seq);
      Files.deleteIfExists(scratch);
    }
  }

  private interface Io {
    void run() throws IOException;
  }

  private static long time(Io io) throws IOException {
    long start = System.nanoTime();
    io.run();
    return System.nanoTime() - start;
  }

  private static double mibps(long bytes, long nanos) {
    return bytes / 1048576.0 / (nanos / 1e9);
  }

  /** Writes {@code bytes} of pseudo-random data and forces them to the device. */
  private static void write(Path file, long bytes) throws IOException {
    ByteBuffer buf = ByteBuffer.allocateDirect(CHUNK);
    SplittableRandom rnd = new SplittableRandom(file.hashCode());
    while (buf.hasRemaining()) {
      buf.putLong(rnd.nextLong());
    }
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE,
        StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
      for (long done = 0; done < bytes; done += CHUNK) {
        buf.clear();
        while (buf.hasRemaining()) {
          ch.write(buf);
        }
      }
      ch.force(true);
    }
  }

  /** Reads a whole file sequentially in 1 MiB requests; returns the bytes read. */
  private static long read(Path file) throws IOException {
    ByteBuffer buf = ByteBuffer.allocateDirect(CHUNK);
    long total = 0;
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      int n;
      while ((n = ch.read(buf)) >= 0) {
        total += n;
        buf.clear();
      }
    }
    return total;
  }

  private void readAll(List<Path> files) throws IOException {
    ExecutorService pool = Executors.newFixedThreadPool(files.size());
    try {
      List<Future<Long>> done = new ArrayList<>();
      for (Path f : files) {
        done.add(pool.submit(() -> read(f)));
      }
      for (Future<Long> d : done) {
        await(d);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** The value of {@code f}, a measurement run on a thread of its own. */
  private static <T> T await(Future<T> f) throws IOException {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while measuring in parallel", e);
    } catch (ExecutionException e) {
      throw new IOException("a parallel measurement failed: " + e.getCause(), e.getCause());
    }
  }

  /** Random page-aligned 4 KiB reads for the configured time; returns {reads, nanoseconds}. */
  private long[] randomReads(Path file, long fileBytes) throws IOException {
    ByteBuffer buf = ByteBuffer.allocateDirect(PAGE);
    SplittableRandom rnd = new SplittableRandom(42);
    long pages = fileBytes / PAGE;
    long reads = 0;
    long start = System.nanoTime();
    long end = start + (long) (phaseSeconds * 1e9);
    long now;
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      do {
        buf.clear();
        ch.read(buf, rnd.nextLong(pages) * PAGE);
        reads++;
        now = System.nanoTime();
      } while (now < end);
    }
    return new long[] {reads, now - start};
  }
}
