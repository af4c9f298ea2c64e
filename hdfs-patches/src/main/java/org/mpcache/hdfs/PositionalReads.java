package org.mpcache.hdfs;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;
import javax.annotation.concurrent.GuardedBy;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.mpcache.common.proto.ClientSlaveProtos.LookupResponseProto;

/**
 * The positional reads of one stream: each block's first one looks it up (which has a missed
 * block filled by the slave) and keeps the reader {@link BlockReaderFactory} builds for it,
 * with a deadline per call; the block's later positional reads use that reader, or HDFS after a
 * miss or a fault. What they read from HDFS is reported to the slaves at close.
 *
 * <p>Thread-safe: positional reads run beside each other and the sequential reader, taking no
 * stream-wide lock; a block's lookup is made under that block's monitor.
 */
final class PositionalReads {
  /** One block as positional reads see it. */
  private static final class Block {
    /** Null until looked up, and again after {@link #release}. */
    @GuardedBy("this")
    BlockReader reader;
    /** No slave has the block, or the cache faulted: its positional reads go to HDFS. */
    volatile boolean miss;
    final LongAdder bytesFromHdfs = new LongAdder();
  }

  private final FileBlocks blocks;
  private final ClientContext ctx;
  private final BlockReaderFactory factory;
  private final DFSInputStream hdfs;
  private final Map<Integer, Block> byIndex = new ConcurrentHashMap<>();

  PositionalReads(FileBlocks blocks, ClientContext ctx, BlockReaderFactory factory,
      DFSInputStream hdfs) {
    this.blocks = blocks;
    this.ctx = ctx;
    this.factory = factory;
    this.hdfs = hdfs;
  }

  /** Reads at file offset {@code position}, inside the file, as a positional read does. */
  int read(long position, byte[] b, int off, int len) throws IOException {
    int index = blocks.indexOf(position);
    Block p = blocks.cacheable(index) ? byIndex.computeIfAbsent(index, i -> new Block()) : null;
    if (p != null && !p.miss) {
      long blockOff = position - blocks.get(index).getStartOffset();
      int want = (int) Math.min(Math.min(len, ctx.conf().readBytes),
          blocks.get(index).getBlockSize() - blockOff);
      BlockReader r = reader(index, p);
      int n = r == null ? -1 : r.read(blockOff, b, off, want);
      if (n > 0) {
        ctx.readFromCache(n);
        return n;
      }
      p.miss = true;
      if (r != null) {
        r.release();
      }
    }
    int n = hdfs.read(position, b, off, len);
    if (n > 0 && p != null) {
      p.bytesFromHdfs.add(n);
      ClientCounters.get().readFromHdfs(n);
    }
    return n;
  }

  /** Block {@code index}'s cache reader; null when no slave has it or the lookup failed. */
  private BlockReader reader(int index, Block p) {
    synchronized (p) {
      if (p.reader != null || p.miss) {
        return p.reader;
      }
      Optional<SlaveDirectory.Slave> slave = ctx.directory().choose(blocks.get(index));
      if (slave.isEmpty()) {
        p.miss = true;
        return null;
      }
      BlockTarget t = blocks.target(index, slave.get());
      Deadline d = factory.deadline(t, false);
      BlockReader raw = factory.direct(t, d, false);
      if (raw == null) {
        try {
          LookupResponseProto found = d.call(() -> t.lookup(blocks.lookupRequest(index, false)));
          if (!t.hitBy(found)) {
            ClientCounters.get().miss();
            p.miss = true;
            return null;
          }
          raw = factory.afterHit(t, found, d, false, false);
        } catch (IOException e) {
          FailOpenBlockReader.fallBack(ctx.directory(), t, e);
          p.miss = true;
          return null;
        }
      }
      ClientCounters.get().hit(raw.transport());
      p.reader = new FailOpenBlockReader(factory.failingOver(t, raw, d, false), t,
          ctx.directory());
      return p.reader;
    }
  }

  /**
   * Releases the readers, adding the releases to {@code releases}; later positional reads look
   * their blocks up again. Blocks found missed stay with HDFS.
   */
  void release(List<Future<?>> releases) {
    for (Block p : byIndex.values()) {
      synchronized (p) {
        if (p.reader != null) {
          releases.add(p.reader.release());
          p.reader = null;
        }
      }
    }
  }

  /** Tells each block's slave what positional reads read of it from HDFS, and forgets it all. */
  void reportAndForget() {
    byIndex.forEach((index, p) -> {
      long bytes = p.bytesFromHdfs.sum();
      if (bytes > 0) {
        ctx.directory().choose(blocks.get(index)).ifPresent(s ->
            FileBlocks.send(s, FileBlocks.readReport(blocks.target(index, s), bytes, null)));
      }
    });
    byIndex.clear();
  }
}
