package org.mpcache.trust;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the soak's readers and background writers did and saw: reads, bytes verified, wrong bytes,
 * short reads, errors by kind, and the background work done. A few examples of each kind of
 * failure are kept for the assertion messages. Thread-safe.
 */
final class SoakTally {
  private static final int SAMPLES = 20;

  final LongAdder opens = new LongAdder();
  /** Opens that raced a replacement of the path: the generation was found from the bytes. */
  final LongAdder racedOpens = new LongAdder();
  final LongAdder reads = new LongAdder();
  final LongAdder sequentialReads = new LongAdder();
  final LongAdder positionalReads = new LongAdder();
  final LongAdder byteBufferReads = new LongAdder();
  final LongAdder bytesVerified = new LongAdder();
  final LongAdder wrongBytes = new LongAdder();
  /** End of file, or fewer bytes than asked of readFully, before the length the file had at open. */
  final LongAdder shortReads = new LongAdder();
  /** Failed reads of a file replaced since the stream opened: plain HDFS fails them alike. */
  final LongAdder hdfsSideErrors = new LongAdder();
  /** Any other exception a reader saw: the cache must never cause one. */
  final LongAdder unexpectedErrors = new LongAdder();
  final LongAdder replacements = new LongAdder();
  final LongAdder appends = new LongAdder();
  final LongAdder evictions = new LongAdder();
  /** Evictions of a directory the master has no dataset for (not read since its last eviction). */
  final LongAdder evictionsOfUnknownDatasets = new LongAdder();
  final LongAdder reclaimsGranted = new LongAdder();
  final LongAdder reclaimsDenied = new LongAdder();
  final LongAdder backgroundErrors = new LongAdder();

  private final List<String> samples = new ArrayList<>();
  private final AtomicInteger sampled = new AtomicInteger();

  /** Keeps {@code what} as an example when fewer than {@link #SAMPLES} are kept. */
  void sample(String what) {
    if (sampled.getAndIncrement() < SAMPLES) {
      synchronized (samples) {
        samples.add(what);
      }
    }
  }

  List<String> samples() {
    synchronized (samples) {
      return List.copyOf(samples);
    }
  }
}
