package org.mpcache.trust;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.mpcache.trust.SoakFiles.SoakFile;
import org.mpcache.trust.SoakFiles.Version;

/**
 * One of the soak's reader threads: opens a random file of the working set, reads it with one
 * mix of sequential {@code read(byte[])}, positional {@code read}/{@code readFully} and
 * {@code ByteBuffer} reads at random offsets (block boundaries and the last partial block
 * favoured) and lengths, and checks every byte against what the file held when it was opened.
 *
 * <p>What a stream must give, as plain HDFS gives it: the bytes of the generation it opened
 * (a file renamed over the path after the open is not seen), at least up to the length that
 * generation had at the open, and, past that length, nothing or the bytes appended since. A
 * stream of a file replaced since its open may fail (HDFS deletes the old blocks, and HDFS's own
 * stream may trip its assertion on a block list that mixes the old file's blocks with the new
 * one's): that is counted as an HDFS-side error; any other exception is unexpected.
 *
 * <p>Confined to its thread.
 */
final class SoakReader implements Runnable {
  private final List<SoakFile> files;
  private final FileSystem fs;
  private final FileSystem plain;
  private final int block;
  private final SoakTally tally;
  private final BooleanSupplier stopped;
  private final Random rnd;
  private final byte[] buf;

  SoakReader(List<SoakFile> files, FileSystem fs, FileSystem plain, int block, SoakTally tally,
      BooleanSupplier stopped, long seed) {
    this.files = files;
    this.fs = fs;
    this.plain = plain;
    this.block = block;
    this.tally = tally;
    this.stopped = stopped;
    this.rnd = new Random(seed);
    this.buf = new byte[2 * block + 1];
  }

  @Override
  public void run() {
    while (!stopped.getAsBoolean()) {
      try {
        readOneFile(files.get(rnd.nextInt(files.size())));
      } catch (RuntimeException | Error e) {
        tally.unexpectedErrors.increment();
        tally.sample("escaped to the reader: " + e);
      }
    }
  }

  /** A stream and what is known of the generation it reads. */
  private final class Opened {
    final SoakFile file;
    final FSDataInputStream in;
    final long changesAtOpen;
    final Version before;
    final int low;
    final int high;
    /** The generation the stream reads, once known. */
    Integer generation;

    Opened(SoakFile file, FSDataInputStream in, long changesAtOpen, Version before,
        Version after, boolean stable) {
      this.file = file;
      this.in = in;
      this.changesAtOpen = changesAtOpen;
      this.before = before;
      this.low = before.generation();
      // A replacement under way during the open may have renamed the next generation over the
      // path before the writer published it.
      this.high = stable ? low : after.generation() + 1;
      if (stable) {
        generation = low;
      } else {
        tally.racedOpens.increment();
      }
    }

    /** Bytes the stream must be able to give: the length of its generation at the open. */
    long minLength() {
      if (generation == null) {
        return 0;
      }
      return generation == before.generation() ? before.length()
          : file.firstLength(generation);
    }

    boolean replacedSinceOpen() {
      return file.changes.get() != changesAtOpen;
    }

    /** Checks {@code b[pos, pos + n)} read at {@code offset}. */
    void verify(long offset, byte[] b, int pos, int n, String how) {
      int wrong;
      if (generation != null) {
        wrong = SoakFiles.mismatches(SoakFiles.seed(file.id, generation), offset, b, pos, n);
      } else {
        wrong = n;
        for (int g = low; g <= high && wrong > 0; g++) {
          int w = SoakFiles.mismatches(SoakFiles.seed(file.id, g), offset, b, pos, n);
          if (w == 0 && n >= 8) {
            generation = g;
          }
          wrong = Math.min(wrong, w);
        }
      }
      tally.reads.increment();
      tally.bytesVerified.add(n);
      if (wrong > 0) {
        tally.wrongBytes.add(wrong);
        tally.sample(how + " of " + file.path + " at " + offset + " for " + n + " bytes: "
            + wrong + " wrong (generations " + low + ".." + high + ", known " + generation
            + ", length at open " + before.length() + ")");
      }
    }

    void shortRead(long offset, int asked, int got, String how) {
      tally.shortReads.increment();
      tally.sample(how + " of " + file.path + " at " + offset + " asked " + asked + " got " + got
          + " before the length at open " + minLength() + " (generation " + generation + ")");
    }
  }

