package org.mpcache.hdfs;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.ClientSlaveProtos.FollowingBlockProto;
import org.mpcache.common.proto.ClientSlaveProtos.LookupRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReportReadRequestProto;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.common.protocolPB.RpcSupport;

/**
 * The blocks of one open file as calls to slaves name them: where each is, which may be cached,
 * and the requests about them (lookups, read reports). Each block's key, access and encoded
 * token are made once per stream rather than at every entry and look-ahead of the block
 * (encoding the token took most of that).
 *
 * <p>Thread-safe: the names are filled lazily by any reader thread; a racing write stores an
 * equal immutable value.
 */
final class FileBlocks {
  /** A block's key, its access as calls to slaves name it, and its encoded block token. */
  private record BlockRef(BlockKey key, BlockAccessProto access, String token) {
  }

  private final List<LocatedBlock> blocks;
  private final BlockRef[] refs;
  private final int cacheable;
  /** The file, a qualified URI, for the slave to fill missed blocks from. */
  private final String path;
  private final Dataset dataset;
  private final ClientConf conf;

  /**
   * @param cacheable how many leading blocks may be cached: all of them, or all but the last for
   *     a file still being written
   */
  FileBlocks(List<LocatedBlock> blocks, int cacheable, String path, Dataset dataset,
      ClientConf conf) {
    this.blocks = blocks;
    this.refs = new BlockRef[blocks.size()];
    this.cacheable = cacheable;
    this.path = path;
    this.dataset = dataset;
    this.conf = conf;
  }

  LocatedBlock get(int index) {
    return blocks.get(index);
  }

  /** Whether block {@code index} exists, may be cached and holds bytes. */
  boolean cacheable(int index) {
    return index >= 0 && index < cacheable && blocks.get(index).getBlockSize() > 0;
  }

  /** The index of the block holding file offset {@code p}; -1 when none does. */
  int indexOf(long p) {
    int lo = 0;
    int hi = blocks.size() - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      LocatedBlock b = blocks.get(mid);
      if (p < b.getStartOffset()) {
        hi = mid - 1;
      } else if (p >= b.getStartOffset() + b.getBlockSize()) {
        lo = mid + 1;
      } else {
        return mid;
      }
    }
    return -1;
  }

  private BlockRef ref(int index) {
    BlockRef r = refs[index];
    if (r == null) {
      LocatedBlock b = blocks.get(index);
      BlockKey key = MpCacheFileSystem.keyOf(b);
      r = new BlockRef(key, BlockAccessProto.newBuilder().setBlock(ProtoConverters.toProto(key))
          .setBlockBytes(b.getBlockSize()).setDatasetId(dataset.id())
          .setDatasetBlocks(dataset.blocks()).setDatasetBytes(dataset.bytes())
          .setJobId(conf.jobId).build(), encodedToken(b));
      refs[index] = r;
    }
    return r;
  }

  /** Block {@code index} as calls to {@code slave} name it. */
  BlockTarget target(int index, SlaveDirectory.Slave slave) {
    BlockRef r = ref(index);
    return new BlockTarget(slave, r.key(), r.access(), r.token(),
        blocks.get(index).getBlockSize());
  }

  /**
   * The block's one lookup: with fills on it names the block's file and offset, so that the
   * slave caches a missed block however it is read.
   */
  LookupRequestProto lookupRequest(int index) {
    BlockRef r = ref(index);
    LookupRequestProto.Builder req = LookupRequestProto.newBuilder().setAccess(r.access())
        .setBlockToken(r.token());
    if (conf.fillEnabled) {
      req.setPath(path).setBlockOffset(blocks.get(index).getStartOffset());
    }
    return req.build();
  }

  /** Block {@code index} as a lookup of an earlier block names it after its own. */
  FollowingBlockProto following(int index) {
    BlockRef r = ref(index);
    return FollowingBlockProto.newBuilder().setAccess(r.access()).setBlockToken(r.token())
        .setBlockOffset(blocks.get(index).getStartOffset()).build();
  }

  /** The report of {@code bytes} of block {@code t} read from HDFS, and why when a fault. */
  static ReportReadRequestProto readReport(BlockTarget t, long bytes, FallbackCause cause) {
    ReportReadRequestProto.Builder b = ReportReadRequestProto.newBuilder()
        .setBlock(t.access().getBlock()).setBytesFromHdfs(bytes).setBlockToken(t.token())
        .setDatasetId(t.access().getDatasetId());
    if (cause != null) {
      b.setFallback(cause.toProto());
    }
    return b.build();
  }

  /**
   * Sends {@code report} to {@code slave}; a failure loses only a counter. A slave that did not
   * answer (in time) is marked faulty in {@code directory}, so that the client leaves it alone
   * for its next reports and reads.
   *
   * @return false when the slave did not answer
   */
  static boolean send(SlaveDirectory directory, SlaveDirectory.Slave slave,
      ReportReadRequestProto report) {
    try {
      RpcSupport.call(() -> slave.proxy().reportRead(null, report));
      return true;
    } catch (IOException e) {
      if (FallbackCause.of(e).slaveFault()) {
        directory.markFaulty(slave.id());
        return false;
      }
      return true;
    }
  }

  /** The block's access token, URL-safe; empty when HDFS issued none. */
  private static String encodedToken(LocatedBlock b) {
    try {
      return b.getBlockToken() == null ? "" : b.getBlockToken().encodeToUrlString();
    } catch (IOException e) {
      return "";
    }
  }
}
