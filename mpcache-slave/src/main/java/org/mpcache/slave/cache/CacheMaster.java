package org.mpcache.slave.cache;

import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.service.AbstractService;
import org.mpcache.common.service.Daemons;
import org.apache.hadoop.thirdparty.protobuf.RpcController;
import org.apache.hadoop.thirdparty.protobuf.ServiceException;
import org.apache.hadoop.thirdparty.protobuf.UnsafeByteOperations;
import org.apache.hadoop.util.Time;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.ClientSlaveProtos.AbortRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.AbortResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.CommitRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.CommitResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.FollowingBlockProto;
import org.mpcache.common.proto.ClientSlaveProtos.LookupRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.LookupResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReadRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReadResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReportCorruptRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReportCorruptResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReportReadRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReportReadResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.WriteRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.WriteResponseProto;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.proto.SlaveMasterProtos.PrefetchCommandProto;
import org.mpcache.common.proto.SlaveMasterProtos.ReplaceResponseProto;
import org.mpcache.common.protocolPB.ClientSlaveProtocolPB;
import org.mpcache.common.protocolPB.FillChecksums;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.common.protocolPB.RequestChecks;
import org.mpcache.common.protocolPB.RequestRefusedException;
import org.mpcache.slave.master.MasterLink;
import org.mpcache.slave.prefetch.FillSourceGate;
import org.mpcache.slave.security.BlockAccessChecker;
import org.mpcache.slave.space.ForegroundActivity;
import org.mpcache.slave.store.BlockFill;
import org.mpcache.slave.store.BlockNotCachedException;
import org.mpcache.slave.store.BlockReadResult;
import org.mpcache.slave.store.CorruptBlockException;
import org.mpcache.slave.store.FileBlockStore;
import org.mpcache.slave.verify.FillVerifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The slave's Cache Master (paper Section 2): it answers clients' lookups, serves cached blocks,
 * asks the master's Replace Arbitrator before caching a missed block, carries out the evictions
 * the arbitrator orders, and stores the bytes clients write through. A block that turns out short
 * or corrupt is dropped and reported; the client has already fallen back to HDFS. Any other I/O
 * error fails the read, is counted, and keeps the block.
 * A client's report that a block is corrupt has the slave re-read and check it, at most once per
 * block and a few times per caller a minute ({@link CorruptReportLimiter}).
 *
 * <p>Every request's values are checked ({@link RequestChecks}) before anything is reserved, read
 * or reported: a bad one is refused with a {@link RequestRefusedException} naming the field.
 * A write whose bytes do not match the per-chunk checksums the client sent with them
 * ({@link FillChecksums}) is refused with a {@link ChecksumException} and its fill aborted:
 * nothing of it is stored.
 *
 * <p>Every client call is authorized as HDFS would authorize a read of its block (see
 * {@link BlockAccessChecker}); a fill also belongs to the caller it was offered to (user and
 * address) and to its block: a write, commit or abort of a fill from anyone else is refused and
 * leaves the fill alone.
 *
 * <p>One lookup per missed block: a reader entering the block at its start offers to write it
 * through and is given a fill at once (after the Replace Arbitrator admits it); a reader entering
 * it anywhere else, or by positional reads, names the block's file and offset, and the slave
 * reads the block from HDFS itself in the background ({@link SlaveFills}; admission is asked
 * there, off the reader's path). A write-through its reader abandons is completed the same way,
 * so any read of a missed, admitted block caches the whole block once. The file a lookup names
 * must lie on the cluster's own HDFS ({@link FillSourceGate}): a lookup naming any other file
 * system is answered a miss for each of its blocks, refused, and nothing else happens (no hit,
 * no miss counted, no fill offered or queued, no admission asked), so no caller can have the slave
 * connect to a NameNode of its choosing or cache what such a NameNode serves.
 *
 * <p>A fill becomes readable only with bytes HDFS vouches for: at commit, the {@link FillVerifier}
 * asks a DataNode holding the block for its checksum and compares it with the bytes written; a
 * mismatch, or no DataNode able to answer, aborts the fill (counted in {@code fillsRejected*},
 * logged at WARN the first time per cause).
 *
 * <p>A hit names the slave's {@link DescriptorServer} socket when it has one: a reader on this
 * host then reads the block file itself through a descriptor the slave passes it, and the
 * {@code read} call serves the others.
 *
 * <p>Thread-safe: the RPC handlers call it concurrently. Each fill session is locked while it is
 * written (no RPC is made under that lock; the store's disk writes are); a commit takes the fill
 * out of the table, checks its length under the session's lock, asks the DataNode with no lock
 * held (a complete fill's bytes cannot change: appends past its length are refused), then commits
 * or aborts under the lock again. The store and counters are thread-safe. A background task reaps
 * abandoned fills.
 */
public final class CacheMaster extends AbstractService implements ClientSlaveProtocolPB {
  private static final Logger LOG = LoggerFactory.getLogger(CacheMaster.class);

  private final FileBlockStore store;
  private final BlockAccessChecker access;
  private final SlaveCounters counters;
  /** Hears of the bytes each read serves from the SSD. */
  private final ForegroundActivity foreground;
  private final MasterLink masterLink;
  private final FillVerifier verifier;
  private final SlaveFills slaveFills;
  /** Checks a write-through fill's file before its admission is asked. */
  private final BlockFileCheck blockFiles;
  private final FillSourceGate sources;
  private final long fillTimeoutMs;
  private final int readMaxBytes;
  /** The descriptor socket a hit names, or empty (see {@link DescriptorServer#advertisedPath}). */
  private final Supplier<String> domainSocketPath;
  private final FillTable fills = new FillTable();
  /** Which reports of corrupt blocks have the block re-read: each costs a block's reads. */
  private final CorruptReportLimiter corruptReports = new CorruptReportLimiter();
  /** Commits under way: their fills have left the table but are not yet committed or aborted. */
  private final AtomicInteger committing = new AtomicInteger();
  private ScheduledExecutorService reaper;

  public CacheMaster(FileBlockStore store, BlockAccessChecker access, SlaveCounters counters,
      ForegroundActivity foreground, MasterLink masterLink, FillVerifier verifier,
      SlaveFills slaveFills, BlockFileCheck blockFiles, FillSourceGate sources,
      long fillTimeoutMs, int readMaxBytes, Supplier<String> domainSocketPath) {
    super(CacheMaster.class.getSimpleName());
    this.store = store;
    this.access = access;
    this.counters = counters;
    this.foreground = foreground;
    this.masterLink = masterLink;
    this.verifier = verifier;
    this.slaveFills = slaveFills;
    this.blockFiles = blockFiles;
    this.sources = sources;
    this.fillTimeoutMs = fillTimeoutMs;
    this.readMaxBytes = readMaxBytes;
    this.domainSocketPath = domainSocketPath;
  }

  @Override
  protected void serviceStart() throws Exception {
    reaper = Daemons.scheduler("mpcache-fill-reaper");
    long period = Math.max(10, fillTimeoutMs / 4);
    reaper.scheduleWithFixedDelay(this::reapAbandonedFills, period, period,
        TimeUnit.MILLISECONDS);
    super.serviceStart();
  }

  @Override
  protected void serviceStop() throws Exception {
    if (reaper != null) {
      reaper.shutdownNow();
    }
    for (FillTable.Session s : fills.removeIdleSince(Long.MAX_VALUE)) {
      synchronized (s) {
        s.fill.abort();
      }
    }
    super.serviceStop();
  }

  void reapAbandonedFills() {
    for (FillTable.Session s : fills.removeIdleSince(Time.monotonicNow() - fillTimeoutMs)) {
      LOG.info("Abandoning the fill of {}: no write for {} ms", s.fill.key(), fillTimeoutMs);
      abandoned(s);
    }
  }

  /**
   * Aborts a write-through its client gave up (aborted it, or stopped writing) and has the slave
   * complete the block itself: whatever part of the block the reader read, it is cached once.
   */
  private void abandoned(FillTable.Session s) {
    synchronized (s) {
      s.fill.abort();
    }
    if (s.completion != null) {
      slaveFills.request(s.completion);
    }
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
        req.getBlockOffset(), req.getOfferFill(), req.getAhead(), req.getPreviousReadList());
    if (req.getFollowingCount() == 0) {
      return own;
    }
    LookupResponseProto.Builder answer = own.toBuilder();
    for (FollowingBlockProto f : req.getFollowingList()) {
      try {
        answer.addFollowing(lookup(f.getAccess(), f.getBlockToken(), path, f.getBlockOffset(),
            false, req.getAhead(), List.of()));
      } catch (ServiceException e) {
        // Only this block is refused: nothing is counted or filled for it.
        answer.addFollowing(miss("refused: "
            + (e.getCause() == null ? e.getMessage() : e.getCause().getMessage())));
      }
    }
    return answer.build();
  }

  /**
   * The answer to a lookup whose path is not on the cluster's own HDFS: a miss for its block and
   * each following one, with nothing counted or filled.
   */
  private static LookupResponseProto refusedSource(String path, int following) {
    LookupResponseProto refused = miss("refused: " + path + " is not on this cluster's HDFS,"
        + " the only one the slave fills from");
    LookupResponseProto.Builder answer = refused.toBuilder();
    for (int i = 0; i < following; i++) {
      answer.addFollowing(refused);
    }
    return answer.build();
  }

  /**
   * One block's lookup: its fields checked, its token verified, the read reports it carries
   * counted; a hit, or a miss counted and, when {@code path} is not null, filled (by the caller
   * when {@code offerFill}, else by the slave).
   */
  private LookupResponseProto lookup(BlockAccessProto access, String token, String path,
      long rawOffset, boolean offerFill, boolean ahead, List<ReportReadRequestProto> reports)
      throws ServiceException {
    BlockKey key;
    PrefetchCommandProto completion = null;
    try {
      key = RequestChecks.access(access);
      long blockOffset = RequestChecks.uint64("blockOffset", rawOffset, 0, Long.MAX_VALUE);
      if (path != null) {
        completion = PrefetchCommandProto.newBuilder().setAccess(access).setOffset(blockOffset)
            .setPath(path).build();
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
      countHit(access);
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
      return miss("not cached");
    }
    counters.miss(access.getDatasetId());
    if (!offerFill && completion == null) {
      return miss("not cached");
    }
    if (store.state(key).isPresent()) {
      return miss("being filled");
    }
    if (access.getBlockBytes() > store.space().capacityBytes()) {
      return miss("larger than the Input Cache");
    }
    if (!offerFill) {
      // The reader reads HDFS at once; admission and the read are the fill thread's.
      return slaveFills.request(completion)
          ? LookupResponseProto.newBuilder().setStatus(LookupResponseProto.Status.MISS)
              .setSlaveFills(true).setMissReason("filled by the slave").build()
          : miss("slave fill queue full");
    }
    return offerFill(access, key, caller(), completion);
  }

  /**
   * Counts a hit on the block {@code access} names, as its lookup does: in the slave's counters
   * and in the master's figures of its dataset. A descriptor request that stands for the lookup
   * counts its grant here.
   */
  public void countHit(BlockAccessProto access) {
    counters.hit(store.datasetOf(ProtoConverters.fromProto(access.getBlock())));
    masterLink.reportHit(access);
  }

  /**
   * Admits and opens a write-through fill for the caller once the NameNode confirms the block is
   * the named file's; {@code completion} names the file and is the slave's own fill of the block
   * should the caller abandon it. A lookup naming no file is a miss: the master admits a block
   * only by its file.
   */
  private LookupResponseProto offerFill(BlockAccessProto accessProto, BlockKey key,
      String caller, PrefetchCommandProto completion) {
    if (completion == null) {
      return miss("the lookup names no file for the block");
    }
    try {
      if (!blockFiles.isBlockOf(key, completion.getPath(), completion.getOffset(),
          accessProto.getBlockBytes())) {
        return miss("not the block of " + completion.getPath() + " at "
            + completion.getOffset() + " of " + accessProto.getBlockBytes() + " bytes");
      }
    } catch (IOException e) {
      return miss("cannot check the block's file at the NameNode: " + e.getMessage());
    }
    ReplaceResponseProto decision;
    try {
      decision = masterLink.requestReplace(accessProto, store.space().freeBytes(), false,
          completion.getPath(), completion.getOffset());
    } catch (IOException e) {
      return miss("master unreachable: " + e.getMessage());
    }
    if (!decision.getAdmitted()) {
      return miss("not admitted: " + decision.getReason());
    }
    evict(ProtoConverters.fromProtos(decision.getEvictList()));
    try {
      Optional<BlockFill> fill = store.beginFill(key, accessProto.getBlockBytes(),
          accessProto.getDatasetId(), accessProto.getDatasetBlocks(), completion.getPath());
      if (fill.isEmpty()) {
        return miss("no space after eviction");
      }
      long id = fills.add(fill.get(), caller, completion, Time.monotonicNow());
      return LookupResponseProto.newBuilder().setStatus(LookupResponseProto.Status.MISS)
          .setFillId(id).build();
    } catch (IOException e) {
      LOG.warn("Cannot start caching {}: {}", key, e.getMessage());
      return miss("cannot write to the SSD: " + e.getMessage());
    }
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

  /**
   * The caller's own fill {@code fillId}, after checking the block token for its block; null when
   * there is no such fill (it finished, was reaped, or never was).
   *
   * @throws ServiceException wrapping an {@link AccessControlException} when the fill is another
   *     caller's or the token does not allow reading its block
   */
  private FillTable.Session ownFill(long fillId, String token) throws ServiceException {
    FillTable.Session s = fills.get(fillId);
    if (s == null) {
      return null;
    }
    String caller = caller();
    if (!s.owner.equals(caller)) {
      LOG.warn("Refused {} access to the fill of {}, which belongs to {}", caller, s.fill.key(),
          s.owner);
      throw new ServiceException(new AccessControlException("Fill " + fillId
          + " is not one this caller was offered"));
    }
    authorize(s.fill.key(), token);
    return s;
  }

  /** Who is calling, as fills are bound to it: the RPC user's short name and address. */
  private static String caller() {
    UserGroupInformation user = Server.getRemoteUser();
    return (user == null ? "" : user.getShortUserName()) + "@"
        + Objects.toString(Server.getRemoteAddress(), "");
  }

  private static LookupResponseProto miss(String reason) {
    return LookupResponseProto.newBuilder().setStatus(LookupResponseProto.Status.MISS)
        .setMissReason(reason).build();
  }

  /** Evicts blocks the master chose and reports each removal back. */
  public void evict(List<BlockKey> blocks) {
    for (BlockKey k : blocks) {
      String datasetId = store.datasetOf(k);
      if (store.remove(k)) {
        counters.evicted(datasetId);
      }
      masterLink.reportRemoved(k);
    }
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
      drop(key, e.getMessage());
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

  /** Drops a cached block found corrupt: counted, logged and reported to the master. */
  public void drop(BlockKey key, String why) {
    if (store.remove(key)) {
      counters.blocksCorrupt.incrementAndGet();
      LOG.warn("Dropped cached block {}: {}", key, why);
      masterLink.reportRemoved(key);
    }
  }

  @Override
  public WriteResponseProto write(RpcController c, WriteRequestProto req)
      throws ServiceException {
    refuseUnless(() -> RequestChecks.uint64("offset", req.getOffset(), 0,
        RequestChecks.MAX_BLOCK_BYTES));
    refuseUnless(() -> RequestChecks.writeChecksums(req));
    FillTable.Session s = ownFill(req.getFillId(), req.getBlockToken());
    if (s == null) {
      return WriteResponseProto.newBuilder().setAccepted(false).build();
    }
    int bad = FillChecksums.firstMismatch(req);
    if (bad >= 0) {
      // The bytes changed between the client and here: none of this fill can be trusted.
      long at = req.getOffset() + (long) bad * req.getChecksumChunkBytes();
      String why = "checksum mismatch in the write to the fill of " + s.fill.key() + " at offset "
          + at + ": the bytes changed on the way from the client; the fill is aborted";
      LOG.warn("Refused a write from {}: {}", s.owner, why);
      if (fills.remove(req.getFillId(), s)) {
        synchronized (s) {
          s.fill.abort();
        }
      }
      throw new ServiceException(new ChecksumException(why, at));
    }
    synchronized (s) {
      try {
        s.fill.append(req.getOffset(), req.getData().asReadOnlyByteBuffer());
        s.lastTouched = Time.monotonicNow();
        return WriteResponseProto.newBuilder().setAccepted(true).build();
      } catch (IOException e) {
        LOG.warn("Abandoning the fill of {}: {}", s.fill.key(), e.getMessage());
        fills.remove(req.getFillId(), s);
        s.fill.abort();
        return WriteResponseProto.newBuilder().setAccepted(false).build();
      }
    }
  }

  @Override
  public CommitResponseProto commit(RpcController c, CommitRequestProto req)
      throws ServiceException {
    refuseUnless(() -> {
      RequestChecks.uint64("length", req.getLength(), 0, RequestChecks.MAX_BLOCK_BYTES);
      RequestChecks.count("replicas", req.getReplicasCount(), RequestChecks.MAX_REPLICAS);
      for (int i = 0; i < req.getReplicasCount(); i++) {
        RequestChecks.text("replicas", req.getReplicasBytes(i), RequestChecks.MAX_ID_CHARS);
      }
      return null;
    });
    FillTable.Session s = ownFill(req.getFillId(), req.getBlockToken());
    // Counted before it leaves the table, so that the fill is in progress until it is done.
    committing.incrementAndGet();
    try {
      if (s == null || !fills.remove(req.getFillId(), s)) {
        return CommitResponseProto.newBuilder().setCached(false).build();
      }
      try {
        return verifyAndCommit(s, req);
      } finally {
        // A no-op once committed or aborted; otherwise (verification failed unexpectedly) the
        // block must not stay FILLING.
        synchronized (s) {
          s.fill.abort();
        }
      }
    } finally {
      committing.decrementAndGet();
    }
  }

  /**
   * Commits a fill taken out of the table once HDFS vouches for its bytes; the caller aborts it
   * if it was not committed.
   */
  private CommitResponseProto verifyAndCommit(FillTable.Session s, CommitRequestProto req) {
    synchronized (s) {
      if (s.fill.written() != req.getLength() || s.fill.written() != s.fill.length()) {
        LOG.warn("Could not cache {}: client wrote {} bytes, slave received {} of {}",
            s.fill.key(), req.getLength(), s.fill.written(), s.fill.length());
        return CommitResponseProto.newBuilder().setCached(false).build();
      }
    }
    // No lock held while a DataNode is asked; the fill is out of the table and complete.
    long t0 = Time.monotonicNow();
    FillVerifier.Result vouch = verifier.verify(s.fill, req.getBlockToken(),
        req.getReplicasList());
    if (vouch.verdict() != FillVerifier.Verdict.VOUCHED) {
      if (counters.fillRejected(vouch.verdict())) {
        LOG.warn("Refused the fill of {} by {}: {} (logged once per cause; see the "
            + "fillsRejected counters)", s.fill.key(), s.owner, vouch);
      } else {
        LOG.debug("Refused the fill of {} by {}: {}", s.fill.key(), s.owner, vouch);
      }
      return CommitResponseProto.newBuilder().setCached(false).build();
    }
    if (verifier.isOn()) {
      LOG.debug("HDFS vouched for {} ({} bytes) in {} ms: {}", s.fill.key(), s.fill.length(),
          Time.monotonicNow() - t0, vouch);
    }
    synchronized (s) {
      try {
        s.fill.commit();
      } catch (IOException e) {
        LOG.warn("Could not cache {}: {}", s.fill.key(), e.getMessage());
        return CommitResponseProto.newBuilder().setCached(false).build();
      }
    }
    counters.blockCached(s.fill.datasetId());
    counters.fillsWriteThrough.incrementAndGet();
    masterLink.reportCached(s.fill.key());
    return CommitResponseProto.newBuilder().setCached(true).build();
  }

  @Override
  public AbortResponseProto abort(RpcController c, AbortRequestProto req)
      throws ServiceException {
    FillTable.Session s = ownFill(req.getFillId(), req.getBlockToken());
    if (s != null && fills.remove(req.getFillId(), s)) {
      abandoned(s);
    }
    return AbortResponseProto.getDefaultInstance();
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
    String cause;
    String datasetId;
    try {
      BlockKey key = RequestChecks.blockKey("block", req.getBlock());
      authorize(key, req.getBlockToken());
      // One report per block read: more than a block's bytes would only overflow the counter.
      bytes = RequestChecks.uint64("bytesFromHdfs", req.getBytesFromHdfs(), 0,
          RequestChecks.MAX_BLOCK_BYTES);
      cause = req.hasFallbackCause()
          ? RequestChecks.cause("fallbackCause", req.getFallbackCauseBytes()) : null;
      // A reader that names no dataset: the one the block is being filled for, if any.
      datasetId = req.hasDatasetId() ? RequestChecks.text("datasetId", req.getDatasetIdBytes(),
          RequestChecks.MAX_DATASET_ID_CHARS) : store.datasetOf(key);
    } catch (RequestRefusedException e) {
      throw new ServiceException(e);
    }
    counters.readFromHdfs(datasetId, bytes);
    if (cause != null) {
      counters.fallback(cause);
    }
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
        drop(key, "a client found a checksum mismatch (" + req.getReason() + ")");
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

  /** A check of a request's values that may refuse it. */
  @FunctionalInterface
  private interface Check {
    Object run() throws RequestRefusedException;
  }

  /** Runs {@code check}; a refusal goes back to the caller as the call's error. */
  private static void refuseUnless(Check check) throws ServiceException {
    try {
      check.run();
    } catch (RequestRefusedException e) {
      throw new ServiceException(e);
    }
  }

  /**
   * Fills in progress, for tests and reports: those being written and those whose commit is
   * being verified or written.
   */
  public int fillsInProgress() {
    return fills.size() + committing.get();
  }
}
