package org.mpcache.slave.store;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.mpcache.common.BlockKey;

/**
 * A {@link BlockStorage} decorator that injects the faults of a real SSD, operation by operation
 * and optionally for one block only: the errors the JDK reports for {@code ENOSPC} ("No space left
 * on device"), {@code EIO} ("Input/output error") and {@code EMFILE} ("Too many open files", as a
 * {@link FileSystemException} naming the file, as on open), and latency. A write failing with
 * {@code ENOSPC} first writes half of its bytes, as a disk filling up does. A test switches each
 * injection on with {@link #fail} or {@link #delay} and off by closing it (or all with
 * {@link #clear}), at any time while the storage is in use; a delay comes before the operation and
 * before any error injected with it.
 *
 * <p>Thread-safe: injections are kept in a copy-on-write list.
 */
public final class FaultInjectingBlockStorage implements BlockStorage {

  /** The storage's operations, one per method. */
  public enum Op {
    PREPARE, LIST, USABLE, SIZE, READ, OPEN, WRITE, SYNC, MOVE, DELETE
  }

  /** An error a file system gives, with the JDK's message for it. */
  public enum Errno {
    ENOSPC("No space left on device"),
    EIO("Input/output error"),
    EMFILE("Too many open files");

    private final String message;

    Errno(String message) {
      this.message = message;
    }

    /** The JDK's message for this error. */
    public String message() {
      return message;
    }

    IOException exception(Object file) {
      return this == EMFILE ? new FileSystemException(String.valueOf(file), null, message)
          : new IOException(message);
    }
  }

  /** One injected fault, in effect until closed. */
  public final class Injection implements AutoCloseable {
    private final Op op;
    private final BlockKey key;
    private final Errno errno;
    private final long delayMs;
    private final AtomicLong hits = new AtomicLong();

    private Injection(Op op, BlockKey key, Errno errno, long delayMs) {
      this.op = op;
      this.key = key;
      this.errno = errno;
      this.delayMs = delayMs;
    }

    boolean matches(Op o, BlockKey k) {
      return op == o && (key == null || key.equals(k));
    }

    /** Operations this injection has failed or delayed so far. */
    public long hits() {
      return hits.get();
    }

    /** Switches the injection off. */
    @Override
    public void close() {
      injections.remove(this);
    }

    @Override
    public String toString() {
      return (errno != null ? errno.name() : delayMs + " ms") + " on " + op
          + (key != null ? " of " + key : "");
    }
  }

  private final BlockStorage delegate;
  private final List<Injection> injections = new CopyOnWriteArrayList<>();
  /** What {@link #usableBytes} answers at most, as when something else fills the SSD. */
  private volatile long usableAtMost = Long.MAX_VALUE;

  public FaultInjectingBlockStorage(BlockStorage delegate) {
    this.delegate = delegate;
  }

  /** Fails every {@code op} with {@code errno} until the injection is closed. */
  public Injection fail(Op op, Errno errno) {
    return add(new Injection(op, null, errno, 0));
  }

  /** Fails every {@code op} on a file of block {@code key} with {@code errno}. */
  public Injection fail(Op op, Errno errno, BlockKey key) {
    return add(new Injection(op, key, errno, 0));
  }

  /** Delays every {@code op} by {@code millis} until the injection is closed. */
  public Injection delay(Op op, long millis) {
    return add(new Injection(op, null, null, millis));
  }

  /** Delays every {@code op} on a file of block {@code key} by {@code millis}. */
  public Injection delay(Op op, long millis, BlockKey key) {
    return add(new Injection(op, key, null, millis));
  }

  private Injection add(Injection i) {
    injections.add(i);
    return i;
  }

  /**
   * Has {@link #usableBytes} answer {@code bytes} at most, as a file system that something other
   * than the cache filled; {@link Long#MAX_VALUE} (or {@link #clear}) switches it off.
   */
  public void usableAtMost(long bytes) {
    usableAtMost = bytes;
  }

  /** Switches every injection off. */
  public void clear() {
    injections.clear();
    usableAtMost = Long.MAX_VALUE;
  }

  /** Sleeps the delays injected for the operation; returns the error injected for it, if any. */
  private Errno injected(Op op, BlockKey key) throws IOException {
    Errno error = null;
    for (Injection i : injections) {
      if (!i.matches(op, key)) {
        continue;
      }
      i.hits.incrementAndGet();
      if (i.delayMs > 0) {
        try {
          Thread.sleep(i.delayMs);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted in an injected delay of " + op);
        }
      }
      if (error == null) {
        error = i.errno;
      }
    }
    return error;
  }

  private void before(Op op, BlockKey key, Object file) throws IOException {
    Errno e = injected(op, key);
    if (e != null) {
      throw e.exception(file);
    }
  }

  @Override
  public void prepare(Path dir) throws IOException {
    before(Op.PREPARE, null, dir);
    delegate.prepare(dir);
  }

  @Override
  public List<BlockKey> list(Path dir) throws IOException {
    before(Op.LIST, null, dir);
    return delegate.list(dir);
  }

  @Override
  public long usableBytes(Path dir) throws IOException {
    before(Op.USABLE, null, dir);
    return Math.min(usableAtMost, delegate.usableBytes(dir));
  }

  @Override
  public long size(BlockFile file) throws IOException {
    before(Op.SIZE, file.key(), file);
    return delegate.size(file);
  }

  @Override
  public int read(BlockFile file, long position, ByteBuffer dst) throws IOException {
    before(Op.READ, file.key(), file);
    return delegate.read(file, position, dst);
  }

  @Override
  public FileInputStream open(BlockFile file) throws IOException {
    before(Op.OPEN, file.key(), file);
    return delegate.open(file);
  }

  @Override
  public void write(BlockFile file, long position, ByteBuffer src, boolean create)
      throws IOException {
    Errno e = injected(Op.WRITE, file.key());
    if (e == Errno.ENOSPC && src.remaining() > 1) {
      ByteBuffer half = src.duplicate();
      half.limit(half.position() + half.remaining() / 2);
      delegate.write(file, position, half, create);
    }
    if (e != null) {
      throw e.exception(file);
    }
    delegate.write(file, position, src, create);
  }

  @Override
  public void sync(BlockFile file) throws IOException {
    before(Op.SYNC, file.key(), file);
    delegate.sync(file);
  }

  @Override
  public void move(BlockFile from, BlockFile to) throws IOException {
    before(Op.MOVE, from.key(), from);
    delegate.move(from, to);
  }

  @Override
  public boolean delete(BlockFile file) throws IOException {
    before(Op.DELETE, file.key(), file);
    return delegate.delete(file);
  }
}
