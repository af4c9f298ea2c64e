package org.mpcache.master.rpc;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.apache.hadoop.thirdparty.protobuf.ByteString;
import org.apache.hadoop.thirdparty.protobuf.RpcController;
import org.mpcache.common.BlockKey;
import java.io.IOException;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.proto.MpCacheProtos.JobSpacePredictionProto;
import org.mpcache.common.proto.MpCacheProtos.JobSpaceQueryProto;
import org.mpcache.common.proto.MpCacheProtos.JobSpaceUsageProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveInfoProto;
import org.mpcache.common.proto.MpCacheProtos.SpaceReportProto;
import org.mpcache.common.proto.SlaveMasterProtos.BlockReportRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.BlockReportResponseProto;
import org.mpcache.common.proto.SlaveMasterProtos.DatasetCountersProto;
import org.mpcache.common.proto.SlaveMasterProtos.HeartbeatRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.HeartbeatResponseProto;
import org.mpcache.common.proto.SlaveMasterProtos.HitReportRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.HitReportResponseProto;
import org.mpcache.common.proto.SlaveMasterProtos.ReclaimRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.ReclaimResponseProto;
import org.mpcache.common.proto.SlaveMasterProtos.RegisterSlaveRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.RegisterSlaveResponseProto;
import org.mpcache.common.proto.SlaveMasterProtos.ReplaceRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.ReplaceResponseProto;
import org.mpcache.common.proto.SlaveMasterProtos.CachedBlockProto;
import org.mpcache.common.proto.SlaveMasterProtos.UnregisterSlaveRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.UnregisterSlaveResponseProto;
import org.apache.hadoop.thirdparty.protobuf.ServiceException;
import org.mpcache.common.proto.MpCacheProtos.BlockKeyProto;
import org.mpcache.common.protocolPB.SlaveFigures;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.common.protocolPB.RequestChecks;
import org.mpcache.common.protocolPB.RequestRefusedException;
import org.mpcache.common.protocolPB.SlaveMasterProtocolPB;
import org.mpcache.master.admin.PrefetchPlanner;
import org.mpcache.master.adoption.AdoptionChecker;
import org.mpcache.master.arbitrator.BlockAccess;
import org.mpcache.master.arbitrator.CacheDecision;
import org.mpcache.master.arbitrator.HeldBlock;
import org.mpcache.master.arbitrator.Registration;
import org.mpcache.master.arbitrator.ReplaceArbitrator;
import org.mpcache.master.registry.SlaveRegistry;
import org.mpcache.master.space.DynamicSpaceManager;
import org.mpcache.master.space.SpaceSplit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the slave-to-master protocol: registration, heartbeats (which carry back queued
 * evictions and prefetch commands, bring the localized space finished jobs used to the Dynamic
 * Space Manager, carry back its predictions for the jobs that started, and bring the slave's
 * figures per dataset to the datasets' records), block and hit reports, replace requests and
 * reclaim requests. Requests from a
 * slave the master does not know (it expired, or the master restarted) are answered with
 * {@code reregister}.
 *
 * <p>Every value a slave sends is checked with {@link RequestChecks} before anything changes:
 * slave ids, hosts and job types of 1 to {@link RequestChecks#MAX_ID_CHARS} characters without
 * control characters, a client port from 1 to 65535, space figures and counters below 2^63 (per
 * dataset too, for at most {@link RequestChecks#MAX_DATASETS_PER_HEARTBEAT} datasets), a
 * replace request's free bytes likewise, a reclaim of at most the slave's registered capacity.
 * A replace request names the file the slave found its block in at the NameNode: the block is
 * admitted only for a dataset that file lies under, whatever dataset the reader named. A
 * bad one refuses the request, naming the field, and a registration with any bad value (the keys
 * of the blocks it holds included) leaves any earlier registration under that id as it was; a
 * held block with a valid key but a bad length or dataset is handed back for eviction instead. In a hit or
 * block report a bad item is skipped, logged and counted ({@code InvalidReportItems}) and the
 * rest of the report applied: failing the whole report would make the slave register again and
 * lose its cache over one bad value.
 *
 * <p>Who may register, and who may then call under a slave id, is the {@link SlaveGate}'s
 * decision: only the slave service identity, on the host it claims, and under an id no other
 * identity holds; every other call is refused naming the reason.
 *
 * <p>Thread-safe: it holds no state of its own.
 */
public final class SlaveMasterHandler implements SlaveMasterProtocolPB {
  private static final Logger LOG = LoggerFactory.getLogger(SlaveMasterHandler.class);

  private final SlaveRegistry registry;
  private final SlaveGate gate;
  private final ReplaceArbitrator arbitrator;
  private final PrefetchPlanner prefetch;
  private final AdoptionChecker adoptionChecker;
  private final DynamicSpaceManager spaceManager;
  private final long heartbeatIntervalMs;
  private final LongSupplier wallClock;
  /** The block path of a request whose file is not known: under no dataset's input paths. */
  private static final String UNKNOWN_FILE = "";

  public SlaveMasterHandler(SlaveRegistry registry, SlaveGate gate, ReplaceArbitrator arbitrator,
      PrefetchPlanner prefetch, AdoptionChecker adoptionChecker, DynamicSpaceManager spaceManager,
      long heartbeatIntervalMs, LongSupplier wallClock) {
    this.registry = registry;
    this.gate = gate;
    this.arbitrator = arbitrator;
    this.prefetch = prefetch;
    this.adoptionChecker = adoptionChecker;
    this.spaceManager = spaceManager;
    this.heartbeatIntervalMs = heartbeatIntervalMs;
    this.wallClock = wallClock;
  }

  @Override
  public RegisterSlaveResponseProto registerSlave(RpcController c, RegisterSlaveRequestProto req)
      throws ServiceException {
    SlaveInfoProto info = req.getSlave();
    String id = info.getSlaveId();
    List<HeldBlock> held = new ArrayList<>(req.getCachedBlocksCount());
    int unusable = 0;
    try {
      slaveId(info.getSlaveIdBytes());
      RequestChecks.text("host", info.getHostBytes(), RequestChecks.MAX_ID_CHARS);
      RequestChecks.uint32("clientPort", info.getClientPort(), 1, 65_535);
      if (info.hasStreamPort()) {
        RequestChecks.uint32("streamPort", info.getStreamPort(), 1, 65_535);
      }
      RequestChecks.optionalText("datanodeAddress", info.getDatanodeAddressBytes(),
          RequestChecks.MAX_ID_CHARS);
      RequestChecks.optionalText("version", info.getVersionBytes(), RequestChecks.MAX_ID_CHARS);
      RequestChecks.space("space", req.getSpace());
      for (CachedBlockProto p : req.getCachedBlocksList()) {
        BlockKey key = RequestChecks.blockKey("cachedBlocks.block", p.getBlock());
        try {
          RequestChecks.cachedBlockDataset(p);
          String file = RequestChecks.optionalText("cachedBlocks.file", p.getFileBytes(),
              RequestChecks.MAX_PATH_CHARS);
          held.add(new HeldBlock(key, p.getLength(), p.getDatasetId(), p.getDatasetBlocks(),
              file.isEmpty() ? null : file));
        } catch (RequestRefusedException e) {
          // A block the slave can name but not place: handed back for eviction, not a reason to
          // refuse the slave (it would keep registering and never serve).
          if (unusable++ == 0) {
            LOG.warn("Slave {} reports block {} with an unusable dataset record; evicting it "
                + "(further ones counted, not logged): {}", id, key, e.getMessage());
          }
          held.add(new HeldBlock(key, 0, null, 0, null));
        }
      }
      gate.register(info, req.getSpace());
      return registered(info, req.getSpace(), held, unusable);
    } catch (RequestRefusedException e) {
      throw new ServiceException(e);
    }
  }

  private RegisterSlaveResponseProto registered(SlaveInfoProto info, SpaceReportProto space,
      List<HeldBlock> held, int unusable) {
    String id = info.getSlaveId();
    Registration r = arbitrator.onRegister(id, held, space.getInputCacheCapacity(),
        SlaveFigures.inputCacheFree(space));
    registry.adoption(id, r.kept(), r.unknownDataset(), r.overCapacity());
    adoptionChecker.enqueue(id, r.adopted());
    LOG.info("Registered slave {} at {}:{} beside DataNode {} ({} bytes of SSD; of {} blocks held, "
        + "{} kept ({} adopted, to be checked against HDFS), {} handed back: {} with an unusable "
        + "dataset record ({} malformed), {} past its capacity)", id, info.getHost(),
        info.getClientPort(), info.getDatanodeAddress(), space.getCapacity(), held.size(),
        r.kept(), r.adopted().size(), r.evict().size(), r.unknownDataset(), unusable,
        r.overCapacity());
    return RegisterSlaveResponseProto.newBuilder().setHeartbeatIntervalMs(heartbeatIntervalMs)
        .addAllEvict(ProtoConverters.toProtos(r.evict())).build();
  }

  @Override
  public HeartbeatResponseProto heartbeat(RpcController c, HeartbeatRequestProto req)
      throws ServiceException {
    try {
      slaveId(req.getSlaveIdBytes());
      RequestChecks.space("space", req.getSpace());
      RequestChecks.unsignedFields("counters", req.getCounters());
      for (JobSpaceUsageProto j : req.getFinishedJobsList()) {
        RequestChecks.text("finishedJobs.jobType", j.getJobTypeBytes(),
            RequestChecks.MAX_ID_CHARS);
        RequestChecks.unsignedFields("finishedJobs", j);
      }
      RequestChecks.count("startedJobs", req.getStartedJobsCount(),
          RequestChecks.MAX_JOBS_PER_HEARTBEAT);
      for (JobSpaceQueryProto j : req.getStartedJobsList()) {
        RequestChecks.text("startedJobs.jobType", j.getJobTypeBytes(), RequestChecks.MAX_ID_CHARS);
        RequestChecks.unsignedFields("startedJobs", j);
      }
      RequestChecks.count("predictionsInUse", req.getPredictionsInUseCount(),
          RequestChecks.MAX_JOBS_PER_HEARTBEAT);
      for (JobSpacePredictionProto p : req.getPredictionsInUseList()) {
        RequestChecks.text("predictionsInUse.jobType", p.getJobTypeBytes(),
            RequestChecks.MAX_ID_CHARS);
        RequestChecks.unsignedFields("predictionsInUse", p);
      }
      RequestChecks.count("datasets", req.getDatasetsCount(),
          RequestChecks.MAX_DATASETS_PER_HEARTBEAT);
      for (DatasetCountersProto d : req.getDatasetsList()) {
        RequestChecks.datasetCounters("datasets", d);
      }
      gate.checkCall("heartbeat", req.getSlaveId());
    } catch (RequestRefusedException e) {
      throw new ServiceException(e);
    }
    if (!registry.heartbeat(req.getSlaveId(), req.getSpace(), req.getCounters(),
        req.getPredictionsInUseList())) {
      return HeartbeatResponseProto.newBuilder().setReregister(true).build();
    }
    arbitrator.onCounters(req.getSlaveId(), req.getCounters().getSsdBytesWritten(),
        req.getSpace().getInputCacheCapacity());
    if (req.getFinishedJobsCount() > 0) {
      recordFinishedJobs(req.getSlaveId(), req.getFinishedJobsList());
    }
    if (req.getDatasetsCount() > 0) {
      arbitrator.onDatasetFigures(req.getSlaveId(), req.getDatasetsList());
    }
    return HeartbeatResponseProto.newBuilder()
        .addAllEvict(ProtoConverters.toProtos(arbitrator.takeEvictions(req.getSlaveId())))
        .addAllPrefetch(prefetch.take(req.getSlaveId()))
        .addAllPredictions(predict(req.getStartedJobsList(), req.getSpace().getCapacity()))
        .setReturnVolumes(registry.takeReturnVolumes(req.getSlaveId()))
        .build();
  }

  /**
   * The Dynamic Space Manager's predicted localized need of each job that started on a slave of
   * {@code capacity} bytes of SSD, and whether it comes from history.
   */
  private List<JobSpacePredictionProto> predict(List<JobSpaceQueryProto> jobs, long capacity) {
    List<JobSpacePredictionProto> out = new ArrayList<>(jobs.size());
    for (JobSpaceQueryProto j : jobs) {
      SpaceSplit split = spaceManager.predict(j.getJobType(), j.getInputBytes(), capacity);
      out.add(JobSpacePredictionProto.newBuilder().setJobType(j.getJobType())
          .setInputBytes(j.getInputBytes()).setLocalizedBytes(split.localizedBytes())
          .setFromHistory(split.basis() != SpaceSplit.Basis.DEFAULT_FRACTION).build());
    }
    return out;
  }

  /** Records jobs' localized space in the history and saves it; a failed save is only logged. */
  private void recordFinishedJobs(String slaveId, List<JobSpaceUsageProto> jobs) {
    for (JobSpaceUsageProto j : jobs) {
      spaceManager.record(j.getJobType(), j.getInputBytes(), j.getLocalizedBytes());
      LOG.debug("Slave {}: job type {} with {} input bytes held {} localized bytes", slaveId,
          j.getJobType(), j.getInputBytes(), j.getLocalizedBytes());
    }
    try {
      spaceManager.save();
    } catch (IOException e) {
      LOG.warn("Could not save the space history: {}", e.toString());
    }
  }

  @Override
  public BlockReportResponseProto blockReport(RpcController c, BlockReportRequestProto req)
      throws ServiceException {
    checkSlave("blockReport", req.getSlaveIdBytes());
    if (!registry.isRegistered(req.getSlaveId())) {
      return BlockReportResponseProto.newBuilder().setReregister(true).build();
    }
    arbitrator.onBlockReport(req.getSlaveId(), validKeys(req.getSlaveId(), req.getCachedList()),
        validKeys(req.getSlaveId(), req.getRemovedList()));
    return BlockReportResponseProto.getDefaultInstance();
  }

  @Override
  public HitReportResponseProto reportHits(RpcController c, HitReportRequestProto req)
      throws ServiceException {
    checkSlave("reportHits", req.getSlaveIdBytes());
    if (!registry.isRegistered(req.getSlaveId())) {
      return HitReportResponseProto.newBuilder().setReregister(true).build();
    }
    long now = wallClock.getAsLong();
    List<BlockAccess> hits = new ArrayList<>(req.getHitsCount());
    RequestRefusedException first = null;
    for (BlockAccessProto p : req.getHitsList()) {
      try {
        hits.add(toAccess(req.getSlaveId(), p, now));
      } catch (RequestRefusedException e) {
        first = first != null ? first : e;
      }
    }
    skipped(req.getSlaveId(), "hit", req.getHitsCount() - hits.size(), first);
    arbitrator.onHits(hits);
    return HitReportResponseProto.getDefaultInstance();
  }

  @Override
  public ReplaceResponseProto requestReplace(RpcController c, ReplaceRequestProto req)
      throws ServiceException {
    checkSlave("requestReplace", req.getSlaveIdBytes());
    if (!registry.isRegistered(req.getSlaveId())) {
      return ReplaceResponseProto.newBuilder().setAdmitted(false).setReason("UNKNOWN_SLAVE")
          .setReregister(true).build();
    }
    BlockAccess access;
    try {
      access = toAccess(req.getSlaveId(), req.getAccess(), wallClock.getAsLong());
      RequestChecks.uint64("freeBytes", req.getFreeBytes(), 0, Long.MAX_VALUE);
    } catch (RequestRefusedException e) {
      throw new ServiceException(e);
    }
    CacheDecision d = arbitrator.onReplaceRequest(access, req.getFreeBytes(), req.getForce(),
        blockPath(req));
    return ReplaceResponseProto.newBuilder().setAdmitted(d.admitted())
        .setReason(d.reason().name()).addAllEvict(ProtoConverters.toProtos(d.evict())).build();
  }

  @Override
  public ReclaimResponseProto requestReclaim(RpcController c, ReclaimRequestProto req)
      throws ServiceException {
    checkSlave("requestReclaim", req.getSlaveIdBytes());
    Optional<SpaceReportProto> space = registry.space(req.getSlaveId());
    if (space.isEmpty()) {
      return ReclaimResponseProto.newBuilder().setReregister(true).build();
    }
    try {
      // A slave never lacks more than its whole SSD; more would exclude every dataset.
      RequestChecks.uint64("bytes", req.getBytes(), 0, space.get().getCapacity());
    } catch (RequestRefusedException e) {
      throw new ServiceException(e);
    }
    List<BlockKey> evict = arbitrator.onReclaimRequest(req.getSlaveId(), req.getBytes());
    LOG.info("Slave {} needs {} Input Cache bytes for localized data: {} blocks to evict",
        req.getSlaveId(), req.getBytes(), evict.size());
    return ReclaimResponseProto.newBuilder().addAllEvict(ProtoConverters.toProtos(evict)).build();
  }

  @Override
  public UnregisterSlaveResponseProto unregisterSlave(RpcController c,
      UnregisterSlaveRequestProto req) throws ServiceException {
    checkSlave("unregisterSlave", req.getSlaveIdBytes());
    boolean was = registry.remove(req.getSlaveId());
    if (was) {
      arbitrator.onSlaveLost(req.getSlaveId());
      prefetch.forget(req.getSlaveId());
      LOG.info("Slave {} is shutting down: unregistered, its blocks forgotten", req.getSlaveId());
    }
    return UnregisterSlaveResponseProto.newBuilder().setWasRegistered(was).build();
  }

  private static void slaveId(ByteString raw) throws RequestRefusedException {
    RequestChecks.text("slaveId", raw, RequestChecks.MAX_ID_CHARS);
  }

  /** Refuses a malformed slave id, and a call under an id from anyone but its registrant. */
  private void checkSlave(String call, ByteString raw) throws ServiceException {
    try {
      slaveId(raw);
      gate.checkCall(call, raw.toStringUtf8());
    } catch (RequestRefusedException e) {
      throw new ServiceException(e);
    }
  }

  /**
   * The file the request names for its block, which the slave found the block in at the NameNode
   * before asking (a slave is a daemon the master authenticated); a path no dataset holds when the
   * request names none, so that the arbitrator refuses the block.
   */
  private static String blockPath(ReplaceRequestProto req) throws ServiceException {
    if (!req.hasPath()) {
      return UNKNOWN_FILE;
    }
    try {
      RequestChecks.uint64("offset", req.getOffset(), 0, Long.MAX_VALUE);
      return RequestChecks.text("path", req.getPathBytes(), RequestChecks.MAX_PATH_CHARS);
    } catch (RequestRefusedException e) {
      throw new ServiceException(e);
    }
  }

  private static BlockAccess toAccess(String slaveId, BlockAccessProto p, long now)
      throws RequestRefusedException {
    return new BlockAccess(slaveId, RequestChecks.access(p), p.getBlockBytes(), p.getDatasetId(),
        p.getDatasetBlocks(), p.getDatasetBytes(), p.getJobId(), now);
  }

  /** The valid keys of a block report; the others are skipped and counted. */
  private List<BlockKey> validKeys(String slaveId, List<BlockKeyProto> protos) {
    List<BlockKey> keys = new ArrayList<>(protos.size());
    RequestRefusedException first = null;
    for (BlockKeyProto p : protos) {
      try {
        keys.add(RequestChecks.blockKey("block", p));
      } catch (RequestRefusedException e) {
        first = first != null ? first : e;
      }
    }
    skipped(slaveId, "block", protos.size() - keys.size(), first);
    return keys;
  }

  private void skipped(String slaveId, String report, int items, RequestRefusedException first) {
    if (items > 0) {
      arbitrator.stats().invalidReportItems(items);
      LOG.warn("Skipped {} invalid item(s) of a {} report from slave {}; the first: {}", items,
          report, slaveId, first.getMessage());
    }
  }
}
