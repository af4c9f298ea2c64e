package org.mpcache.master.state;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.Optional;
import java.util.zip.CRC32C;
import org.apache.hadoop.thirdparty.protobuf.InvalidProtocolBufferException;
import org.mpcache.common.proto.MasterStateProtos.MasterStateProto;
import org.mpcache.master.MasterConfigKeys;

/**
 * The master's checkpoint file, {@code <state dir>/master-state}: one {@link MasterStateProto}
 * framed as
 *
 * <pre>
 * magic "MPCSTATE" (8 bytes) | version (int, {@value #VERSION}) | length (int) | payload | CRC32C of the payload (int)
 * </pre>
 *
 * (integers big-endian). The version covers the frame and the meaning of the payload; sections
 * added to the payload later are optional fields, which an older reader skips, so they need no
 * new version. The payload is bounded by {@code mpcache.master.state.max-bytes}: a write past the
 * bound is refused (the previous checkpoint stays), a file claiming more is not read.
 *
 * <p>A write goes to {@code master-state.tmp}, is fsynced, renamed over {@code master-state}, and
 * the directory is fsynced: a crash at any point leaves the previous checkpoint or the new one,
 * never a mix. The file is {@code rw-------} ({@link OwnerOnlyFiles}). A left-over temporary file is ignored by {@link #load} and overwritten by the next
 * write.
 *
 * <p>Thread-safe for reads; the caller runs one write at a time.
 */
public final class MasterStateFile {
  /** The file's name in the state directory. */
  public static final String NAME = "master-state";
  /** The version this master writes and the only one it reads. */
  static final int VERSION = 1;
  private static final byte[] MAGIC = "MPCSTATE".getBytes(StandardCharsets.US_ASCII);
  private static final int HEADER_BYTES = MAGIC.length + 8;

  /** A checkpoint that cannot be read back; the message names the file and the problem. */
  public static final class FormatException extends IOException {
    private static final long serialVersionUID = 1L;

    FormatException(Path file, String problem) {
      super(file + ": " + problem);
    }

    FormatException(Path file, String problem, Throwable cause) {
      super(file + ": " + problem, cause);
    }
  }

  /** A checkpoint refused because its payload would pass the bound. */
  public static final class TooLargeException extends IOException {
    private static final long serialVersionUID = 1L;

    TooLargeException(String message) {
      super(message);
    }
  }

  private final Path file;
  private final Path tmp;
  private final long maxBytes;

  /**
   * @param dir the state directory
   * @param maxBytes the largest payload written or read, at least 1
   */
  public MasterStateFile(Path dir, long maxBytes) {
    if (maxBytes < 1) {
      throw new IllegalArgumentException("maxBytes must be at least 1: " + maxBytes);
    }
    this.file = dir.resolve(NAME);
    this.tmp = dir.resolve(NAME + ".tmp");
    this.maxBytes = maxBytes;
  }

  /** The checkpoint's path. */
  public Path path() {
    return file;
  }

  /**
   * Reads the checkpoint.
   *
   * @return empty when there is none
   * @throws FormatException when it cannot be parsed, has another version, fails its checksum or
   *     passes the bound
   * @throws IOException when it cannot be read at all
   */
  public Optional<MasterStateProto> load() throws IOException {
    try (InputStream raw = Files.newInputStream(file);
        DataInputStream in = new DataInputStream(raw)) {
      byte[] magic = new byte[MAGIC.length];
      in.readFully(magic);
      if (!Arrays.equals(magic, MAGIC)) {
        throw new FormatException(file, "not an mpCache master state file (bad magic)");
      }
      int version = in.readInt();
      if (version != VERSION) {
        throw new FormatException(file, "unknown version " + version + " (this master reads "
            + VERSION + ")");
      }
      int length = in.readInt();
      if (length < 0 || length > maxBytes) {
        throw new FormatException(file, "payload of " + length + " bytes, more than "
            + MasterConfigKeys.STATE_MAX_BYTES_KEY + " (" + maxBytes + ")");
      }
      byte[] payload = new byte[length];
      in.readFully(payload);
      int crc = in.readInt();
      if (crc != crc(payload)) {
        throw new FormatException(file, "checksum mismatch");
      }
      if (in.read() != -1) {
        throw new FormatException(file, "bytes after the checksum");
      }
      return Optional.of(MasterStateProto.parseFrom(payload));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (EOFException e) {
      throw new FormatException(file, "truncated", e);
    } catch (InvalidProtocolBufferException e) {
      throw new FormatException(file, "payload cannot be parsed: " + e.getMessage(), e);
    }
  }

  /**
   * Writes a checkpoint atomically over the previous one.
   *
   * @return the file's size in bytes
   * @throws TooLargeException when the payload passes the bound; nothing is written
   */
  public long save(MasterStateProto state) throws IOException {
    byte[] payload = state.toByteArray();
    if (payload.length > maxBytes) {
      throw new TooLargeException("The master's state is " + payload.length + " bytes, more than "
          + MasterConfigKeys.STATE_MAX_BYTES_KEY + " (" + maxBytes + "): not checkpointed, the "
          + "previous checkpoint stays. Raise the key, or lower "
          + MasterConfigKeys.PREFETCH_QUEUE_MAX_BLOCKS_KEY + " or "
          + MasterConfigKeys.POLICY_AUXILIARY_CAPACITY_KEY + ".");
    }
    ByteBuffer b = ByteBuffer.allocate(HEADER_BYTES + payload.length + 4);
    b.put(MAGIC).putInt(VERSION).putInt(payload.length).put(payload).putInt(crc(payload)).flip();
    long size = b.remaining();
    try (FileChannel ch = OwnerOnlyFiles.createTemporary(tmp)) {
      while (b.hasRemaining()) {
        ch.write(b);
      }
      ch.force(true);
    }
    OwnerOnlyFiles.replace(tmp, file);
    return size;
  }

  /**
   * Moves an unreadable checkpoint aside to {@code master-state.corrupt} (replacing an older one),
   * for an operator to inspect.
   *
   * @return where it went
   */
  public Path moveAside() throws IOException {
    Path aside = file.resolveSibling(NAME + ".corrupt");
    Files.move(file, aside, StandardCopyOption.REPLACE_EXISTING);
    return aside;
  }

  private static int crc(byte[] payload) {
    CRC32C c = new CRC32C();
    c.update(payload);
    return (int) c.getValue();
  }
}
