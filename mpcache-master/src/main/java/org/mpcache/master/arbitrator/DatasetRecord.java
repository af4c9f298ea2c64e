package org.mpcache.master.arbitrator;

import java.util.Comparator;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import org.mpcache.common.proto.AdminProtos.AdmissionVerdictProto;
import org.mpcache.common.proto.AdminProtos.DatasetStatusProto;
import org.mpcache.common.proto.AdminProtos.EvictionRecordProto;
import org.mpcache.common.proto.AdminProtos.VerdictCountProto;
import org.mpcache.common.proto.MasterStateProtos.DatasetStateProto;
import org.mpcache.master.status.EvictionCause;

/**
 * What the master knows of one dataset, its one record: the cache policy's terms (its size in
 * blocks as the policy counts it, access counts and stamps, the terms of its priority, paper
 * Equations 1-2 or a baseline's, and its cached admission verdict), and, for operators, its
 * {@link History}: the size and last access readers reported, the admission verdicts and the last
 * eviction. Where its blocks are is the {@link PlacementIndex}; the records live in its
 * {@link DatasetRecords}. A dataset policy uses the terms it needs while it {@linkplain #tracked
 * tracks} the dataset, and forgets them ({@link #untrack}) when it would have dropped the dataset;
 * the block-granularity baselines use none. The history is created at the first event operators
 * see, so a policy run without operators (the simulator) pays nothing for it.
 *
 * <p>Not thread-safe: the Replace Arbitrator's lock guards it, as it guards the index.
 */
public final class DatasetRecord {
  /** Orders the priority queue: lowest priority first, ties by id so the order is total. */
  static final Comparator<DatasetRecord> BY_PRIORITY = (x, y) -> {
    int c = Double.compare(x.priority, y.priority);
    return c != 0 ? c : x.id.compareTo(y.id);
  };

  final String id;
  /** Whether the policy keeps terms for the dataset; the fields below mean nothing otherwise. */
  boolean tracked;
  /**
   * Size(jd): the blocks a job needs whole, the set its jobs read, not the whole path: the blocks
   * the previous access read, or the current one if it has read more, at most {@code
   * pathBlocks}; {@code pathBlocks} itself until an access by a known job has ended (see {@link
   * #sizeFromReads}). Errs high: a block read twice by one job (a split across a block boundary)
   * counts twice, and a dataset's first access is sized by its whole path.
   */
  int size;
  /**
   * The dataset's blocks as readers report them (the paths' sizes): the largest estimate since
   * the policy began to track it (the history's size may be larger: it also counts reads the
   * policy did not).
   */
  int pathBlocks;
  /**
   * The dataset's bytes as readers report them (the paths' lengths), the largest report since
   * the policy began to track it; 0 while no reader has measured them.
   */
  long pathBytes;
  /** The blocks the previous access by a known job read; 0 when none is known. */
  int lastReadBlocks;
  /** The blocks the current access has read so far (known jobs only). */
  int readBlocks;
  /** Dataset accesses, as the policy counts them (kept, aged or forgotten with the record). */
  long accesses;
  /**
   * Blocks_Access(jd): block accesses since the dataset last entered the main cache (mpCache
   * starts it with the accesses the auxiliary cache remembered, counted as whole reads).
   */
  long blocksAccess;
  /** Whether every block of the dataset is cached (the Full term applies). */
  boolean full;
  /**
   * Whether the dataset is in mpCache's main cache, its priority queue: set and cleared only
   * with the queue's own membership, so that asking costs no search of the queue.
   */
  boolean queued;
  /** The Clock value the priority was last computed with. */
  double clockBase;
  /**
   * Pr(jd) for mpCache (the queue's key, changed only while the dataset is out of the queue), or a
   * baseline's priority ({@link GdsfPolicy}).
   */
  double priority;
  /** The number of dataset accesses (cluster-wide) at this dataset's last access; 0: never. */
  long lastAccessSeq;
  /** Whether the dataset was in the auxiliary cache when its current access began. */
  boolean wasInAuxiliary;
  /**
   * Whether its previous access, remembered by the auxiliary cache, was within the write
   * budget's window when the current access began (a write-budget admission needs it).
   */
  boolean seenRecently;
  /**
   * Whether every block was cached when the dataset was last ordered among victim candidates: a
   * sort key taken once per ordering, not looked up in the index at every comparison.
   */
  boolean completeWhenOrdered;
  /** The index's tallies of the dataset as last found (the index checks they are current). */
  PlacementIndex.Held held;
  /** The job whose access the policy counted last ("" unknown, null none). */
  String countedJob;
  /** The {@code lastAccessSeq} of the access whose admission verdict {@code verdict} holds. */
  long verdictSeq;
  /** The admission verdict of that access: null admitted, else why not. */
  CacheDecision.Reason verdict;
  /** For operators; null until the first event they see. */
  private History history;

