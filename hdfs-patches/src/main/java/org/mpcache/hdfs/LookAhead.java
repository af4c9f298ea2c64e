package org.mpcache.hdfs;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.annotation.concurrent.GuardedBy;

/**
 * The lookup of one block and the request for its file, made on a background thread ahead of
 * the sequential reader. Whichever comes first makes it: the background task, or the reader
 * entering the block before the task started, which then looks the block up as usual.
 *
 * <p>Thread-safe.
 */
final class LookAhead {
  /** A hit found ahead: the reader of the block's file, null to read it through the slave. */
  record Found(BlockReader descriptor) {
  }

  /** The lookup and file request, run by the background thread. */
  @FunctionalInterface
  interface Lookup {
    Found call() throws IOException;
  }

  final int index;
  final String slaveId;
  /** Whether the task or the reader has taken the lookup on. */
  private final AtomicBoolean claimed = new AtomicBoolean();
  /** The hit the task found; null when it found none (a miss, a fault) or never ran. */
  private final CompletableFuture<Found> found = new CompletableFuture<>();

  LookAhead(int index, String slaveId) {
    this.index = index;
    this.slaveId = slaveId;
  }

  /** The background task: looks the block up and asks for its file, unless taken already. */
  void run(Lookup lookup) {
    if (!claimed.compareAndSet(false, true)) {
      return;
    }
    try {
      found.complete(lookup.call());
    } catch (IOException | RuntimeException e) {
      // The reader looks the block up itself, and meets the fault there if it lasts.
      found.complete(null);
    }
  }

  /**
   * The reader enters the block: the hit found ahead, waiting for it at most
   * {@code waitNanos}; null when there is none (the task had not started, found a miss or a
   * fault, or was too slow: what it finds later is released).
   */
  Found take(long waitNanos) {
    if (claimed.compareAndSet(false, true)) {
      return null;
    }
    try {
      return found.get(Math.max(0, waitNanos), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      discard();
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      discard();
      return null;
    } catch (ExecutionException e) {
      return null;
    }
  }

  /** Releases the block file found ahead, now or once the task has found it. */
  void discard() {
    if (claimed.compareAndSet(false, true)) {
      found.complete(null);
      return;
    }
    found.thenAccept(f -> {
      if (f != null && f.descriptor() != null) {
        f.descriptor().release();
      }
    });
  }

  /**
   * The block readers the sequential reader holds, the current block's and the one found ahead,
   * kept apart from the stream so that the cleaner releasing them when the stream is dropped
   * unclosed does not keep the stream reachable. Thread-safe.
   */
  static final class HeldFiles implements Runnable {
    @GuardedBy("this")
    private LookAhead ahead;
    @GuardedBy("this")
    private BlockReader current;

    synchronized LookAhead takeAhead() {
      LookAhead a = ahead;
      ahead = null;
      return a;
    }

    /** Holds {@code a}; false when another is held. */
    synchronized boolean putAhead(LookAhead a) {
      if (ahead != null) {
        return false;
      }
      ahead = a;
      return true;
    }

    synchronized void current(BlockReader r) {
      current = r;
    }

    /** Releases the block file found ahead. */
    void dropAhead() {
      LookAhead a = takeAhead();
      if (a != null) {
        a.discard();
      }
    }

    /** Releases every file held. */
    @Override
    public void run() {
      dropAhead();
      BlockReader r;
      synchronized (this) {
        r = current;
        current = null;
      }
      if (r != null) {
        r.release();
      }
    }
  }
}
