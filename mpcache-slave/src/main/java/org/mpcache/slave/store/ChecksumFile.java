package org.mpcache.slave.store;

import java.io.EOFException;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;
import org.mpcache.common.BlockKey;
import org.mpcache.common.protocolPB.RequestChecks;

/**
 * The checksum sidecar of a cached block file, and the block's record on the SSD: what a master
 * needs to adopt the block again after either side restarted, and check it against its file.
 * Layout (big-endian), version 3:
 * <pre>
 *   magic "MPCC" (int), version (int), chunk size (int), block length (long), trailer bytes (int)
 *   one CRC32C (int) per chunk of the block
 *   trailer: block pool (int length + UTF-8), block id (long), generation stamp (long),
 *            dataset id (int length + UTF-8), dataset blocks (int),
 *            HDFS file (int length + UTF-8; empty when unknown),
 *            CRC32C (int) of the fixed header and the trailer before it
 * </pre>
 * Version 2 is version 3 without the file, which is then unknown.
 * The chunk checksums come first, at a fixed offset, so that a read finds them without knowing the
 * trailer's size. The checksums are computed from the bytes as they were written; the slave never
 * recomputes them on the read path: the client verifies each chunk it receives, so a block
 * corrupted on the SSD is detected before any of its bytes reach a task.
 *
 * <p>The file is untrusted input: anything that does not parse, disagrees with its own size or
 * CRC, or names another block is an {@link IOException} saying what, for that block only. Version 1
 * sidecars (no trailer, so no dataset identity) are refused the same way.
 *
 * <p>Stateless and thread-safe.
 */
final class ChecksumFile {
  private static final int MAGIC = 0x4d504343; // "MPCC"
  static final int VERSION = 3;
  /** The version before the file was recorded; still read. */
  private static final int VERSION_WITHOUT_FILE = 2;
  /** The longest file recorded: an HDFS path as a lookup may name it. */
  private static final int MAX_FILE_CHARS = RequestChecks.MAX_PATH_CHARS;
  /** Where the chunk checksums start. */
  static final int HEADER_BYTES = 4 + 4 + 4 + 8 + 4;
  /** The largest trailer accepted: two length-prefixed strings of bounded size and the rest. */
  static final int MAX_TRAILER_BYTES = 4 + 4 * BlockKey.MAX_POOL_ID_CHARS + 8 + 8 + 4
      + 4 * 32 * 1024 + 4 + 4 + 4 * MAX_FILE_CHARS + 4;

  /** What a sidecar says of its block: its chunk size and the block's record. */
  record Header(int chunkSize, CachedBlock block) {
  }

  private ChecksumFile() {
  }

  private static int chunks(int chunkSize, long blockLength) {
    return (int) ((blockLength + chunkSize - 1) / chunkSize);
  }

  /** The whole sidecar of {@code block}, whose chunks have {@code crcs}. */
  static ByteBuffer encode(int chunkSize, int[] crcs, CachedBlock block) {
    BlockKey key = block.key();
    byte[] pool = key.getBlockPoolId().getBytes(StandardCharsets.UTF_8);
    byte[] dataset = block.datasetId().getBytes(StandardCharsets.UTF_8);
    byte[] path = block.file().getBytes(StandardCharsets.UTF_8);
    int trailer = trailerBytes(pool.length, dataset.length, path.length);
    ByteBuffer b = ByteBuffer.allocate(HEADER_BYTES + 4 * crcs.length + trailer);
    b.putInt(MAGIC).putInt(VERSION).putInt(chunkSize).putLong(block.length()).putInt(trailer);
    for (int c : crcs) {
      b.putInt(c);
    }
    int trailerStart = b.position();
    b.putInt(pool.length).put(pool).putLong(key.getBlockId()).putLong(key.getGenerationStamp())
        .putInt(dataset.length).put(dataset).putInt(block.datasetBlocks()).putInt(path.length)
        .put(path);
    b.putInt(headerCrc(b.array(), trailerStart, b.position()));
    return b.flip();
  }

  /** The bytes of the sidecar {@link #encode} writes for {@code block}. */
  static long bytes(int chunkSize, CachedBlock block) {
    return HEADER_BYTES + 4L * chunks(chunkSize, block.length()) + trailerBytes(
        block.key().getBlockPoolId().getBytes(StandardCharsets.UTF_8).length,
        block.datasetId().getBytes(StandardCharsets.UTF_8).length,
        block.file().getBytes(StandardCharsets.UTF_8).length);
  }

  private static int trailerBytes(int poolBytes, int datasetBytes, int fileBytes) {
    return 4 + poolBytes + 8 + 8 + 4 + datasetBytes + 4 + 4 + fileBytes + 4;
  }

