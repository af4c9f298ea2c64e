package org.mpcache.hdfs;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Whether a FileSystem's local hits take descriptors yet. Setting descriptor passing up costs a
 * JVM about a third of a second of CPU and 700 classes (Netty's native transport and its event
 * loop), more than the descriptor saves on a single map's split read through the slave's block
 * stream instead ({@code ClientStartupFigures} in the benchmarks module measures both). So local
 * hits go through the stream until the FileSystem has read
 * {@code mpcache.client.domain.socket.after.bytes} from the cache, or at once when another
 * FileSystem of this JVM has set descriptors up already, or when streams are off (hits would go
 * through RPC, which costs more per byte than any set-up). Once open, the gate stays open.
 *
 * <p>Thread-safe.
 */
final class DescriptorGate {
  /** Whether some FileSystem of this JVM has had a descriptor: the set-up is paid. */
  static final AtomicBoolean JVM_SET_UP = new AtomicBoolean();

  private final long afterBytes;
  private final AtomicBoolean setUp;
  private final AtomicLong read = new AtomicLong();
  private volatile boolean open;

  /**
   * @param afterBytes bytes read from the cache before descriptors; 0 opens the gate now
   * @param setUp whether descriptors were had in this JVM ({@link #JVM_SET_UP}), set by
   *     {@link #descriptorHad}
   */
  DescriptorGate(long afterBytes, AtomicBoolean setUp) {
    this.afterBytes = afterBytes;
    this.setUp = setUp;
    this.open = afterBytes == 0;
  }

  /** Whether local hits take descriptors now. */
  boolean open() {
    if (!open && (setUp.get() || read.get() >= afterBytes)) {
      open = true;
    }
    return open;
  }

  /** Counts {@code n} bytes read from the cache, through any transport. */
  void read(long n) {
    if (!open) {
      read.addAndGet(n);
    }
  }

  /**
   * Says that a descriptor was had: this gate and every other sharing its set-up flag open at
   * their next look.
   */
  void descriptorHad() {
    open = true;
    setUp.set(true);
  }
}
