package org.mpcache.slave.volume;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Decides when one of the slave's SSD directories goes out of service: after more than
 * {@code faultsTolerated} faults within {@code windowMs} (keys {@code mpcache.slave.volume.*}), a
 * fault being an I/O error of a read, a write or a fill, or a read slower than
 * {@code slowReadMs}. It plays the part of a DataNode's volume checker and
 * {@code dfs.datanode.failed.volumes.tolerated}, counted per directory: the cache's copy of a
 * block is never the only one, so a directory that keeps failing its readers is worth less than
 * the faults it costs them, and it is taken out rather than checked again and again.
 *
 * <p>Every directory may go out; with all of them out the slave caches and serves nothing and its
 * readers read HDFS (fail open). A directory comes back only when the operator says so
 * ({@link #restore}: {@code mpcache admin refresh}, or a restart), with its fault history cleared;
 * the policy never returns one by itself, since a failing disk that answers once is still failing.
 *
 * <p>A pure policy: it takes events and answers questions, does no I/O and starts no threads; time
 * comes from the two injected clocks, a monotonic one for the window and the wall clock for the
 * time a directory went out (for reports). Not thread-safe: the store calls it under its own lock.
 */
public final class VolumeHealth {

  /** What went wrong with one operation of a directory. */
  public enum Fault {
    /** A read (of a block, its checksums or its size, or the open of a lent file) failed. */
    READ_ERROR("read error"),
    /** A fill's write, sync or rename, a delete, or a free-space query failed. */
    WRITE_ERROR("write error"),
    /** A read took longer than the slow-read threshold. */
    SLOW_READ("slow read");

    private final String label;

    Fault(String label) {
      this.label = label;
    }

    /** The words reports use for it. */
    public String label() {
      return label;
    }
  }

  /**
   * One directory's state for reports.
   *
   * @param dir the directory
   * @param inService whether it holds, serves and fills blocks
   * @param cause out of service: the fault that took it out, with its detail; empty in service
   * @param outSinceMs out of service: the wall-clock time it went out; 0 in service
   * @param recentFaults the faults counted in the current window (in service) or the ones that
   *     took it out
   * @param timesOut how many times it went out since the slave started
   */
  public record DirState(String dir, boolean inService, String cause, long outSinceMs,
      int recentFaults, long timesOut) {
  }

  /** One directory's record. */
  private static final class Dir {
    /** Monotonic times of the faults within the window, oldest first. */
    final Deque<Long> faults = new ArrayDeque<>();
    boolean out;
    String cause = "";
    long outSinceMs;
    long timesOut;
  }

  private final Map<String, Dir> dirs = new LinkedHashMap<>();
  private final int faultsTolerated;
  private final long windowMs;
  private final long slowReadMs;
  private final LongSupplier ticker;
  private final LongSupplier wallClock;
  private long failures;

  /**
   * @param dirs the node's SSD directories, all in service at first
   * @param faultsTolerated the faults a directory may have within the window and stay in service
   *     (0: the first fault takes it out)
   * @param windowMs how far back faults count, at least 1
   * @param slowReadMs a read taking longer than this is a fault; 0 counts no read as slow
   * @param ticker a monotonic clock in milliseconds
   * @param wallClock the wall clock in milliseconds since the epoch
   */
  public VolumeHealth(List<String> dirs, int faultsTolerated, long windowMs, long slowReadMs,
      LongSupplier ticker, LongSupplier wallClock) {
    if (faultsTolerated < 0) {
      throw new IllegalArgumentException("faultsTolerated must not be negative: "
          + faultsTolerated);
    }
    if (windowMs < 1) {
      throw new IllegalArgumentException("windowMs must be at least 1: " + windowMs);
    }
    if (slowReadMs < 0) {
      throw new IllegalArgumentException("slowReadMs must not be negative: " + slowReadMs);
    }
    this.faultsTolerated = faultsTolerated;
    this.windowMs = windowMs;
    this.slowReadMs = slowReadMs;
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    this.wallClock = Objects.requireNonNull(wallClock, "wallClock");
    for (String d : dirs) {
      if (this.dirs.put(Objects.requireNonNull(d, "dir"), new Dir()) != null) {
        throw new IllegalArgumentException("SSD directory listed twice: " + d);
      }
    }
  }

  /**
   * Counts a fault of {@code dir}.
   *
   * @param detail what failed, for the cause reports show
   * @return true when this fault takes the directory out of service (it was in service and has
   *     now had more than the tolerated faults within the window); false otherwise, also for a
   *     directory already out or not one of the node's
   */
  public boolean fault(String dir, Fault fault, String detail) {
    Dir d = dirs.get(dir);
    if (d == null || d.out) {
      return false;
    }
    long now = ticker.getAsLong();
    expire(d, now);
    d.faults.addLast(now);
    if (d.faults.size() <= faultsTolerated) {
      return false;
    }
    d.out = true;
    d.cause = fault.label() + ": " + detail;
    d.outSinceMs = wallClock.getAsLong();
    d.timesOut++;
    failures++;
    return true;
  }

  /**
   * Judges a read of {@code dir} that took {@code elapsedMs}: a fault ({@link Fault#SLOW_READ})
   * when that is longer than the slow-read threshold.
   *
   * @return as {@link #fault}: whether it takes the directory out of service
   */
  public boolean readTook(String dir, long elapsedMs, String detail) {
    if (slowReadMs == 0 || elapsedMs <= slowReadMs) {
      return false;
    }
    return fault(dir, Fault.SLOW_READ, detail + " took " + elapsedMs + " ms, more than "
        + slowReadMs);
  }

  private void expire(Dir d, long now) {
    while (!d.faults.isEmpty() && now - d.faults.peekFirst() >= windowMs) {
      d.faults.removeFirst();
    }
  }

  /** Whether {@code dir} is one of the node's directories and in service. */
  public boolean inService(String dir) {
    Dir d = dirs.get(dir);
    return d != null && !d.out;
  }

  /**
   * Puts {@code dir} back in service with no faults counted.
   *
   * @return whether it was out of service
   */
  public boolean restore(String dir) {
    Dir d = dirs.get(dir);
    if (d == null || !d.out) {
      return false;
    }
    d.out = false;
    d.cause = "";
    d.outSinceMs = 0;
    d.faults.clear();
    return true;
  }

  /** The directories out of service, in configuration order. */
  public List<String> outOfService() {
    List<String> out = new ArrayList<>();
    dirs.forEach((name, d) -> {
      if (d.out) {
        out.add(name);
      }
    });
    return out;
  }

  /** Whether every directory is out of service: the slave then caches and serves nothing. */
  public boolean allOut() {
    return outOfService().size() == dirs.size();
  }

  /** How many times a directory went out of service since the policy was made. */
  public long failures() {
    return failures;
  }

  /** Every directory's state, in configuration order. */
  public List<DirState> states() {
    long now = ticker.getAsLong();
    List<DirState> out = new ArrayList<>(dirs.size());
    dirs.forEach((name, d) -> {
      if (!d.out) {
        expire(d, now);
      }
      out.add(new DirState(name, !d.out, d.cause, d.outSinceMs, d.faults.size(), d.timesOut));
    });
    return out;
  }
}