  DatasetRecord(String id) {
    this.id = id;
  }

  /** The dataset's id: its qualified input paths. */
  public String id() {
    return id;
  }

  /** The policy starts tracking the dataset, with fresh terms and {@code size} blocks. */
  void track(int size) {
    tracked = true;
    this.size = size;
    this.pathBlocks = size;
  }

  /**
   * Size(jd) from what the dataset's jobs read: a job reads the blocks it needs whole, and the
   * next job over the same input mostly reads the same ones (Hive and Spark jobs read the same
   * partitions or prefix of a large table), so the previous access's blocks predict them, and the
   * current access's once it has read more. Until one access by a known job has ended, the paths'
   * size. The docs (docs/policy.md, "The dataset a job needs whole") give the reasons.
   */
  int sizeFromReads() {
    if (lastReadBlocks == 0) {
      return pathBlocks;
    }
    return Math.max(1, Math.min(pathBlocks, Math.max(lastReadBlocks, readBlocks)));
  }

  /**
   * The bytes of {@code blocks} of the dataset's blocks: the paths' mean block length when readers
   * measured the paths, else {@code blockBytes} each. A dataset's last block of a file is mostly
   * short (48 MiB and a line in 16 MiB blocks is four blocks, not 64 MiB), so pricing every block
   * as a full one would refuse a dataset the cache holds.
   */
  long bytesOf(int blocks, long blockBytes) {
    long perBlock = pathBytes > 0 ? (pathBytes + pathBlocks - 1) / pathBlocks : blockBytes;
    return blocks * perBlock;
  }

  /** The policy forgets the dataset: its terms start over if it is tracked again. */
  void untrack() {
    tracked = false;
    size = 0;
    pathBlocks = 0;
    pathBytes = 0;
    lastReadBlocks = 0;
    readBlocks = 0;
    accesses = 0;
    blocksAccess = 0;
    full = false;
    clockBase = 0;
    priority = 0;
    lastAccessSeq = 0;
    wasInAuxiliary = false;
    seenRecently = false;
    countedJob = null;
    verdictSeq = 0;
    verdict = null;
  }

  /** Fr(jd) = Blocks_Access / Size (Equation 1). */
  double frequency() {
    return blocksAccess / (double) size;
  }

  /**
   * Pr(jd) = Full + Clock + Fr / Size (Equation 2), or {@code Fr / Size^b} with the parameters'
   * size exponent {@code b}.
   */
  double computePriority(PolicyParameters params) {
    return (full ? params.fullBonus() : 0) + clockBase + frequency() / params.sizeWeight(size);
  }

  /** The operators' history, null when they have seen nothing of the dataset. */
  public History history() {
    return history;
  }

  /** The operators' history, created with {@code size} blocks when there is none yet. */
  public History history(int size) {
    if (history == null) {
      history = new History(size);
    }
    return history;
  }

  /**
   * The record as plain data for the master's checkpoint: the policy's terms and the history's
   * last access and job.
   */
  DatasetStateProto toProto() {
    DatasetStateProto.Builder b = DatasetStateProto.newBuilder().setId(id).setSize(size)
        .setAccesses(accesses).setBlocksAccess(blocksAccess).setFull(full).setClockBase(clockBase)
        .setPriority(priority).setLastAccessSeq(lastAccessSeq)
        .setWasInAuxiliary(wasInAuxiliary).setVerdictSeq(verdictSeq).setPathBlocks(pathBlocks)
        .setLastReadBlocks(lastReadBlocks).setReadBlocks(readBlocks);
    if (countedJob != null) {
      b.setCountedJob(countedJob);
    }
    if (verdict != null) {
      b.setVerdict(verdict.name());
    }
    if (history != null) {
      b.setLastAccessMs(history.lastAccessMs).setLastJob(history.lastJob);
    }
    return b.build();
  }

