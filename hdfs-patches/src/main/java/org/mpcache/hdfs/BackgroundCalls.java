package org.mpcache.hdfs;

import java.io.Closeable;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.thirdparty.com.google.common.util.concurrent.ThreadFactoryBuilder;

/**
 * Threads that make one client's calls to the slaves off its readers' threads: the fills of its
 * streams ({@link WriteThrough}), and the lookups and descriptor requests of the blocks ahead of
 * its sequential readers. At most a given number of daemon threads, each running one task at a
 * time, later tasks queued; idle threads end after a few seconds, so none stays behind a closed
 * stream. Closing waits at most a given time for the tasks under way to finish (a task's JVM
 * closes its FileSystems as it exits), then interrupts the rest.
 *
 * <p>Thread-safe.
 */
final class BackgroundCalls implements Closeable {
  private static final long IDLE_SECONDS = 5;

  private final ThreadPoolExecutor pool;
  private final long closeWaitMs;

  /**
   * @param name the threads' name, to which each adds its number
   * @param threads the most threads
   * @param closeWaitMs how long {@link #close} waits for the tasks under way
   */
  BackgroundCalls(String name, int threads, long closeWaitMs) {
    this.pool = new ThreadPoolExecutor(threads, threads, IDLE_SECONDS, TimeUnit.SECONDS,
        new LinkedBlockingQueue<>(), new ThreadFactoryBuilder().setDaemon(true)
            .setNameFormat(name + "-%d").build());
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
