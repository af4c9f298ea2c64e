package org.mpcache.common.protocolPB;

import java.util.Map;
import org.apache.hadoop.thirdparty.protobuf.ByteString;
import org.apache.hadoop.thirdparty.protobuf.Descriptors.FieldDescriptor;
import org.apache.hadoop.thirdparty.protobuf.Message;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.proto.MpCacheProtos.BlockKeyProto;
import org.mpcache.common.proto.MpCacheProtos.SpaceReportProto;
import org.mpcache.common.proto.MpCacheProtos.SsdDirProto;
import org.mpcache.common.proto.SlaveMasterProtos.CachedBlockProto;
import org.mpcache.common.proto.SlaveMasterProtos.DatasetCountersProto;

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

  /**
   * The longest identifier accepted (slave ids, host names, YARN application, container and
   * attempt ids, job ids and types, directories, addresses): far above any real
   * one, low enough that a request cannot make a daemon keep or log megabytes per entry.
   */
  public static final int MAX_ID_CHARS = 1024;

  /**
   * The longest dataset id accepted: a job's qualified input paths, comma-separated, which can be
   * long for a job over many paths. A reader whose dataset id is longer reads from HDFS.
   */
  public static final int MAX_DATASET_ID_CHARS = 32 * 1024;

  /**
   * The longest file path a lookup may name for the slave to fill the block from: a qualified
   * HDFS URI, whose path HDFS itself bounds to 8,000 characters by default
   * ({@code dfs.namenode.fs-limits.max-component-length} and depth).
   */
  public static final int MAX_PATH_CHARS = 16 * 1024;

  /**
   * The most jobs a slave's heartbeat may ask predictions for, and the most predictions in use it
   * may report: far above the jobs one node runs at once, low enough to bound the master's answer
   * and what it keeps per slave.
   */
  public static final int MAX_JOBS_PER_HEARTBEAT = 1024;

  /**
   * The most blocks one cached-hosts request may name: the master looks them all up under the
   * Replace Arbitrator's lock, which every lookup's admission also takes, so one call must stay
   * short (4,096 blocks: half a TiB of 128 MiB blocks). Clients ask for a larger file's blocks in
   * several calls of at most this many.
   */
  public static final int MAX_CACHED_HOSTS_BLOCKS = 4_096;

  /**
   * The most datasets one heartbeat may carry figures for: the ceiling of
   * {@code mpcache.slave.heartbeat.datasets.max}, low enough to bound one heartbeat's work.
   */
  public static final int MAX_DATASETS_PER_HEARTBEAT = 10_000;

  /**
   * The most blocks one lookup may name (its own and its following blocks) and the most read
   * reports it may carry: a client's lookup names at most this many of the blocks it deferred
   * ({@code mpcache.client.miss.lookup.interval.ms}); low enough to bound one call's work.
   */
  public static final int MAX_LOOKUP_BLOCKS = 64;

  /** The most SSD directories one slave may report. */
  public static final int MAX_SSD_DIRS = 256;

  private RequestChecks() {
  }

  /** A block key from {@code field}; refused when the pool id or generation stamp is invalid. */
  public static BlockKey blockKey(String field, BlockKeyProto p) throws RequestRefusedException {
    uint64(field + ".generationStamp", p.getGenerationStamp(), 0, Long.MAX_VALUE);
    utf8(field + ".blockPoolId", p.getBlockPoolIdBytes());
    try {
      return ProtoConverters.fromProto(p);
    } catch (IllegalArgumentException e) {
      // With the generation stamp checked, only the pool id can be wrong.
      throw new RequestRefusedException("Invalid " + field + ".blockPoolId: " + e.getMessage());
    }
  }

  /**
   * Checks what a registering slave says of a block beside its key: a {@code length} from 1 to
   * {@link #MAX_BLOCK_BYTES}, a {@code datasetId} of 1 to {@link #MAX_DATASET_ID_CHARS}
   * characters, at least one dataset block (the same rules as a {@link #access block access}'s).
   * The key is checked apart ({@link #blockKey}): a block with a valid key and a bad dataset can
   * still be named back to its slave for eviction.
   */
  public static void cachedBlockDataset(CachedBlockProto b) throws RequestRefusedException {
    uint64("length", b.getLength(), 1, MAX_BLOCK_BYTES);
    text("datasetId", b.getDatasetIdBytes(), MAX_DATASET_ID_CHARS);
    uint32("datasetBlocks", b.getDatasetBlocks(), 1, Integer.MAX_VALUE);
  }

  /**
   * Checks one dataset's figures in a heartbeat: a {@code datasetId} of 1 to
   * {@link #MAX_DATASET_ID_CHARS} characters and every number below 2^63.
   *
   * @return the dataset id
   */
  public static String datasetCounters(String field, DatasetCountersProto d)
      throws RequestRefusedException {
    String id = text(field + ".datasetId", d.getDatasetIdBytes(), MAX_DATASET_ID_CHARS);
    unsignedFields(field, d);
    return id;
  }

  /**
   * Checks one block access (a lookup's or a hit's): a valid block key, {@code blockBytes} from 1
   * to {@link #MAX_BLOCK_BYTES}, a {@code datasetId} of 1 to {@link #MAX_DATASET_ID_CHARS}
   * characters, at least one dataset block, {@code datasetBytes} no more than that many blocks
   * can hold, and a {@code jobId} that is empty or an identifier.
   *
   * @return the accessed block
   */
  public static BlockKey access(BlockAccessProto a) throws RequestRefusedException {
    BlockKey key = blockKey("block", a.getBlock());
    uint64("blockBytes", a.getBlockBytes(), 1, MAX_BLOCK_BYTES);
    text("datasetId", a.getDatasetIdBytes(), MAX_DATASET_ID_CHARS);
    uint32("datasetBlocks", a.getDatasetBlocks(), 1, Integer.MAX_VALUE);
    uint64("datasetBytes", a.getDatasetBytes(), 0,
        Integer.toUnsignedLong(a.getDatasetBlocks()) * MAX_BLOCK_BYTES);
    optionalText("jobId", a.getJobIdBytes(), MAX_ID_CHARS);
    return key;
  }

  /**
   * A text field that must hold 1 to {@code maxChars} characters of valid UTF-8 with no control
   * characters (NUL, newline, carriage return, tab...): identifiers end up in maps, file names,
   * saved files and log lines, where such characters break or forge entries.
   *
   * @param raw the field's bytes as sent ({@code getXBytes()}), so that invalid UTF-8 is seen
   *     rather than decoded into replacement characters
   * @return the value
   */
  public static String text(String field, ByteString raw, int maxChars)
      throws RequestRefusedException {
    if (raw.isEmpty()) {
      throw new RequestRefusedException("Invalid " + field + ": it must not be empty");
    }
    return optionalText(field, raw, maxChars);
  }

  /** As {@link #text}, but an empty value is accepted (an optional field that is absent). */
  public static String optionalText(String field, ByteString raw, int maxChars)
      throws RequestRefusedException {
    String v = utf8(field, raw);
    if (v.length() > maxChars) {
      throw new RequestRefusedException("Invalid " + field + " of " + v.length()
          + " characters: it must have at most " + maxChars);
    }
    for (int i = 0; i < v.length(); i++) {
      if (Character.isISOControl(v.charAt(i))) {
        throw new RequestRefusedException("Invalid " + field + " '" + printable(v, 64)
            + "': it must not contain control characters (found U+"
            + String.format("%04X", (int) v.charAt(i)) + " at " + i + ")");
      }
    }
    return v;
  }

  /**
   * Checks that every unsigned number set in {@code m} (a space report, a counters snapshot) is
   * below 2^63, so that it stays a non-negative long; the error names {@code field} and the
   * number's own field.
   */
  public static void unsignedFields(String field, Message m) throws RequestRefusedException {
    for (Map.Entry<FieldDescriptor, Object> e : m.getAllFields().entrySet()) {
      FieldDescriptor f = e.getKey();
      if (f.getType() == FieldDescriptor.Type.UINT64 && !f.isRepeated()) {
        uint64(field + "." + f.getName(), (Long) e.getValue(), 0, Long.MAX_VALUE);
      }
    }
  }

  /**
   * Checks a slave's space report: its numbers as {@link #unsignedFields} does, and at most
   * {@link #MAX_SSD_DIRS} directories, each named by a path of 1 to {@link #MAX_PATH_CHARS}
   * characters, with a cause of at most {@link #MAX_ID_CHARS}.
   */
  public static void space(String field, SpaceReportProto s) throws RequestRefusedException {
    unsignedFields(field, s);
    count(field + ".dirs", s.getDirsCount(), MAX_SSD_DIRS);
    for (SsdDirProto d : s.getDirsList()) {
      text(field + ".dirs.dir", d.getDirBytes(), MAX_PATH_CHARS);
      optionalText(field + ".dirs.cause", d.getCauseBytes(), MAX_ID_CHARS);
      unsignedFields(field + ".dirs", d);
    }
  }

  /** A repeated field that must have at most {@code max} items. */
  public static void count(String field, int count, int max) throws RequestRefusedException {
    if (count > max) {
      throw new RequestRefusedException("Invalid " + field + ": " + count
          + " items, at most " + max + " accepted");
    }
  }

  private static String utf8(String field, ByteString raw) throws RequestRefusedException {
    if (!raw.isValidUtf8()) {
      throw new RequestRefusedException("Invalid " + field + ": it is not valid UTF-8");
    }
    return raw.toStringUtf8();
  }

  /** At most {@code max} characters of {@code v}, control characters shown as '?'. */
  private static String printable(String v, int max) {
    String cut = v.length() > max ? v.substring(0, max) + "..." : v;
    return cut.replaceAll("\\p{Cntrl}", "?");
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