  /**
   * A tracked record from a checkpoint; it has a history when the checkpoint recorded a read.
   *
   * @throws IllegalArgumentException naming the dataset and the field out of range
   */
  static DatasetRecord fromProto(DatasetStateProto p) {
    if (p.getId().isEmpty()) {
      throw new IllegalArgumentException("a dataset record has an empty id");
    }
    DatasetRecord d = new DatasetRecord(p.getId());
    d.track(p.getSize());
    // A checkpoint written before reads were counted keeps Size(jd) alone: it stands for the
    // last access's reads until the next access ends, and the paths' size grows back as readers
    // report it.
    d.pathBlocks = p.hasPathBlocks() ? p.getPathBlocks() : d.size;
    d.lastReadBlocks = p.hasLastReadBlocks() ? p.getLastReadBlocks() : d.size;
    d.readBlocks = p.getReadBlocks();
    d.accesses = p.getAccesses();
    d.blocksAccess = p.getBlocksAccess();
    d.full = p.getFull();
    d.clockBase = p.getClockBase();
    d.priority = p.getPriority();
    d.lastAccessSeq = p.getLastAccessSeq();
    d.wasInAuxiliary = p.getWasInAuxiliary();
    d.countedJob = p.hasCountedJob() ? p.getCountedJob() : null;
    d.verdictSeq = p.getVerdictSeq();
    String bad = d.size < 1 ? "size" : d.pathBlocks < d.size ? "pathBlocks"
        : d.lastReadBlocks < 0 ? "lastReadBlocks" : d.readBlocks < 0 ? "readBlocks"
        : d.accesses < 0 ? "accesses"
        : d.blocksAccess < 0 ? "blocksAccess" : d.lastAccessSeq < 0 ? "lastAccessSeq"
        : d.verdictSeq < 0 ? "verdictSeq"
        : !Double.isFinite(d.clockBase) ? "clockBase" : !Double.isFinite(d.priority) ? "priority"
        : p.getLastAccessMs() < 0 ? "lastAccessMs" : null;
    if (bad != null) {
      throw new IllegalArgumentException("dataset " + d.id + ": field " + bad + " out of range");
    }
    if (p.hasVerdict()) {
      try {
        d.verdict = CacheDecision.Reason.valueOf(p.getVerdict());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("dataset " + d.id + ": field verdict names no reason: "
            + p.getVerdict(), e);
      }
    }
    if (p.hasLastAccessMs() || p.hasLastJob()) {
      History h = d.history(d.size);
      h.lastAccessMs = p.getLastAccessMs();
      h.lastJob = p.getLastJob();
    }
    return d;
  }

  @Override
  public String toString() {
    return id + "{size=" + size + ", access=" + blocksAccess + ", full=" + full + ", pr="
        + priority + "}";
  }

  /**
   * What operators see of a dataset beside its placement and standing ({@code mpcache admin
   * datasets}, {@code explain}): its size and last access as readers reported them, the Replace
   * Arbitrator's last admission verdict and a count per verdict reason, the last eviction with
   * its cause, and the slaves' figures ({@link DatasetFigures}). Its size does not grow with the
   * dataset's history: only the last verdict and the last eviction are kept, and one run of
   * figures per slave.
   *
   * <p>Not thread-safe: guarded as its record is.
   */
  public static final class History {
    private int size;
    private long lastAccessMs;
    private String lastJob = "";
    private CacheDecision.Reason lastReason;
    private boolean lastAdmitted;
    private long lastVerdictMs;
    private String lastVerdictSlave;
    private String lastVerdictJob;
    private final Map<CacheDecision.Reason, Long> verdicts =
        new EnumMap<>(CacheDecision.Reason.class);
    private EvictionCause lastEvictionCause;
    private long lastEvictionMs;
    private int lastEvictionBlocks;
    private String lastEvictionDetail;
    /** What slaves counted for the dataset; null until the first report. */
    private DatasetFigures figures;

