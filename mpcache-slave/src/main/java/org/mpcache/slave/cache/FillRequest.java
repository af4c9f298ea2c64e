package org.mpcache.slave.cache;

import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.proto.SlaveMasterProtos.PrefetchCommandProto;
import org.mpcache.common.protocolPB.ProtoConverters;

/**
 * A block the slave is asked to cache: its key and length, the dataset (with its blocks and bytes
 * as the reader counted them, bytes 0 when not known) and job it is read for, and the file of
 * the cluster's HDFS that holds it at {@code offset}. A reader's miss asks with
 * {@code force} off; an operator's prefetch may set it to skip the master's admission test.
 * Immutable.
 */
public record FillRequest(BlockKey key, long length, String datasetId, int datasetBlocks,
    long datasetBytes, String jobId, String path, long offset, boolean force) {

  /** A reader's miss on the block {@code access} names, at {@code offset} of {@code path}. */
  public static FillRequest of(BlockAccessProto access, String path, long offset) {
    return of(access, path, offset, false);
  }

  /** The master's prefetch command. */
  public static FillRequest of(PrefetchCommandProto c) {
    return of(c.getAccess(), c.getPath(), c.getOffset(), c.getForce());
  }

  private static FillRequest of(BlockAccessProto a, String path, long offset, boolean force) {
    return new FillRequest(ProtoConverters.fromProto(a.getBlock()), a.getBlockBytes(),
        a.getDatasetId(), a.getDatasetBlocks(), a.getDatasetBytes(), a.getJobId(), path, offset,
        force);
  }

  /** This request for the file as {@code qualified} names it. */
  public FillRequest withPath(String qualified) {
    return new FillRequest(key, length, datasetId, datasetBlocks, datasetBytes, jobId,
        qualified, offset, force);
  }

  /** The block as the master's replace request names it. */
  public BlockAccessProto access() {
    BlockAccessProto.Builder a = BlockAccessProto.newBuilder()
        .setBlock(ProtoConverters.toProto(key)).setBlockBytes(length).setDatasetId(datasetId)
        .setDatasetBlocks(datasetBlocks).setJobId(jobId);
    // Unset when not known, as the reader sent it.
    return datasetBytes > 0 ? a.setDatasetBytes(datasetBytes).build() : a.build();
  }
}
