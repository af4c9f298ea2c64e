package org.mpcache.common.protocolPB;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;
import org.apache.hadoop.thirdparty.protobuf.ByteString;
import org.mpcache.common.proto.ClientSlaveProtos.WriteRequestProto;

/**
 * The per-chunk CRC32C a fill's write carries, so that a bit flipped between the client that read
 * the bytes from HDFS and the slave that stores them is caught before anything is stored: the
 * client computes one CRC32C per {@link #CHUNK_BYTES} of the data it sends ({@link #withData}),
 * the slave recomputes them ({@link #firstMismatch}) with the chunk size the request names. That
 * size is carried in every request, so it does not depend on the slave's storage chunk size.
 *
 * <p>Stateless and thread-safe.
 */
public final class FillChecksums {
  /** The chunk size clients use: the slaves' default storage chunk. */
  public static final int CHUNK_BYTES = 64 * 1024;
  /** The smallest chunk size a write may name. */
  public static final int MIN_CHUNK_BYTES = 512;
  /** The largest chunk size a write may name. */
  public static final int MAX_CHUNK_BYTES = 64 * 1024 * 1024;

  private FillChecksums() {
  }

  /** Sets {@code data}, the chunk size and the CRC32C of each chunk of {@code data}. */
  public static WriteRequestProto.Builder withData(WriteRequestProto.Builder b,
      ByteString data) {
    b.setData(data).setChecksumChunkBytes(CHUNK_BYTES).clearChecksums();
    ByteBuffer bytes = data.asReadOnlyByteBuffer();
    CRC32C crc = new CRC32C();
    for (int from = 0; from < data.size(); from += CHUNK_BYTES) {
      crc.reset();
      crc.update(bytes.limit(Math.min(data.size(), from + CHUNK_BYTES)).position(from));
      b.addChecksums((int) crc.getValue());
    }
    return b;
  }

  /**
   * The first chunk of a write whose bytes do not match its checksum, or -1 when all match. The
   * request's chunk size and checksum count must have been checked
   * ({@link RequestChecks#writeChecksums}).
   */
  public static int firstMismatch(WriteRequestProto req) {
    int chunk = req.getChecksumChunkBytes();
    ByteBuffer bytes = req.getData().asReadOnlyByteBuffer();
    int size = bytes.remaining();
    CRC32C crc = new CRC32C();
    for (int i = 0; i < req.getChecksumsCount(); i++) {
      int from = (int) Math.min(size, (long) i * chunk);
      crc.reset();
      crc.update(bytes.limit(Math.min(size, from + chunk)).position(from));
      if ((int) crc.getValue() != req.getChecksums(i)) {
        return i;
      }
    }
    return -1;
  }
}
