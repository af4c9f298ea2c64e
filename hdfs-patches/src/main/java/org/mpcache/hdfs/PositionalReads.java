package org.mpcache.hdfs;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
 * miss or a fault. At most {@link ClientConfigKeys#POSITIONAL_MAX_HELD_BLOCKS_KEY} blocks keep
 * their readers: past that, the block read least recently lets its reader go (once the reads
 * under way through it end) and keeps its lookup's answer, so that its next read opens a reader
 * again without a lookup (the slave counts one hit per block a stream reads; a block evicted
 * since fails that reader's first read, which sends the block to HDFS). What they read from
 * HDFS is reported to the slaves at close.
 *
 * <p>Thread-safe: positional reads run beside each other and the sequential reader, taking no
 * stream-wide lock; a block's lookup is made under that block's monitor. A block's monitor and
 * {@code holding}'s are never held together.
 */
final class PositionalReads {
  /** A block's cache reader, and the reads under way through it. */
  private static final class Held {
    final BlockReader reader;
    /** Reads under way through the reader; guarded by its block's monitor. */
    int reading;
    /** The block let the reader go: the last read under way releases it. */
    boolean dropped;

    Held(BlockReader reader) {
      this.reader = reader;
    }
  }

  /** One block as positional reads see it. */
  private static final class Block {
    /** Null until looked up, and again once let go. */
    @GuardedBy("this")
    Held held;
    /** Where the block's lookup found it, and the answer; null before a hit. */
    @GuardedBy("this")
    BlockTarget hitAt;
    @GuardedBy("this")
    LookupResponseProto hit;
    /** No slave has the block, or the cache faulted: its positional reads go to HDFS. */
    volatile boolean miss;
    final LongAdder bytesFromHdfs = new LongAdder();
  }

  private final FileBlocks blocks;
  private final ClientContext ctx;
  private final BlockReaderFactory factory;
  private final DFSInputStream hdfs;
  private final Map<Integer, Block> byIndex = new ConcurrentHashMap<>();
  /** The blocks that keep a reader, the one read least recently first. */
  @GuardedBy("holding")
  private final LinkedHashSet<Block> holding = new LinkedHashSet<>();

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
      Held h = acquire(index, p);
      int n = -1;
      if (h != null) {
        try {
          n = h.reader.read(blockOff, b, off, want);
        } finally {
          done(p, h);
        }
      }
      if (n > 0) {
        ctx.readFromCache(n);
        return n;
      }
      p.miss = true;
      if (h != null) {
        synchronized (holding) {
          holding.remove(p);
        }
        drop(p);
      }
    }
    int n = hdfs.read(position, b, off, len);
    if (n > 0 && p != null) {
      p.bytesFromHdfs.add(n);
      ClientCounters.get().readFromHdfs(n);
    }
    return n;
  }

  /**
   * Block {@code index}'s cache reader, counted as read through until {@link #done}; null when
   * no slave has the block or the lookup failed. The block becomes the one read last, and the
   * blocks past the bound let their readers go.
   */
  private Held acquire(int index, Block p) {
    Held h;
    synchronized (p) {
      if (p.held == null && !p.miss) {
        BlockReader r = reader(index, p);
        p.held = r == null ? null : new Held(r);
      }
      h = p.held;
      if (h == null) {
        return null;
      }
      h.reading++;
    }
    List<Block> over = new ArrayList<>();
    synchronized (holding) {
      holding.remove(p);
      holding.add(p);
      Iterator<Block> oldest = holding.iterator();
      while (holding.size() > ctx.conf().positionalMaxHeldBlocks) {
        over.add(oldest.next());
        oldest.remove();
      }
    }
    for (Block q : over) {
      drop(q);
    }
    return h;
  }

  /** A read through {@code h} ended; the last one releases a reader its block let go. */
  private static void done(Block p, Held h) {
    boolean release;
    synchronized (p) {
      h.reading--;
      release = h.dropped && h.reading == 0;
    }
    if (release) {
      h.reader.release();
    }
  }

  /**
   * Block {@code p} lets its reader go: released now, or by the last read under way through it
   * (whose release is then not waited for); null when none is released now.
   */
  private static Future<?> drop(Block p) {
    Held h;
    synchronized (p) {
      h = p.held;
      p.held = null;
      if (h == null) {
        return null;
      }
      h.dropped = true;
      if (h.reading > 0) {
        return null;
      }
    }
    return h.reader.release();
  }

  /** A new cache reader of block {@code index}; null when no slave has it or the lookup failed. */
  @GuardedBy("p")
  private BlockReader reader(int index, Block p) {
    Optional<SlaveDirectory.Slave> slave = ctx.directory().choose(blocks.get(index));
    if (slave.isEmpty()) {
      p.miss = true;
      return null;
    }
    // The directory makes a new record per choice: the same slave is the same id.
    boolean known = p.hit != null && p.hitAt.slave().id().equals(slave.get().id());
    BlockTarget t = known ? p.hitAt : blocks.target(index, slave.get());
    Deadline d = factory.deadline(t, false);
    BlockReader raw = factory.direct(t, d, false);
    if (raw == null && known) {
      raw = factory.looked(t, p.hit, d, false, false);
    } else if (raw == null) {
      LookupResponseProto answer;
      try {
        answer = d.call(() -> t.lookup(blocks.lookupRequest(index)));
      } catch (IOException e) {
        FailOpenBlockReader.fallBack(ctx.directory(), t, e);
        p.miss = true;
        return null;
      }
      raw = factory.looked(t, answer, d, false, false);
      if (raw == null) {
        ClientCounters.get().miss();
      } else {
        p.hitAt = t;
        p.hit = answer;
      }
    }
    if (raw == null) {
      p.miss = true;
      return null;
    }
    return factory.hit(t, raw, d, false);
  }


  /**
   * Lets every block's reader go; later positional reads look their blocks up again. Blocks
   * found missed stay with HDFS. Idempotent.
   *
   * @return the releases made now, done once the slaves have settled them
   */
  List<Future<?>> releaseAll() {
    synchronized (holding) {
      holding.clear();
    }
    List<Future<?>> released = new ArrayList<>();
    for (Block p : byIndex.values()) {
      Future<?> f = drop(p);
      if (f != null) {
        released.add(f);
      }
    }
    return released;
  }

  /** How many blocks keep a cache reader now. */
  int held() {
    int n = 0;
    for (Block p : byIndex.values()) {
      synchronized (p) {
        n += p.held != null ? 1 : 0;
      }
    }
    return n;
  }

  /**
   * Tells each block's slave what positional reads read of it from HDFS, and forgets it all. A
   * slave that does not answer one report (in time) is marked faulty and sent no more, so the
   * reports cost at most one deadline per slave, however many blocks were read.
   */
  void reportAndForget() {
    Set<String> silent = new HashSet<>();
    byIndex.forEach((index, p) -> {
      long bytes = p.bytesFromHdfs.sum();
      if (bytes > 0) {
        ctx.directory().choose(blocks.get(index))
            .filter(s -> !silent.contains(s.id()))
            .ifPresent(s -> {
              if (!FileBlocks.send(ctx.directory(), s,
                  FileBlocks.readReport(blocks.target(index, s), bytes, null))) {
                silent.add(s.id());
              }
            });
      }
    });
    byIndex.clear();
  }
}