  /** The CRC32C of the fixed header and of the trailer up to {@code trailerEnd}. */
  private static int headerCrc(byte[] file, int trailerStart, int trailerEnd) {
    CRC32C crc = new CRC32C();
    crc.update(file, 0, HEADER_BYTES);
    crc.update(file, trailerStart, trailerEnd - trailerStart);
    return (int) crc.getValue();
  }

  /**
   * Reads and validates the header and trailer of the sidecar of block {@code expected}: the
   * sidecar's size must match them, their CRC must hold, and they must name that block.
   */
  static Header readHeader(BlockStorage storage, BlockFile file, BlockKey expected)
      throws IOException {
    ByteBuffer d = ByteBuffer.allocate(HEADER_BYTES);
    if (storage.read(file, 0, d) < HEADER_BYTES) {
      throw new EOFException("Checksum file " + file + " is shorter than its header");
    }
    d.flip();
    int magic = d.getInt();
    int version = d.getInt();
    if (magic != MAGIC) {
      throw new IOException("Not an mpCache checksum file (magic " + Integer.toHexString(magic)
          + "): " + file);
    }
    if (version != VERSION && version != VERSION_WITHOUT_FILE) {
      throw new IOException("Checksum file " + file + " has format version " + version
          + "; this slave reads versions " + VERSION_WITHOUT_FILE + " and " + VERSION + " only");
    }
    int chunkSize = d.getInt();
    long length = d.getLong();
    int trailer = d.getInt();
    if (chunkSize <= 0 || length < 0 || trailer < 0 || trailer > MAX_TRAILER_BYTES
        || chunks(chunkSize, length) > (Integer.MAX_VALUE - HEADER_BYTES - trailer) / 4) {
      throw new IOException("Corrupt checksum header (chunk size " + chunkSize + ", length "
          + length + ", trailer " + trailer + " bytes): " + file);
    }
    long crcEnd = HEADER_BYTES + 4L * chunks(chunkSize, length);
    long size = storage.size(file);
    if (size != crcEnd + trailer) {
      throw new IOException("Checksum file " + file + " has " + size + " bytes, expected "
          + (crcEnd + trailer));
    }
    byte[] all = new byte[HEADER_BYTES + trailer];
    System.arraycopy(d.array(), 0, all, 0, HEADER_BYTES);
    ByteBuffer t = ByteBuffer.wrap(all, HEADER_BYTES, trailer).slice();
    if (storage.read(file, crcEnd, t) < trailer) {
      throw new EOFException("Checksum file " + file + " ends inside its trailer");
    }
    t.flip();
    try {
      String pool = string(t, BlockKey.MAX_POOL_ID_CHARS);
      long blockId = t.getLong();
      long genStamp = t.getLong();
      String datasetId = string(t, 32 * 1024);
      int datasetBlocks = t.getInt();
      String blockFile = version == VERSION ? string(t, MAX_FILE_CHARS) : "";
      int trailerEnd = HEADER_BYTES + t.position();
      int stored = t.getInt();
      if (t.hasRemaining()) {
        throw new IOException(t.remaining() + " bytes after the trailer's CRC");
      }
      if (stored != headerCrc(all, HEADER_BYTES, trailerEnd)) {
        throw new IOException("the header's CRC does not match");
      }
      BlockKey key = new BlockKey(pool, blockId, genStamp);
      if (!key.equals(expected)) {
        throw new IOException("it names block " + key);
      }
      if (datasetId.isEmpty() || datasetBlocks < 1) {
        throw new IOException("no dataset identity (dataset '" + datasetId + "' of "
            + datasetBlocks + " blocks)");
      }
      return new Header(chunkSize,
          new CachedBlock(key, length, datasetId, datasetBlocks, blockFile));
    } catch (BufferUnderflowException | IllegalArgumentException e) {
      throw new IOException("Corrupt checksum trailer in " + file + ": " + e);
    } catch (IOException e) {
      throw new IOException("Corrupt checksum trailer in " + file + ": " + e.getMessage(), e);
    }
  }

  /** A length-prefixed UTF-8 string of at most {@code maxChars} characters. */
  private static String string(ByteBuffer b, int maxChars) throws IOException {
    int n = b.getInt();
    if (n < 0 || n > 4 * maxChars || n > b.remaining()) {
      throw new IOException("a string of " + n + " bytes");
    }
    ByteBuffer bytes = b.slice();
    bytes.limit(n);
    b.position(b.position() + n);
    try {
      return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(bytes).toString();
    } catch (CharacterCodingException e) {
      throw new IOException("a string that is not UTF-8");
    }
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