  private void readOneFile(SoakFile f) {
    long changes = f.changes.get();
    Version before = f.current();
    FSDataInputStream in;
    try {
      in = fs.open(f.path);
    } catch (IOException e) {
      tally.unexpectedErrors.increment();
      tally.sample("open of " + f.path + ": " + e);
      return;
    }
    tally.opens.increment();
    Opened o = new Opened(f, in, changes, before, f.current(),
        f.changes.get() == changes && (changes & 1) == 0);
    List<Long> starts = blockStarts(f.path);
    int mode = rnd.nextInt(3);
    int ops = 1 + rnd.nextInt(12);
    try (in) {
      for (int i = 0; i < ops && !stopped.getAsBoolean(); i++) {
        switch (mode) {
          case 0 -> sequential(o, starts);
          case 1 -> positional(o, starts);
          default -> byteBuffer(o, starts);
        }
      }
    } catch (AssertionError e) {
      // HDFS's own stream fetches the locations of blocks it has not cached yet by path, so after
      // a rename over the path it can mix in the new file's blocks, and its assertion (tests run
      // with assertions on) catches the mix: an HDFS-side error of a replaced file, as on plain HDFS.
      if (!o.replacedSinceOpen() || !thrownByHdfsClient(e)) {
        throw e;
      }
      tally.hdfsSideErrors.increment();
    } catch (IOException e) {
      if (o.replacedSinceOpen()) {
        tally.hdfsSideErrors.increment();
      } else if (e instanceof EOFException) {
        o.shortRead(-1, -1, -1, "readFully (" + e.getMessage() + ")");
      } else {
        tally.unexpectedErrors.increment();
        tally.sample("read of " + f.path + " (generation " + o.generation + "): " + e);
      }
    }
  }

  private static boolean thrownByHdfsClient(Throwable e) {
    StackTraceElement[] trace = e.getStackTrace();
    return trace.length > 0 && trace[0].getClassName().startsWith("org.apache.hadoop.hdfs.");
  }

  /** Where each block of the file at {@code p} starts, from the NameNode; empty if unknown. */
  private List<Long> blockStarts(Path p) {
    List<Long> out = new ArrayList<>();
    try {
      for (BlockLocation l : plain.getFileBlockLocations(p, 0, Long.MAX_VALUE)) {
        out.add(l.getOffset());
      }
    } catch (IOException e) {
      // Only steers the offsets towards block boundaries.
    }
    return out;
  }

  /** A length to read: a few bytes, up to a chunk, or up to two blocks. */
  private int length() {
    return switch (rnd.nextInt(10)) {
      case 0, 1, 2 -> 1 + rnd.nextInt(64);
      case 3, 4, 5, 6 -> 1 + rnd.nextInt(64 * 1024);
      default -> 1 + rnd.nextInt(2 * block);
    };
  }

  /** An offset to read at: block boundaries, the last partial block and the end favoured. */
  private long offset(Opened o, List<Long> starts) {
    long len = Math.max(o.minLength(), o.before.length());
    long last = starts.isEmpty() ? len / block * block : starts.get(starts.size() - 1);
    return switch (rnd.nextInt(10)) {
      case 0, 1 -> len == 0 ? 0 : (long) (rnd.nextDouble() * len);
      case 2, 3, 4 -> starts.isEmpty() ? 0
          : Math.max(0, starts.get(rnd.nextInt(starts.size())) + rnd.nextInt(129) - 64);
      case 5, 6 -> last + (len > last ? (long) (rnd.nextDouble() * (len - last)) : 0);
      case 7 -> Math.max(0, len - rnd.nextInt(100));
      case 8 -> len + rnd.nextInt(block);
      default -> 0;
    };
  }

  private void sequential(Opened o, List<Long> starts) throws IOException {
    if (rnd.nextInt(4) == 0) {
      o.in.seek(Math.min(offset(o, starts), Math.max(0, o.minLength() - 1)));
    }
    for (int k = 1 + rnd.nextInt(8); k > 0; k--) {
      long pos = o.in.getPos();
      int len = length();
      int n = o.in.read(buf, 0, len);
      tally.sequentialReads.increment();
      if (n <= 0) {
        if (pos < o.minLength()) {
          o.shortRead(pos, len, n, "read(byte[])");
        }
        o.in.seek(0);
        return;
      }
      o.verify(pos, buf, 0, n, "read(byte[])");
    }
  }

  private void positional(Opened o, List<Long> starts) throws IOException {
    long off = offset(o, starts);
    int len = length();
    tally.positionalReads.increment();
    if (rnd.nextBoolean() && off + len <= o.minLength()) {
      o.in.readFully(off, buf, 0, len);
      o.verify(off, buf, 0, len, "readFully");
      return;
    }
    int n = o.in.read(off, buf, 0, len);
    if (n <= 0) {
      if (off < o.minLength()) {
        o.shortRead(off, len, n, "pread");
      }
      return;
    }
    o.verify(off, buf, 0, n, "pread");
  }

  private void byteBuffer(Opened o, List<Long> starts) throws IOException {
    int len = length();
    ByteBuffer bb = rnd.nextBoolean() ? ByteBuffer.allocate(len) : ByteBuffer.allocateDirect(len);
    tally.byteBufferReads.increment();
    long off;
    int n;
    String how;
    if (rnd.nextBoolean()) {
      if (rnd.nextInt(3) == 0) {
        o.in.seek(Math.min(offset(o, starts), Math.max(0, o.minLength() - 1)));
      }
      off = o.in.getPos();
      n = o.in.read(bb);
      how = "read(ByteBuffer)";
      if (n <= 0) {
        o.in.seek(0);
      }
    } else {
      off = offset(o, starts);
      n = o.in.read(off, bb);
      how = "read(long, ByteBuffer)";
    }
    if (n <= 0) {
      if (off < o.minLength()) {
        o.shortRead(off, len, n, how);
      }
      return;
    }
    bb.flip();
    bb.get(buf, 0, n);
    o.verify(off, buf, 0, n, how);
  }
}
