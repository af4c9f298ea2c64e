package org.mpcache.slave.verify;

import java.util.List;
import java.util.Optional;
import org.mpcache.slave.store.BlockFill;
import org.mpcache.slave.verify.BlockChecksumSource.HdfsBlockCrc;

/**
 * Decides whether the bytes a client wrote through are the block HDFS holds, before the fill is
 * committed: it asks a {@link BlockChecksumSource} for HDFS's composite CRC of the block and
 * compares it with the fill's whole-block CRC of the same type. Hadoop designed COMPOSITE_CRC so
 * that a block's composite CRC is the plain CRC of its bytes, whatever the chunk layout
 * ({@code dfs.checksum.combine.mode}, HDFS-13056); {@code VouchedFillTest} pins that on a
 * MiniDFSCluster. So a client, hostile or buggy, cannot make bytes HDFS does not hold readable.
 *
 * <p>Thread-safe (stateless); {@link #verify} blocks on the source: call it holding no lock.
 */
public final class FillVerifier {

  /** What a verification found. */
  public enum Verdict {
    /** HDFS's checksum matches the fill's bytes (or verification is off). */
    VOUCHED,
    /** A DataNode answered with a checksum that differs from the fill's bytes. */
    MISMATCH,
    /** No DataNode could vouch for the bytes. */
    UNVERIFIABLE
  }

  private final BlockChecksumSource source;

  public FillVerifier(BlockChecksumSource source) {
    this.source = source;
  }

  /**
   * The verifier of a slave whose operator turned verification off
   * ({@code mpcache.slave.fill.verify=false}): every fill is taken on the client's word.
   */
  public static FillVerifier off() {
    return new FillVerifier(null);
  }

  public boolean isOn() {
    return source != null;
  }

  /**
   * @param fill a fill whose bytes have all been written; it is only read
   * @return the verdict, with the DataNode's answer when there was one
   */
  public Result verify(BlockFill fill, String blockToken, List<String> replicas) {
    if (source == null || fill.length() == 0) {
      return new Result(Verdict.VOUCHED, Optional.empty(), 0);
    }
    Optional<HdfsBlockCrc> hdfs = source.crcOf(fill.key(), fill.length(), blockToken, replicas);
    if (hdfs.isEmpty()) {
      return new Result(Verdict.UNVERIFIABLE, hdfs, 0);
    }
    int ours = fill.blockCrc(hdfs.get().castagnoli());
    return new Result(ours == hdfs.get().crc() ? Verdict.VOUCHED : Verdict.MISMATCH, hdfs, ours);
  }

  /** A verdict, HDFS's answer if any, and the fill's own CRC of the answer's type. */
  public record Result(Verdict verdict, Optional<HdfsBlockCrc> hdfs, int fillCrc) {
    @Override
    public String toString() {
      return verdict + hdfs.map(h -> String.format(": HDFS says %s, the fill's bytes %08x", h,
          fillCrc)).orElse("");
    }
  }
}
