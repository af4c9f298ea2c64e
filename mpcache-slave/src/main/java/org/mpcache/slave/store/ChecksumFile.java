package org.mpcache.slave.store;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The checksum sidecar of a cached block file: a header (magic, version, chunk size, block length)
 * then one CRC32C per chunk of the block, computed from the bytes as they were written. The slave
 * never recomputes them on the read path; the client verifies each chunk it receives, so a block
 * corrupted on the SSD is detected before any of its bytes reach a task.
 *
 * <p>Stateless and thread-safe.
 */
final class ChecksumFile {
  static final String SUFFIX = ".crc";
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

  static void write(OutputStream out, int chunkSize, long blockLength, int[] crcs)
      throws IOException {
    DataOutputStream d = new DataOutputStream(out);
    d.writeInt(MAGIC);
    d.writeInt(VERSION);
    d.writeInt(chunkSize);
    d.writeLong(blockLength);
    for (int c : crcs) {
      d.writeInt(c);
    }
    d.flush();
  }

  /** Reads and validates the header; the sidecar's size must match it. */
  static Header readHeader(Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
        InputStream in = java.nio.channels.Channels.newInputStream(ch)) {
      DataInputStream d = new DataInputStream(in);
      int magic = d.readInt();
      int version = d.readInt();
      if (magic != MAGIC || version != VERSION) {
        throw new IOException("Not an mpCache checksum file (magic " + Integer.toHexString(magic)
            + ", version " + version + "): " + file);
      }
      int chunkSize = d.readInt();
      long length = d.readLong();
      if (chunkSize <= 0 || length < 0) {
        throw new IOException("Corrupt checksum header (chunk size " + chunkSize + ", length "
            + length + "): " + file);
      }
      Header h = new Header(chunkSize, length);
      long expected = HEADER_BYTES + 4L * h.chunks();
      if (ch.size() != expected) {
        throw new IOException("Checksum file " + file + " has " + ch.size() + " bytes, expected "
            + expected);
      }
      return h;
    }
  }

  /**
   * Reads the CRCs of chunks {@code [first, first + count)}.
   *
   * @throws EOFException if the file ends before them
   */
  static int[] readChecksums(FileChannel ch, int first, int count) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(4 * count);
    long pos = HEADER_BYTES + 4L * first;
    while (buf.hasRemaining()) {
      int n = ch.read(buf, pos + buf.position());
      if (n < 0) {
        throw new EOFException("Checksum file ends early at chunk "
            + (first + buf.position() / 4));
      }
    }
    buf.flip();
    int[] out = new int[count];
    for (int i = 0; i < count; i++) {
      out[i] = buf.getInt();
    }
    return out;
  }
}
