package org.mpcache.slave.cache;

import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.thirdparty.protobuf.RpcController;
import org.apache.hadoop.thirdparty.protobuf.ServiceException;
import org.apache.hadoop.thirdparty.protobuf.UnsafeByteOperations;
import org.apache.hadoop.util.Time;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.ClientSlaveProtos.FallbackCauseProto;
import org.mpcache.common.proto.ClientSlaveProtos.FollowingBlockProto;
import org.mpcache.common.proto.ClientSlaveProtos.LookupRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.LookupResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReadRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReadResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReportCorruptRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReportCorruptResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReportReadRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReportReadResponseProto;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.protocolPB.ClientSlaveProtocolPB;
import org.mpcache.common.protocolPB.RequestChecks;
import org.mpcache.common.protocolPB.RequestRefusedException;
import org.mpcache.slave.fill.FillSourceGate;
import org.mpcache.slave.security.BlockAccessChecker;
import org.mpcache.slave.space.ForegroundActivity;
import org.mpcache.slave.store.BlockNotCachedException;
import org.mpcache.slave.store.BlockReadResult;
import org.mpcache.slave.store.CorruptBlockException;
import org.mpcache.slave.store.FileBlockStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The slave's endpoint for clients, the client side of the paper's Cache Master (Section 2): it
 * answers clients' lookups, serves cached blocks and has the slave fill a missed block from HDFS
 * ({@link SlaveFills}). A block that turns out short or corrupt is dropped and reported; the client
 * has already fallen back to HDFS. Any other I/O error fails the read, is counted, and keeps the
 * block. A client's report that a block is corrupt has the slave re-read and check it, at most
 * once per block and a few times per caller a minute ({@link CorruptReportLimiter}).
 *
 * <p>Every request's values are checked ({@link RequestChecks}) before anything is read or
 * reported: a bad one is refused with a {@link RequestRefusedException} naming the field.
 *
 * <p>Every client call is authorized as HDFS would authorize a read of its block (see
 * {@link BlockAccessChecker}).
 *
 * <p>One lookup per missed block: a reader's lookup names the block's file and offset, and the
 * slave reads the block from HDFS itself in the background ({@link SlaveFills}; admission is asked
 * there, off the reader's path), so any read of a missed, admitted block caches the whole block
 * once. The file a lookup names must lie on the cluster's own HDFS ({@link FillSourceGate}): a
 * lookup naming any other file system is answered a miss for each of its blocks, refused, and
 * nothing else happens (no hit, no miss counted, no fill queued, no admission asked), so no caller
 * can have the slave connect to a NameNode of its choosing or cache what such a NameNode serves.
 *
 * <p>A hit names the slave's {@link DescriptorServer} socket when it has one: a reader on this
 * host then reads the block file itself through a descriptor the slave passes it, and the
 * {@code read} call serves the others.
 *
 * <p>Thread-safe: the RPC handlers call it concurrently; it keeps no state of its own but the
 * corrupt-report limiter, and the store, counters and fill queue it calls are thread-safe.
 */
public final class ClientEndpoint implements ClientSlaveProtocolPB {
  private static final Logger LOG = LoggerFactory.getLogger(ClientEndpoint.class);

  private final InputCache cache;
  private final FileBlockStore store;
  private final SlaveCounters counters;
  private final BlockAccessChecker access;
  /** Hears of the bytes each read serves from the SSD. */
  private final ForegroundActivity foreground;
  private final SlaveFills slaveFills;
  private final FillSourceGate sources;
  private final int readMaxBytes;
  /** The descriptor socket a hit names, or empty (see {@link DescriptorServer#advertisedPath}). */
  private final Supplier<String> domainSocketPath;
  /** Which reports of corrupt blocks have the block re-read: each costs a block's reads. */
  private final CorruptReportLimiter corruptReports = new CorruptReportLimiter();

  public ClientEndpoint(InputCache cache, BlockAccessChecker access, ForegroundActivity foreground,
      SlaveFills slaveFills, FillSourceGate sources, int readMaxBytes,
      Supplier<String> domainSocketPath) {
    this.cache = cache;
    this.store = cache.store();
    this.counters = cache.counters();
    this.access = access;
    this.foreground = foreground;
    this.slaveFills = slaveFills;
    this.sources = sources;
    this.readMaxBytes = readMaxBytes;
    this.domainSocketPath = domainSocketPath;
  }

  @Override
  public LookupResponseProto lookup(RpcController c, LookupRequestProto req)
      throws ServiceException {
    String path = null;
    try {
      RequestChecks.count("following", req.getFollowingCount(),
          RequestChecks.MAX_LOOKUP_BLOCKS - 1);
      RequestChecks.count("previousRead", req.getPreviousReadCount(),
          RequestChecks.MAX_LOOKUP_BLOCKS);
      if (req.hasPath()) {
        path = RequestChecks.text("path", req.getPathBytes(), RequestChecks.MAX_PATH_CHARS);
      }
    } catch (RequestRefusedException e) {
      throw new ServiceException(e);
    }
    if (path != null) {
      String qualified = sources.admit(path, "lookup");
      if (qualified == null) {
        return refusedSource(path, req.getFollowingCount());
      }
      path = qualified;
    }
    LookupResponseProto own = lookup(req.getAccess(), req.getBlockToken(), path,
        req.getBlockOffset(), req.getAhead(), req.getPreviousReadList());
    if (req.getFollowingCount() == 0) {
      return own;
    }
    LookupResponseProto.Builder answer = own.toBuilder();
    for (FollowingBlockProto f : req.getFollowingList()) {
      try {
        answer.addFollowing(lookup(f.getAccess(), f.getBlockToken(), path, f.getBlockOffset(),
            req.getAhead(), List.of()));
      } catch (ServiceException e) {
        // Only this block is refused: nothing is counted or filled for it.
        answer.addFollowing(miss(MissReason.REFUSED,
            e.getCause() == null ? e.getMessage() : e.getCause().getMessage()));
      }
    }
    return answer.build();
  }

  /**
   * The answer to a lookup whose path is not on the cluster's own HDFS: a miss for its block and
   * each following one, with nothing counted or filled.
   */
  private static LookupResponseProto refusedSource(String path, int following) {
    LookupResponseProto refused = miss(MissReason.REFUSED, path + " is not on this cluster's"
        + " HDFS, the only one the slave fills from");
    LookupResponseProto.Builder answer = refused.toBuilder();
    for (int i = 0; i < following; i++) {
      answer.addFollowing(refused);
    }
    return answer.build();
  }

  /**
   * One block's lookup: its fields checked, its token verified, the read reports it carries
   * counted; a hit, or a miss counted and, when {@code path} is not null, filled by the slave.
   */
  private LookupResponseProto lookup(BlockAccessProto access, String token, String path,
      long rawOffset, boolean ahead, List<ReportReadRequestProto> reports)
      throws ServiceException {
    BlockKey key;
    FillRequest fill = null;
    try {
      key = RequestChecks.access(access);
      long blockOffset = RequestChecks.uint64("blockOffset", rawOffset, 0, Long.MAX_VALUE);
      if (path != null) {
        fill = FillRequest.of(access, path, blockOffset);
      }
    } catch (RequestRefusedException e) {
      throw new ServiceException(e);
    }
    authorize(key, token);
    for (ReportReadRequestProto report : reports) {
      try {
        countRead(report);
      } catch (ServiceException e) {
        LOG.debug("Dropped a read report sent with the lookup of {}: {}", key,
            e.getCause() == null ? e.getMessage() : e.getCause().getMessage());
      }
    }
    long length = store.cachedLength(key);
    if (length >= 0) {
      cache.hit(access);
      LookupResponseProto.Builder hit = LookupResponseProto.newBuilder()
          .setStatus(LookupResponseProto.Status.HIT).setLength(length);
      String socket = domainSocketPath.get();
      if (!socket.isEmpty()) {
        hit.setDomainSocketPath(socket);
      }
      return hit.build();
    }
    if (ahead) {
      // The reader asks again when it enters the block: its miss is counted and filled then.
      return miss(MissReason.NOT_CACHED, null);
    }
    counters.miss(access.getDatasetId());
    if (fill == null) {
      return miss(MissReason.NOT_CACHED, null);
    }
    if (store.state(key).isPresent()) {
      return miss(MissReason.BEING_FILLED, null);
    }
    if (access.getBlockBytes() > store.space().capacityBytes()) {
      return miss(MissReason.LARGER_THAN_INPUT_CACHE, null);
    }
    // The reader reads HDFS at once; admission and the read are the fill thread's.
    return slaveFills.request(fill)
        ? LookupResponseProto.newBuilder().setStatus(LookupResponseProto.Status.MISS)
            .setSlaveFills(true).setMissReason(MissReason.FILLED_BY_SLAVE.describe(null))
            .build()
        : miss(MissReason.SLAVE_FILL_QUEUE_FULL, null);
  }

  /** Refuses a client that HDFS did not authorize to read the block. */
  private void authorize(BlockKey key, String token) throws ServiceException {
    try {
      access.check(key, token);
    } catch (IOException e) {
      LOG.debug("Denied access to {}: {}", key, e.getMessage());
      throw new ServiceException(e);
    }
  }

  /** Who is calling, as corrupt reports are limited per caller: the RPC user's name and address. */
  private static String caller() {
    UserGroupInformation user = Server.getRemoteUser();
    return (user == null ? "" : user.getShortUserName()) + "@"
        + Objects.toString(Server.getRemoteAddress(), "");
  }

  private static LookupResponseProto miss(MissReason reason, String detail) {
    return LookupResponseProto.newBuilder().setStatus(LookupResponseProto.Status.MISS)
        .setMissReason(reason.describe(detail)).build();
  }

  @Override
  public ReadResponseProto read(RpcController c, ReadRequestProto req) throws ServiceException {
    BlockKey key;
    int length;
    long offset;
    try {
      key = RequestChecks.blockKey("block", req.getBlock());
      authorize(key, req.getBlockToken());
      length = Math.min(RequestChecks.uint32("length", req.getLength(), 0, Integer.MAX_VALUE),
          readMaxBytes);
      long cached = store.cachedLength(key);
      if (cached < 0) {
        throw new BlockNotCachedException(key);
      }
      offset = RequestChecks.uint64("offset", req.getOffset(), 0, cached);
    } catch (IOException e) {
      throw new ServiceException(e);
    }
    BlockReadResult r;
    try {
      r = store.read(key, offset, length);
    } catch (BlockNotCachedException e) {
      throw new ServiceException(e);
    } catch (CorruptBlockException e) {
      cache.drop(key, e.getMessage());
      throw new ServiceException(e);
    } catch (IOException e) {
      counters.readErrors.incrementAndGet();
      LOG.warn("Could not read cached block {}; keeping it: {}", key, e.toString());
      throw new ServiceException(e);
    }
    long served = Math.max(0, Math.min(length, r.offset() + r.data().length - offset));
    counters.readFromCache(store.datasetOf(key), served);
    foreground.record(r.data().length);
    ReadResponseProto.Builder b = ReadResponseProto.newBuilder().setOffset(r.offset())
        .setData(UnsafeByteOperations.unsafeWrap(r.data())).setChunkSize(r.chunkSize());
    for (int crc : r.checksums()) {
      b.addChecksums(crc);
    }
    return b.build();
  }

  @Override
  public ReportReadResponseProto reportRead(RpcController c, ReportReadRequestProto req)
      throws ServiceException {
    countRead(req);
    return ReportReadResponseProto.getDefaultInstance();
  }

  /** Counts a reader's report of a block read from HDFS, after checking its fields and token. */
  private void countRead(ReportReadRequestProto req) throws ServiceException {
    long bytes;
    String datasetId;
    try {
      BlockKey key = RequestChecks.blockKey("block", req.getBlock());
      authorize(key, req.getBlockToken());
      // One report per block read: more than a block's bytes would only overflow the counter.
      bytes = RequestChecks.uint64("bytesFromHdfs", req.getBytesFromHdfs(), 0,
          RequestChecks.MAX_BLOCK_BYTES);
      // A reader that names no dataset: the one the block is being filled for, if any.
      datasetId = req.hasDatasetId() ? RequestChecks.text("datasetId", req.getDatasetIdBytes(),
          RequestChecks.MAX_DATASET_ID_CHARS) : store.datasetOf(key);
    } catch (RequestRefusedException e) {
      throw new ServiceException(e);
    }
    counters.readFromHdfs(datasetId, bytes);
    FallbackCauseProto cause = fallbackOf(req);
    if (cause != null) {
      counters.fallback(cause);
    }
  }

  /**
   * The fallback a read report names, null for none: a value this slave does not know (a newer
   * client's cause, which protobuf keeps among the unknown fields) is {@code UNKNOWN_CAUSE}.
   */
  static FallbackCauseProto fallbackOf(ReportReadRequestProto req) {
    if (req.hasFallback()) {
      return req.getFallback();
    }
    return req.getUnknownFields().hasField(ReportReadRequestProto.FALLBACK_FIELD_NUMBER)
        ? FallbackCauseProto.UNKNOWN_CAUSE : null;
  }

  @Override
  public ReportCorruptResponseProto reportCorrupt(RpcController c,
      ReportCorruptRequestProto req) throws ServiceException {
    BlockKey key;
    try {
      key = RequestChecks.blockKey("block", req.getBlock());
    } catch (RequestRefusedException e) {
      throw new ServiceException(e);
    }
    authorize(key, req.getBlockToken());
    try {
      if (store.cachedLength(key) < 0) {
        return ReportCorruptResponseProto.getDefaultInstance();
      }
      if (!corruptReports.allow(key, caller(), Time.monotonicNow())) {
        LOG.debug("Not verifying {} for {}: verified within the last {} ms, or the caller had its"
            + " share", key, caller(), CorruptReportLimiter.INTERVAL_MS);
        return ReportCorruptResponseProto.getDefaultInstance();
      }
      if (!store.verify(key)) {
        cache.drop(key, "a client found a checksum mismatch (" + req.getReason() + ")");
      }
    } catch (BlockNotCachedException gone) {
      LOG.debug("Block {} reported corrupt is already gone", key);
    } catch (IOException e) {
      counters.readErrors.incrementAndGet();
      LOG.warn("Could not verify cached block {} a client reported corrupt; keeping it: {}", key,
          e.toString());
    }
    return ReportCorruptResponseProto.getDefaultInstance();
  }
}
