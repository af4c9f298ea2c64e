package org.mpcache.slave.verify;

import java.util.List;
import java.util.Optional;
import org.mpcache.common.BlockKey;

/**
 * Where HDFS's own checksum of a block comes from: a DataNode holding a replica (see
 * {@link DataNodeChecksumSource}), or a test's fake. Implementations are thread-safe and may block
 * on the network: callers hold no lock while they ask.
 */
public interface BlockChecksumSource {

  /**
   * HDFS's CRC of the first {@code length} bytes of {@code block}, from a DataNode that holds it.
   *
   * @param blockToken the client's block access token, URL-safe encoded; empty when HDFS issues
   *     none
   * @param replicas data transfer addresses ("host:port") the client says hold the block, in the
   *     order to try them after the DataNode beside this slave; an implementation asks only ones
   *     it can confirm are DataNodes
   * @return empty when no DataNode could vouch for the block (none answered, none holds it, the
   *     token was refused, or the answer was not a whole-block CRC)
   */
  Optional<HdfsBlockCrc> crcOf(BlockKey block, long length, String blockToken,
      List<String> replicas);

  /** A DataNode's COMPOSITE_CRC of a block's bytes. */
  record HdfsBlockCrc(boolean castagnoli, int crc, String datanode) {
    @Override
    public String toString() {
      return String.format("%s %08x from %s", castagnoli ? "CRC32C" : "CRC32", crc, datanode);
    }
  }
}
