package org.mpcache.hdfs;

import java.io.Closeable;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.thirdparty.com.google.common.util.concurrent.ThreadFactoryBuilder;

/**
 * The threads that carry the fills of one client's streams to the slaves ({@link WriteThrough}),
 * so that no reader waits for a slave's write: at most {@code mpcache.client.fill.threads} daemon
 * threads, each running the calls of one fill at a time; idle threads end after a few seconds, so
 * none stays behind a closed stream. Closing waits at most the cache deadline for the fills under
 * way to finish (a task's JVM closes its FileSystems as it exits), then interrupts the rest.
 *
 * <p>Thread-safe.
 */
final class FillSenders implements Closeable {
  private static final long IDLE_SECONDS = 5;

  private final ThreadPoolExecutor pool;
  private final long closeWaitMs;

  /**
   * @param threads the most sender threads
   * @param closeWaitMs how long {@link #close} waits for the fills under way
   */
  FillSenders(int threads, long closeWaitMs) {
    this.pool = new ThreadPoolExecutor(threads, threads, IDLE_SECONDS, TimeUnit.SECONDS,
        new LinkedBlockingQueue<>(), new ThreadFactoryBuilder().setDaemon(true)
            .setNameFormat("mpcache-client-fill-%d").build());
    this.pool.allowCoreThreadTimeOut(true);
    this.closeWaitMs = closeWaitMs;
  }

  /**
   * Runs {@code task} on a sender thread, after the tasks queued before it when every thread is
   * busy; false when closed.
   */
  boolean execute(Runnable task) {
    try {
      pool.execute(task);
      return true;
    } catch (RejectedExecutionException closed) {
      return false;
    }
  }

  @Override
  public void close() {
    pool.shutdown();
    try {
      pool.awaitTermination(closeWaitMs, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    pool.shutdownNow();
  }
}
