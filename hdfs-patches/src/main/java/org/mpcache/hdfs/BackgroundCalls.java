package org.mpcache.hdfs;

import java.io.Closeable;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.thirdparty.com.google.common.util.concurrent.ThreadFactoryBuilder;

/**
 * Threads that make one client's calls to the slaves off its readers' threads: the lookups and
 * descriptor requests of the blocks ahead of its sequential readers, and, after a miss, the next
 * missed block's lookup and the read reports of the blocks its readers read from HDFS. At most a given number of daemon threads, each running
 * one task at a time, later tasks queued; idle threads end after a few seconds, so none stays
 * behind a closed stream. Closing waits at most a given time for the tasks under way to finish (a
 * task's JVM closes its FileSystems as it exits), then interrupts the rest.
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

  /**
   * Runs {@code call} as {@link #execute} does; the returned future holds its answer or what it
   * threw. Null when closed.
   */
  <T> CompletableFuture<T> submit(Callable<T> call) {
    CompletableFuture<T> answer = new CompletableFuture<>();
    boolean queued = execute(() -> {
      try {
        answer.complete(call.call());
      } catch (Exception e) {
        answer.completeExceptionally(e);
      }
    });
    return queued ? answer : null;
  }

  /** Waits up to {@code waitMs} for each of {@code calls}, then forgets them. */
  static void awaitAll(List<? extends Future<?>> calls, long waitMs) {
    for (Future<?> f : calls) {
      try {
        f.get(waitMs, TimeUnit.MILLISECONDS);
      } catch (ExecutionException | TimeoutException | CancellationException e) {
        // Only a counter is lost.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    calls.clear();
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
