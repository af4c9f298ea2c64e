package org.mpcache.slave.store;

import java.io.EOFException;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.LongSupplier;
import org.mpcache.common.BlockKey;
import org.mpcache.slave.volume.VolumeHealth.Fault;

/**
 * The seam between the store and its {@link BlockStorage} where an SSD directory's faults are
 * seen: every read (of a block for RPC, of its checksums for a lease, the open of a file lent to
 * the block stream or handed out as a descriptor), every fill's write, sync and rename, and the
 * start-up and return of a directory pass through it and on to the storage it decorates (the
 * store's best-effort deletes of files it has let go of do not). An {@link IOException} that says
 * the directory's device failed is reported as a fault of the directory, and every read's time is
 * reported, before the call returns or throws as the storage's did; the store decides what the
 * faults mean ({@link org.mpcache.slave.volume.VolumeHealth}).
 *
 * <p>Not faults of the directory: an absent file or one already there (a block removed or
 * claimed meanwhile), a file shorter than expected (the block is corrupt, the store drops it),
 * a full file system ({@code ENOSPC}: something else filled it, see
 * {@link FileBlockStore#beginFill}), a lack of descriptors ({@code EMFILE}, the process's limit)
 * and an interrupted call.
 *
 * <p>Thread-safe when the storage and the listener are.
 */
final class VolumeCheckedStorage implements BlockStorage {

  /** Hears of a directory's faults and read times. */
  interface Listener {
    /** An operation on {@code dir} failed because of its device. */
    void fault(Path dir, Fault fault, String detail);

    /** A read of {@code dir} took {@code elapsedMs}. */
    void readTook(Path dir, long elapsedMs, String detail);
  }

  private final BlockStorage delegate;
  private final Listener listener;
  private final LongSupplier ticker;

  /** @param ticker a monotonic clock in milliseconds, for the reads' times */
  VolumeCheckedStorage(BlockStorage delegate, Listener listener, LongSupplier ticker) {
    this.delegate = delegate;
    this.listener = listener;
    this.ticker = ticker;
  }

  /**
   * Whether {@code e} says the device failed, rather than the block, the caller or the file
   * system's room (see the class comment).
   */
  static boolean isDeviceFault(IOException e) {
    if (e instanceof NoSuchFileException || e instanceof FileAlreadyExistsException
        || e instanceof EOFException || e instanceof InterruptedIOException
        || e instanceof ClosedChannelException || e instanceof CorruptBlockException
        || e instanceof BlockNotCachedException) {
      return false;
    }
    String m = e instanceof FileSystemException fs ? fs.getReason() : e.getMessage();
    return m == null || !(m.contains("No space left on device")
        || m.contains("Too many open files") || m.contains("Disk quota exceeded"));
  }

  /** One call of the storage. */
  private interface Call<T> {
    T run() throws IOException;
  }

  /** Runs {@code call}; a device fault it throws is reported against {@code dir}. */
  private <T> T checked(Path dir, Fault fault, String what, Call<T> call) throws IOException {
    try {
      return call.run();
    } catch (IOException e) {
      if (isDeviceFault(e)) {
        listener.fault(dir, fault, what + ": " + e);
      }
      throw e;
    }
  }

  /**
   * As {@link #checked} for a read, and reports the time of a call that succeeded: a failed one
   * counts once, as its error.
   */
  private <T> T timed(BlockFile file, String what, Call<T> call) throws IOException {
    long start = ticker.getAsLong();
    T result = checked(file.dir(), Fault.READ_ERROR, what + " of " + file, call);
    listener.readTook(file.dir(), ticker.getAsLong() - start, what + " of " + file);
    return result;
  }

  @Override
  public void prepare(Path dir) throws IOException {
    checked(dir, Fault.WRITE_ERROR, "preparing " + dir, () -> {
      delegate.prepare(dir);
      return null;
    });
  }

  @Override
  public List<BlockKey> list(Path dir) throws IOException {
    return checked(dir, Fault.READ_ERROR, "listing " + dir, () -> delegate.list(dir));
  }

  @Override
  public long usableBytes(Path dir) throws IOException {
    return checked(dir, Fault.WRITE_ERROR, "free space of " + dir,
        () -> delegate.usableBytes(dir));
  }

  @Override
  public long size(BlockFile file) throws IOException {
    return checked(file.dir(), Fault.READ_ERROR, "size of " + file, () -> delegate.size(file));
  }

  @Override
  public int read(BlockFile file, long position, ByteBuffer dst) throws IOException {
    return timed(file, "read", () -> delegate.read(file, position, dst));
  }

  @Override
  public FileInputStream open(BlockFile file) throws IOException {
    return timed(file, "open", () -> delegate.open(file));
  }

  @Override
  public void write(BlockFile file, long position, ByteBuffer src, boolean create)
      throws IOException {
    checked(file.dir(), Fault.WRITE_ERROR, "write of " + file, () -> {
      delegate.write(file, position, src, create);
      return null;
    });
  }

  @Override
  public void sync(BlockFile file) throws IOException {
    checked(file.dir(), Fault.WRITE_ERROR, "sync of " + file, () -> {
      delegate.sync(file);
      return null;
    });
  }

  @Override
  public void move(BlockFile from, BlockFile to) throws IOException {
    checked(from.dir(), Fault.WRITE_ERROR, "rename of " + from, () -> {
      delegate.move(from, to);
      return null;
    });
  }

  @Override
  public boolean delete(BlockFile file) throws IOException {
    return checked(file.dir(), Fault.WRITE_ERROR, "delete of " + file,
        () -> delegate.delete(file));
  }
}
