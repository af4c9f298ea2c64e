package org.mpcache.common.protocolPB;

import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.ClientSlaveProtos.WriteRequestProto;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.proto.MpCacheProtos.BlockKeyProto;

/**
 * Checks of the values a request carries, made where it arrives, before it changes anything: a
 * bad value fails with a {@link RequestRefusedException} naming the field, its value and what is
 * accepted, so that the sender learns what to fix and nobody else's data is touched. The slave
 * checks clients' requests and the master slaves' reports with the same rules.
 *
 * <p>Protobuf's unsigned fields arrive as Java's signed ints and longs; the checks read them as
 * unsigned, so that 2^31 is refused as 2147483648, not taken as a negative number.
 *
 * <p>Stateless and thread-safe.
 */
public final class RequestChecks {
  /**
   * The largest block size accepted: 2 GiB, above any HDFS block size in use (HDFS's default is
   * 128 MiB). Larger claims are refused rather than reserved.
   */
  public static final long MAX_BLOCK_BYTES = 2L << 30;

  private RequestChecks() {
  }

  /** A block key from {@code field}; refused when the pool id or generation stamp is invalid. */
  public static BlockKey blockKey(String field, BlockKeyProto p) throws RequestRefusedException {
    uint64(field + ".generationStamp", p.getGenerationStamp(), 0, Long.MAX_VALUE);
    try {
      return ProtoConverters.fromProto(p);
    } catch (IllegalArgumentException e) {
      // With the generation stamp checked, only the pool id can be wrong.
      throw new RequestRefusedException("Invalid " + field + ".blockPoolId: " + e.getMessage());
    }
  }

  /**
   * Checks one block access (a lookup's or a hit's): a valid block key, {@code blockBytes} from 1
   * to {@link #MAX_BLOCK_BYTES}, a non-empty {@code datasetId} and at least one dataset block.
   *
   * @return the accessed block
   */
  public static BlockKey access(BlockAccessProto a) throws RequestRefusedException {
    BlockKey key = blockKey("block", a.getBlock());
    uint64("blockBytes", a.getBlockBytes(), 1, MAX_BLOCK_BYTES);
    if (a.getDatasetId().isEmpty()) {
      throw new RequestRefusedException("Invalid datasetId of " + key + ": it must not be empty");
    }
    uint32("datasetBlocks", a.getDatasetBlocks(), 1, Integer.MAX_VALUE);
    return key;
  }

  /**
   * Checks the checksums of a fill's write: {@code checksumChunkBytes} from
   * {@link FillChecksums#MIN_CHUNK_BYTES} to {@link FillChecksums#MAX_CHUNK_BYTES}, and one
   * checksum per chunk of the data, the last chunk possibly shorter.
   */
  public static void writeChecksums(WriteRequestProto w) throws RequestRefusedException {
    int chunk = uint32("checksumChunkBytes", w.getChecksumChunkBytes(),
        FillChecksums.MIN_CHUNK_BYTES, FillChecksums.MAX_CHUNK_BYTES);
    long chunks = (w.getData().size() + (long) chunk - 1) / chunk;
    if (w.getChecksumsCount() != chunks) {
      throw new RequestRefusedException("Invalid checksums: " + w.getChecksumsCount()
          + " checksums for " + w.getData().size() + " bytes of data in chunks of " + chunk
          + " bytes; there must be one per chunk (" + chunks + ")");
    }
  }

  /**
   * An unsigned 32-bit field that must lie in {@code [min, max]}.
   *
   * @return the value, which then fits a non-negative int when {@code max} does
   */
  public static int uint32(String field, int raw, long min, long max)
      throws RequestRefusedException {
    long v = Integer.toUnsignedLong(raw);
    if (v < min || v > max) {
      throw outOfRange(field, Long.toString(v), min, max);
    }
    return raw;
  }

  /** An unsigned 64-bit field that must lie in {@code [min, max]}, both non-negative. */
  public static long uint64(String field, long raw, long min, long max)
      throws RequestRefusedException {
    if (raw < 0 || raw < min || raw > max) {
      throw outOfRange(field, Long.toUnsignedString(raw), min, max);
    }
    return raw;
  }

  private static RequestRefusedException outOfRange(String field, String value, long min,
      long max) {
    return new RequestRefusedException("Invalid " + field + " " + value + ": it must be between "
        + min + " and " + max);
  }
}
