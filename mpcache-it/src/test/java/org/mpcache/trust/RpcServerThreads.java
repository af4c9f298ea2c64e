package org.mpcache.trust;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The threads of in-process Hadoop RPC servers (listener, socket readers, handlers, responder),
 * found by the port their names end with, and frozen with {@link Thread#suspend} as a SIGSTOP
 * freezes a process: the daemons of an embedded cluster share the test's JVM, so a real SIGSTOP
 * cannot stop one of them alone. Callers resume what they froze before the cluster stops. Thread-safe:
 * a timer may resume what a test thread froze.
 */
final class RpcServerThreads implements AutoCloseable {
  private final List<Thread> frozen = new ArrayList<>();

  /** The RPC server threads serving {@code ports}. */
  static List<Thread> of(Collection<Integer> ports) {
    List<Thread> out = new ArrayList<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      String name = t.getName();
      if (name.startsWith("IPC Server") || name.startsWith("Socket Reader")) {
        for (int port : ports) {
          if (name.endsWith(" " + port)) {
            out.add(t);
          }
        }
      }
    }
    return out;
  }

  /** Suspends {@code threads}; returns how many. */
  @SuppressWarnings("removal")
  synchronized int freeze(List<Thread> threads) {
    for (Thread t : threads) {
      frozen.add(t);
      t.suspend();
    }
    return threads.size();
  }

  /** Resumes every thread frozen so far. */
  @SuppressWarnings("removal")
  synchronized void resumeAll() {
    for (Thread t : frozen) {
      t.resume();
    }
    frozen.clear();
  }

  @Override
  public void close() {
    resumeAll();
  }
}
