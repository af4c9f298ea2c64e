package org.mpcache.hdfs;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.mpcache.common.proto.ClientSlaveProtos.ReportReadRequestProto;
import org.mpcache.hdfs.SlaveDirectory.Slave;

/**
 * What a sequential reader's next lookup names and carries: the missed blocks whose lookups wait
 * for it (entered within {@code mpcache.client.miss.lookup.interval.ms} of the last lookup, or
 * while that is unanswered), and the read reports of the blocks it left, held for that slave's
 * next lookup so that one call does for all. Both are of one slave at a time and at most
 * {@code maxBlocks} long; whatever another slave's lookup cannot take is handed back to be sent
 * on its own. A fast reader of missed blocks thus makes a lookup per interval, not per block.
 *
 * <p>Pure: it makes no call, starts no thread and takes time from an injected ticker; the stream
 * sends what it says. Not thread-safe: the sequential reader uses it under the stream's monitor.
 */
final class MissLookups {
  /** Blocks or reports of one slave, to send. */
  record Batch<T>(Slave slave, List<T> items) {
  }

  private final long intervalNanos;
  private final int maxBlocks;
  private final LongSupplier ticker;
  private final List<Integer> deferred = new ArrayList<>();
  private Slave deferredSlave;
  private final List<ReportReadRequestProto> reports = new ArrayList<>();
  private Slave reportsSlave;
  private long lastLookupNanos;
  private boolean lookedUp;

  /**
   * @param intervalNanos the least time between two lookups; 0 looks every block up
   * @param maxBlocks the most blocks one lookup names, and reports it carries
   */
  MissLookups(long intervalNanos, int maxBlocks, LongSupplier ticker) {
    this.intervalNanos = intervalNanos;
    this.maxBlocks = maxBlocks;
    this.ticker = ticker;
  }

  private static boolean same(Slave a, Slave b) {
    return a != null && b != null && a.id().equals(b.id());
  }

  /**
   * Whether the lookup of a missed block of {@code slave} waits for a later one: it comes within
   * the interval of the last lookup or while {@code lastUnanswered}, and the deferred blocks are
   * that slave's with room for one more.
   */
  boolean defers(Slave slave, boolean lastUnanswered) {
    return intervalNanos > 0
        && (deferred.isEmpty() || same(deferredSlave, slave))
        && deferred.size() < maxBlocks - 1
        && (lookedUp && ticker.getAsLong() - lastLookupNanos < intervalNanos || lastUnanswered);
  }

  /** Defers the lookup of block {@code index} of {@code slave}. */
  void defer(int index, Slave slave) {
    deferred.add(index);
    deferredSlave = slave;
  }

  /**
   * The blocks a lookup of block {@code index} on {@code slave} names, in order, its own last:
   * the deferred ones when they are that slave's.
   */
  List<Integer> named(int index, Slave slave) {
    List<Integer> named = new ArrayList<>();
    if (same(deferredSlave, slave)) {
      named.addAll(deferred);
      deferred.clear();
      deferredSlave = null;
    }
    named.add(index);
    return named;
  }

  /** A lookup went out now. */
  void lookedUp() {
    lastLookupNanos = ticker.getAsLong();
    lookedUp = true;
  }

  /** The deferred blocks, to look up on their own now; null when there are none. */
  Batch<Integer> takeDeferred() {
    if (deferred.isEmpty()) {
      return null;
    }
    Batch<Integer> b = new Batch<>(deferredSlave, List.copyOf(deferred));
    deferred.clear();
    deferredSlave = null;
    return b;
  }

  /**
   * Holds {@code report} of a block of {@code slave} for that slave's next lookup; returns the
   * reports held before that this one cannot join (another slave's, or a full batch), to send
   * on their own now, or null.
   */
  Batch<ReportReadRequestProto> hold(Slave slave, ReportReadRequestProto report) {
    Batch<ReportReadRequestProto> out = null;
    if (reportsSlave != null && !same(reportsSlave, slave) || reports.size() >= maxBlocks) {
      out = takeReports();
    }
    reportsSlave = slave;
    reports.add(report);
    return out;
  }

  /** The reports a lookup to {@code slave} carries (and no longer held); empty if none. */
  List<ReportReadRequestProto> carried(Slave slave) {
    if (reports.isEmpty() || !same(reportsSlave, slave)) {
      return List.of();
    }
    List<ReportReadRequestProto> out = List.copyOf(reports);
    reports.clear();
    reportsSlave = null;
    return out;
  }

  /**
   * Whether the held reports should go on their own now that the reader entered a block of
   * {@code slave} ({@code null}: none) whose lookup was {@code deferred}: only a deferred lookup
   * of the same slave will carry them.
   */
  boolean reportsWaitIn(Slave slave, boolean deferred) {
    return reportsSlave == null || deferred && same(reportsSlave, slave);
  }

  /** The held reports, to send on their own now; null when there are none. */
  Batch<ReportReadRequestProto> takeReports() {
    if (reports.isEmpty()) {
      reportsSlave = null;
      return null;
    }
    Batch<ReportReadRequestProto> b = new Batch<>(reportsSlave, List.copyOf(reports));
    reports.clear();
    reportsSlave = null;
    return b;
  }
}