    private History(int size) {
      this.size = size;
    }

    /** A read of the dataset: its size grows to the estimate; a known job is remembered. */
    public void access(BlockAccess a) {
      grow(a.datasetBlocks());
      lastAccessMs = Math.max(lastAccessMs, a.timeMillis());
      if (!a.jobId().isEmpty()) {
        lastJob = a.jobId();
      }
    }

    /** The size grows to {@code blocks} if that is larger. */
    public void grow(int blocks) {
      size = Math.max(size, blocks);
    }

    /** The Replace Arbitrator answered a request for the dataset with {@code d}. */
    public void verdict(CacheDecision d, String slaveId, String jobId, long now) {
      lastReason = d.reason();
      lastAdmitted = d.admitted();
      lastVerdictMs = now;
      lastVerdictSlave = slaveId;
      lastVerdictJob = jobId;
      verdicts.merge(d.reason(), 1L, Long::sum);
    }

    /** The wall clock of the last read the master heard of; 0 when none. */
    public long lastAccessMs() {
      return lastAccessMs;
    }

    /** The wall clock of the last eviction; 0 when none. */
    public long lastEvictionMs() {
      return lastEvictionMs;
    }

    /** The cause of the last eviction, null when none. */
    public EvictionCause lastEvictionCause() {
      return lastEvictionCause;
    }

    /** The detail of the last eviction, null when none. */
    public String lastEvictionDetail() {
      return lastEvictionDetail;
    }

    /**
     * Notes that {@code blocks} replicas were ordered out for {@code cause}: a run of orders with
     * the same cause and detail adds up into one eviction record.
     */
    public void evicted(EvictionCause cause, String detail, int blocks, long now) {
      if (cause == lastEvictionCause && Objects.equals(detail, lastEvictionDetail)
          && now - lastEvictionMs < 60_000) {
        lastEvictionBlocks += blocks;
      } else {
        lastEvictionCause = cause;
        lastEvictionDetail = detail;
        lastEvictionBlocks = blocks;
      }
      lastEvictionMs = now;
    }

    /** The size (in blocks) operators are shown. */
    public int size() {
      return size;
    }

    /** What slaves counted for the dataset, created empty at the first call. */
    public DatasetFigures figures() {
      if (figures == null) {
        figures = new DatasetFigures();
      }
      return figures;
    }

    /** Whether a slave reported figures for the dataset. */
    public boolean hasFigures() {
      return figures != null;
    }

    /**
     * Adds what the history knows to a dataset's status: size, last access, verdicts, eviction,
     * and the slaves' figures.
     */
    public void describe(DatasetStatusProto.Builder p) {
      p.setSizeBlocks(size).setLastAccessMs(lastAccessMs).setLastJob(lastJob);
      // Zeros before any report, so that every status carries the figures' fields.
      (figures != null ? figures : new DatasetFigures()).describe(p);
      if (lastReason != null) {
        p.setLastVerdict(AdmissionVerdictProto.newBuilder().setReason(lastReason.name())
            .setAdmitted(lastAdmitted).setTimeMs(lastVerdictMs).setSlaveId(lastVerdictSlave)
            .setJobId(lastVerdictJob));
      }
      for (Map.Entry<CacheDecision.Reason, Long> e : verdicts.entrySet()) {
        p.addVerdicts(VerdictCountProto.newBuilder().setReason(e.getKey().name())
            .setCount(e.getValue()));
      }
      if (lastEvictionCause != null) {
        EvictionRecordProto.Builder e = EvictionRecordProto.newBuilder()
            .setCause(lastEvictionCause.name()).setTimeMs(lastEvictionMs)
            .setBlocks(lastEvictionBlocks);
        if (lastEvictionDetail != null) {
          e.setDetail(lastEvictionDetail);
        }
        p.setLastEviction(e);
      }
    }
  }
}
