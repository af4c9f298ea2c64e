package org.mpcache.slave.store;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The checksum sidecar of a cached block file: a header (magic, version, chunk size, block length)
 * then one CRC32C per chunk of the block, computed from the bytes as they were written. The slave
 * never recomputes them on the read path; the client verifies each chunk it receives, so a block
 * corrupted on the SSD is detected before any of its bytes reach a task.
 *
 * <p>Stateless and thread-safe.
 */
final class ChecksumFile {
  private static final int MAGIC = 0x4d504343; // "MPCC"
  private static final int VERSION = 1;
  static final int HEADER_BYTES = 4 + 4 + 4 + 8;

  /** The fixed part of a sidecar. */
  static final class Header {
    final int chunkSize;
    final long blockLength;

    Header(int chunkSize, long blockLength) {
      this.chunkSize = chunkSize;
      this.blockLength = blockLength;
    }

    int chunks() {
      return (int) ((blockLength + chunkSize - 1) / chunkSize);
    }
  }

  private ChecksumFile() {
  }

  /** The whole sidecar of a block of {@code blockLength} bytes whose chunks have {@code crcs}. */
  static ByteBuffer encode(int chunkSize, long blockLength, int[] crcs) {
    ByteBuffer b = ByteBuffer.allocate(HEADER_BYTES + 4 * crcs.length);
    b.putInt(MAGIC).putInt(VERSION).putInt(chunkSize).putLong(blockLength);
    for (int c : crcs) {
      b.putInt(c);
    }
    return b.flip();
  }

  /** Reads and validates the header; the sidecar's size must match it. */
  static Header readHeader(BlockStorage storage, BlockFile file) throws IOException {
    ByteBuffer d = ByteBuffer.allocate(HEADER_BYTES);
    if (storage.read(file, 0, d) < HEADER_BYTES) {
      throw new EOFException("Checksum file " + file + " is shorter than its header");
    }
    d.flip();
    int magic = d.getInt();
    int version = d.getInt();
    if (magic != MAGIC || version != VERSION) {
      throw new IOException("Not an mpCache checksum file (magic " + Integer.toHexString(magic)
          + ", version " + version + "): " + file);
    }
    int chunkSize = d.getInt();
    long length = d.getLong();
    if (chunkSize <= 0 || length < 0) {
      throw new IOException("Corrupt checksum header (chunk size " + chunkSize + ", length "
          + length + "): " + file);
    }
    Header h = new Header(chunkSize, length);
    long expected = HEADER_BYTES + 4L * h.chunks();
    long size = storage.size(file);
    if (size != expected) {
      throw new IOException("Checksum file " + file + " has " + size + " bytes, expected "
          + expected);
    }
    return h;
  }

  /**
   * Reads the CRCs of chunks {@code [first, first + count)}.
   *
   * @throws EOFException if the file ends before them
   */
  static int[] readChecksums(BlockStorage storage, BlockFile file, int first, int count)
      throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(4 * count);
    int n = storage.read(file, HEADER_BYTES + 4L * first, buf);
    if (n < buf.capacity()) {
      throw new EOFException("Checksum file ends early at chunk " + (first + n / 4));
    }
    buf.flip();
    int[] out = new int[count];
    for (int i = 0; i < count; i++) {
      out[i] = buf.getInt();
    }
    return out;
  }
}
