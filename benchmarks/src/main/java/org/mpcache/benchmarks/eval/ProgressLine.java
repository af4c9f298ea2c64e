package org.mpcache.benchmarks.eval;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The harness's live progress display: one line, redrawn every second on a terminal (and
 * printed once per job otherwise), with jobs done of the total, the current run and job, and the
 * time elapsed. Keeps the notices for the summary.
 *
 * <p>Thread-safe: the harness thread reports, a daemon thread redraws.
 */
final class ProgressLine implements EvalHarness.Listener, AutoCloseable {
  private final PrintStream out;
  private final boolean terminal;
  private final int total;
  private final long start = System.nanoTime();
  private final ScheduledExecutorService ticker;
  private final List<String> notices = new ArrayList<>();
  private int done;
  private String current = "starting";
  private int lastLength;

  ProgressLine(PrintStream out, boolean terminal, int total) {
    this.out = out;
    this.terminal = terminal;
    this.total = total;
    if (terminal) {
      ticker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "progress");
        t.setDaemon(true);
        return t;
      });
      ticker.scheduleAtFixedRate(this::redraw, 1, 1, TimeUnit.SECONDS);
    } else {
      ticker = null;
    }
  }

  @Override
  public synchronized void runStarted(String run, int repetition, int jobs) {
    current = run + " (repetition " + repetition + "): starting the cluster, generating inputs, "
        + "warming up";
    show();
  }

  @Override
  public synchronized void jobStarted(String run, MixJob job) {
    current = run + ": job " + job.index() + " " + job.benchmark().name() + " k=" + job.k();
    show();
  }

  @Override
  public synchronized void jobFinished(JobResult result) {
    done++;
    current = result.run() + ": job " + result.index() + " " + result.benchmark()
        + (result.success() ? String.format(Locale.ROOT, " took %.1f s", result.seconds())
            : " FAILED");
    show();
  }

  @Override
  public synchronized void notice(String message) {
    notices.add(message);
    clear();
    out.println("notice: " + message);
    show();
  }

  synchronized List<String> notices() {
    return List.copyOf(notices);
  }

  private synchronized void redraw() {
    show();
  }

  private void show() {
    long s = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
    String line = String.format(Locale.ROOT, "[%d/%d jobs] %02d:%02d elapsed | %s", done, total,
        s / 60, s % 60, current);
    if (terminal) {
      out.print("\r" + line + " ".repeat(Math.max(0, lastLength - line.length())));
      lastLength = line.length();
      out.flush();
    } else {
      out.println(line);
    }
  }

  private void clear() {
    if (terminal && lastLength > 0) {
      out.print("\r" + " ".repeat(lastLength) + "\r");
      lastLength = 0;
    }
  }

  @Override
  public synchronized void close() {
    if (ticker != null) {
      ticker.shutdownNow();
    }
    clear();
  }
}
