package org.mpcache.hdfs;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Whether a FileSystem's local hits take descriptors yet. Setting descriptor passing up costs a
 * JVM about a quarter of a second of CPU and 680 classes (Netty's native transport and its event
 * loop), more than the descriptor saves on a single map's split, which the slave's block stream
 * reads as cheaply ({@code ClientStartupFigures} in the benchmarks module measures both). So
 * local hits go through the stream until the FileSystem has read
 * {@code mpcache.client.domain.socket.after.bytes} from the cache (through any transport); where
 * streams are off, hits would go through RPC, which costs more per byte than any set-up, and the
 * gate is open from the start ({@link ClientConf#descriptorsAfterBytes} is then 0). Once open, it
 * stays open.
 *
 * <p>Thread-safe.
 */
final class DescriptorGate {
  private final long afterBytes;
  private final AtomicLong read = new AtomicLong();
  private volatile boolean open;

  /** @param afterBytes bytes read from the cache before descriptors; 0 opens the gate now */
  DescriptorGate(long afterBytes) {
    this.afterBytes = afterBytes;
    this.open = afterBytes == 0;
  }

  /** Whether local hits take descriptors now. */
  boolean open() {
    if (!open && read.get() >= afterBytes) {
      open = true;
    }
    return open;
  }

  /** Counts {@code n} bytes read from the cache. */
  void read(long n) {
    if (!open) {
      read.addAndGet(n);
    }
  }
}
