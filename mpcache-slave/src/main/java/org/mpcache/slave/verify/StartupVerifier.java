package org.mpcache.slave.verify;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.service.AbstractService;
import org.mpcache.common.BlockKey;
import org.mpcache.slave.store.FileBlockStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Verifies, in the background, the full CRCs of the blocks a slave found on its SSD at start. The
 * store only checked their sizes and sidecar headers, so that the slave registers and serves at
 * once; this pass reads every chunk back at no more than {@code bytesPerSec} on average (a block
 * is read at full speed, then the pass sleeps what the rate allows) and drops each block whose
 * bytes do not match their checksums, through {@code onCorrupt}. Until the pass reaches a block,
 * its bytes are still never served unverified: clients check each chunk against its stored CRC.
 *
 * <p>Blocks removed meanwhile are skipped; an I/O error leaves a block in place (it says nothing
 * about the bytes). A rate of 0 turns the pass off.
 *
 * <p>Thread-safe: one daemon thread does the work; the counters are atomic.
 */
public final class StartupVerifier extends AbstractService {
  private static final Logger LOG = LoggerFactory.getLogger(StartupVerifier.class);
  private static final long NANOS_PER_SECOND = 1_000_000_000L;

  /** What is done with a block that failed verification. */
  @FunctionalInterface
  public interface CorruptBlockHandler {
    void drop(BlockKey key, String why);
  }

  private final FileBlockStore store;
  private final List<BlockKey> blocks;
  private final long bytesPerSec;
  private final CorruptBlockHandler onCorrupt;
  private final AtomicLong verified = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private volatile boolean done;
  private Thread thread;

  /**
   * @param blocks the blocks to verify: those the store found at start
   * @param bytesPerSec the average read rate allowed, 0 for no verification
   */
  public StartupVerifier(FileBlockStore store, List<BlockKey> blocks, long bytesPerSec,
      CorruptBlockHandler onCorrupt) {
    super(StartupVerifier.class.getSimpleName());
    if (bytesPerSec < 0) {
      throw new IllegalArgumentException("bytesPerSec must not be negative: " + bytesPerSec);
    }
    this.store = store;
    this.blocks = List.copyOf(blocks);
    this.bytesPerSec = bytesPerSec;
    this.onCorrupt = onCorrupt;
  }

  @Override
  protected void serviceStart() throws Exception {
    if (bytesPerSec > 0 && !blocks.isEmpty()) {
      thread = new Thread(this::run, "mpcache-startup-verifier");
      thread.setDaemon(true);
      thread.start();
    } else {
      done = true;
    }
    super.serviceStart();
  }

  @Override
  protected void serviceStop() throws Exception {
    if (thread != null) {
      thread.interrupt();
      thread.join(10_000);
    }
    super.serviceStop();
  }

  private void run() {
    long t0 = System.nanoTime();
    long bytes = 0;
    try {
      for (BlockKey key : blocks) {
        long length = store.cachedLength(key);
        if (length < 0) {
          continue;
        }
        try {
          if (store.verify(key)) {
            verified.incrementAndGet();
          } else {
            failed.incrementAndGet();
            onCorrupt.drop(key, "its bytes on the SSD do not match their checksums");
          }
        } catch (IOException e) {
          LOG.warn("Could not verify cached block {}; keeping it: {}", key, e.toString());
        }
        bytes += length;
        long dueNanos = dueNanos(bytes, bytesPerSec, System.nanoTime() - t0);
        if (dueNanos > 0) {
          Thread.sleep(dueNanos / 1_000_000, (int) (dueNanos % 1_000_000));
        }
      }
      LOG.info("Verified {} cached blocks found at start ({} bytes) in {} ms; {} dropped",
          verified.get(), bytes, (System.nanoTime() - t0) / 1_000_000, failed.get());
    } catch (InterruptedException e) {
      LOG.info("Stopped verifying cached blocks after {} of {}", verified.get() + failed.get(),
          blocks.size());
    } finally {
      done = true;
    }
  }

  /**
   * How long the pass must wait, after reading {@code bytes} in {@code elapsedNanos}, to average
   * no more than {@code bytesPerSec}; zero or negative when it is behind. Whole seconds and the
   * remainder are scaled apart, since {@code bytes} in nanoseconds overflows a long past about
   * 9.2 GB.
   */
  static long dueNanos(long bytes, long bytesPerSec, long elapsedNanos) {
    long seconds = bytes / bytesPerSec;
    long fraction = (long) ((double) (bytes % bytesPerSec) * NANOS_PER_SECOND / bytesPerSec);
    long target = seconds > (Long.MAX_VALUE - NANOS_PER_SECOND) / NANOS_PER_SECOND
        ? Long.MAX_VALUE : seconds * NANOS_PER_SECOND + fraction;
    return target - elapsedNanos;
  }

  /** Blocks whose checksums matched. */
  public long verified() {
    return verified.get();
  }

  /** Blocks dropped because their checksums did not match. */
  public long failed() {
    return failed.get();
  }

  /** Whether the pass is over (or was never started). */
  public boolean isDone() {
    return done;
  }
}
