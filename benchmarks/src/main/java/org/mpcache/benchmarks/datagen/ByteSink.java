package org.mpcache.benchmarks.datagen;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;

/**
 * A buffered writer of raw bytes and ASCII decimals that counts what it has written. Generators
 * format records straight into its buffer, avoiding per-record strings, which is what lets them
 * produce about a hundred megabytes in a few seconds.
 *
 * <p>Not thread-safe. Closing it closes the underlying stream.
 */
public final class ByteSink implements Closeable {
  private static final int BUFFER_BYTES = 1 << 16;

  private final OutputStream out;
  private final byte[] buffer = new byte[BUFFER_BYTES];
  private final byte[] digits = new byte[20];
  private int used;
  private long written;

  /** Wraps {@code out}; the sink owns it from now on. */
  public ByteSink(OutputStream out) {
    this.out = out;
  }

  /** Bytes accepted so far, flushed or not. */
  public long written() {
    return written;
  }

  /** Appends one byte. */
  public void put(int b) throws IOException {
    if (used == buffer.length) {
      drain();
    }
    buffer[used++] = (byte) b;
    written++;
  }

  /** Appends all of {@code bytes}. */
  public void put(byte[] bytes) throws IOException {
    put(bytes, 0, bytes.length);
  }

  /** Appends {@code length} bytes of {@code bytes} from {@code offset}. */
  public void put(byte[] bytes, int offset, int length) throws IOException {
    if (length > buffer.length - used) {
      drain();
      if (length > buffer.length) {
        out.write(bytes, offset, length);
        written += length;
        return;
      }
    }
    System.arraycopy(bytes, offset, buffer, used, length);
    used += length;
    written += length;
  }

  /** Appends the ASCII decimal form of a non-negative {@code value}. */
  public void putDecimal(long value) throws IOException {
    if (value < 0) {
      throw new IllegalArgumentException("value must not be negative: " + value);
    }
    int pos = digits.length;
    long rest = value;
    do {
      digits[--pos] = (byte) ('0' + rest % 10);
      rest /= 10;
    } while (rest != 0);
    put(digits, pos, digits.length - pos);
  }

  private void drain() throws IOException {
    out.write(buffer, 0, used);
    used = 0;
  }

  @Override
  public void close() throws IOException {
    try {
      drain();
    } finally {
      out.close();
    }
  }
}
