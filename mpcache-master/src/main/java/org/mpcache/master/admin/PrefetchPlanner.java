package org.mpcache.master.admin;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import javax.annotation.concurrent.GuardedBy;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.functional.RemoteIterators;
import org.mpcache.common.BlockKey;
import org.mpcache.common.SlaveRendezvous;
import org.mpcache.common.proto.AdminProtos.PrefetchResponseProto;
import org.mpcache.common.proto.AdminProtos.SlaveBlocksProto;
import org.mpcache.common.proto.MasterStateProtos.PrefetchQueueProto;
import org.mpcache.common.proto.MasterStateProtos.QueuedPrefetchProto;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveInfoProto;
import org.mpcache.common.proto.SlaveMasterProtos.PrefetchCommandProto;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.common.protocolPB.RequestRefusedException;
import org.mpcache.master.MasterConfigKeys;
import org.mpcache.master.arbitrator.ReplaceArbitrator;
import org.mpcache.master.registry.SlaveRegistry;
import org.mpcache.master.status.ArbitratorStats;

/**
 * Plans {@code mpcache admin prefetch}: it lists the blocks of an HDFS file or directory, gives
 * each block not yet cached to a serving slave (of those beside a DataNode holding a replica, the
 * one readers will ask; else the one given fewest blocks so far) and queues a
 * {@link PrefetchCommandProto} for it. The slave receives its commands with its next heartbeat
 * (as a DataNode receives its cache commands), asks the Replace Arbitrator as for any miss
 * (unless forced), reads the block from HDFS itself and caches it.
 *
 * <p>The listing runs as the caller: the master acts for the caller through a proxy user, so the
 * NameNode checks the caller's permissions, and a path the caller may not read is refused with
 * HDFS's {@link org.apache.hadoop.security.AccessControlException}. The master's own user needs
 * no impersonation. A request is all or nothing: it is refused, with nothing queued, when the path
 * holds more than {@code mpcache.master.prefetch.max-files} files (the listing is lazy and stops
 * there, so {@code /} never loads the namespace into memory) or when its blocks not yet cached
 * would take the queue past {@code mpcache.master.prefetch.queue.max-blocks}.
 *
 * <p>Encrypted and erasure-coded files, and the last block of a file being written, are skipped,
 * as the client skips them (an encrypted file's plaintext never goes to an SSD).
 *
 * <p>The whole path is one dataset, named by its qualified path: the same id a job reading that
 * path as its input reports.
 *
 * <p>Thread-safe: planning runs on the caller's thread, holding no lock while it talks to HDFS;
 * the queues are guarded by this object.
 */
public final class PrefetchPlanner {

  /**
   * Opens a new HDFS client as the current user (the planner calls it as the user the listing
   * runs as, and closes the client).
   */
  @FunctionalInterface
  public interface FileSystemSource {
    FileSystem open() throws IOException;
  }

  /** A block to queue, with the file it belongs to. */
  private static final class Pending {
    final Path file;
    final LocatedBlock block;

    Pending(Path file, LocatedBlock block) {
      this.file = file;
      this.block = block;
    }
  }

  /** What the listing found: the blocks to queue and the counts the answer reports. */
  private static final class Listing {
    final String datasetId;
    final List<Pending> pending = new ArrayList<>();
    int files;
    int blocks;
    /** The listed blocks' bytes, so the master prices the dataset by them, not whole blocks. */
    long bytes;
    int cached;

    Listing(String datasetId) {
      this.datasetId = datasetId;
    }
  }

  private final FileSystemSource fileSystem;
  private final SlaveRegistry registry;
  private final ReplaceArbitrator arbitrator;
  private final ArbitratorStats stats;
  private final int maxFiles;
  private final int maxQueuedBlocks;
  private final AtomicLong sequence = new AtomicLong();
  @GuardedBy("this")
  private final Map<String, List<PrefetchCommandProto>> queued = new HashMap<>();
  @GuardedBy("this")
  private int queuedBlocks;

  /**
   * @param maxFiles the most files one request may cover
   * @param maxQueuedBlocks the most commands queued for all slaves together
   */
  public PrefetchPlanner(FileSystemSource fileSystem, SlaveRegistry registry,
      ReplaceArbitrator arbitrator, int maxFiles, int maxQueuedBlocks) {
    this.fileSystem = fileSystem;
    this.registry = registry;
    this.arbitrator = arbitrator;
    this.stats = arbitrator.stats();
    this.maxFiles = maxFiles;
    this.maxQueuedBlocks = maxQueuedBlocks;
  }

  /**
   * Queues the blocks of {@code path} on slaves, listing them as {@code caller}.
   *
   * @throws FileNotFoundException when the path does not exist
   * @throws org.apache.hadoop.security.AccessControlException when HDFS refuses the caller
   * @throws RequestRefusedException when the path exceeds the file bound or the queue's room
   *     (nothing is queued)
   * @throws IOException when HDFS cannot be read or the file system is not HDFS
   */
  public PrefetchResponseProto plan(String path, boolean force, UserGroupInformation caller)
      throws IOException {
    Listing listing;
    try {
      listing = actingFor(caller).doAs((PrivilegedExceptionAction<Listing>) () -> {
        try (FileSystem fs = fileSystem.open()) {
          return list(fs, path);
        }
      });
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted listing " + path);
    }
    String jobId = "prefetch-" + sequence.incrementAndGet();
    Map<String, String> slaveByDatanode = new HashMap<>();
    List<String> serving = new ArrayList<>();
    for (SlaveInfoProto s : registry.servingSlaves()) {
      serving.add(s.getSlaveId());
      if (s.hasDatanodeAddress()) {
        slaveByDatanode.put(s.getDatanodeAddress(), s.getSlaveId());
      }
    }
    Map<String, List<PrefetchCommandProto>> plan = new TreeMap<>();
    int unplaced = 0;
    int planned = 0;
    for (Pending p : listing.pending) {
      String slave = choose(p.block, slaveByDatanode, serving, plan);
      if (slave == null) {
        unplaced++;
        continue;
      }
      ExtendedBlock b = p.block.getBlock();
      BlockKey key = new BlockKey(b.getBlockPoolId(), b.getBlockId(), b.getGenerationStamp());
      plan.computeIfAbsent(slave, s -> new ArrayList<>()).add(PrefetchCommandProto.newBuilder()
          .setAccess(BlockAccessProto.newBuilder().setBlock(ProtoConverters.toProto(key))
              .setBlockBytes(b.getNumBytes()).setDatasetId(listing.datasetId)
              .setDatasetBlocks(Math.max(1, listing.blocks))
              .setDatasetBytes(listing.bytes).setJobId(jobId))
          .setPath(p.file.toString()).setOffset(p.block.getStartOffset())
          .setForce(force).build());
      planned++;
    }
    PrefetchResponseProto.Builder r = PrefetchResponseProto.newBuilder()
        .setDatasetId(listing.datasetId).setFiles(listing.files).setBlocks(listing.blocks)
        .setAlreadyCached(listing.cached).setUnplaced(unplaced);
    synchronized (this) {
      if (queuedBlocks + planned > maxQueuedBlocks) {
        throw queueFull(listing.datasetId, Integer.toString(planned), queuedBlocks);
      }
      for (Map.Entry<String, List<PrefetchCommandProto>> e : plan.entrySet()) {
        queued.computeIfAbsent(e.getKey(), s -> new ArrayList<>()).addAll(e.getValue());
        long bytes = 0;
        for (PrefetchCommandProto c : e.getValue()) {
          bytes += c.getAccess().getBlockBytes();
        }
        r.addAssigned(SlaveBlocksProto.newBuilder().setSlaveId(e.getKey())
            .setBlocks(e.getValue().size()).setBytes(bytes));
      }
      queuedBlocks += planned;
    }
    stats.prefetchQueued(planned);
    return r.setQueued(planned).build();
  }

  /**
   * Who the listing runs as: the master's own login when the caller is the master's user, else
   * the master acting for the caller (which the NameNode allows through
   * {@code hadoop.proxyuser.<master user>.*}).
   */
  private static UserGroupInformation actingFor(UserGroupInformation caller)
      throws IOException {
    UserGroupInformation login = UserGroupInformation.getLoginUser();
    login.checkTGTAndReloginFromKeytab();
    if (caller.getRealUser() == null
        && caller.getShortUserName().equals(login.getShortUserName())) {
      return login;
    }
    return UserGroupInformation.createProxyUser(caller.getShortUserName(), login);
  }

  /** Lists the path's blocks lazily, stopping as soon as a bound is passed. */
  private Listing list(FileSystem fs, String path) throws IOException {
    if (!(fs instanceof DistributedFileSystem)) {
      throw new IOException("prefetch needs HDFS; the master's default file system is "
          + fs.getUri() + " (set fs.defaultFS in the master's core-site.xml)");
    }
    DistributedFileSystem dfs = (DistributedFileSystem) fs;
    Path root = dfs.makeQualified(new Path(path));
    FileStatus st = dfs.getFileStatus(root);
    Listing l = new Listing(root.toString());
    int room;
    int alreadyQueued;
    synchronized (this) {
      alreadyQueued = queuedBlocks;
      room = maxQueuedBlocks - queuedBlocks;
    }
    RemoteIterator<? extends FileStatus> files = st.isDirectory() ? dfs.listFiles(root, true)
        : RemoteIterators.remoteIteratorFromSingleton(st);
    while (files.hasNext()) {
      FileStatus f = files.next();
      if (++l.files > maxFiles) {
        throw new RequestRefusedException("Cannot prefetch " + l.datasetId + ": it holds more than "
            + maxFiles + " files (" + MasterConfigKeys.PREFETCH_MAX_FILES_KEY + "); prefetch a "
            + "part of it, or raise the key.");
      }
      if (f.isEncrypted()) {
        continue;
      }
      LocatedBlocks lbs = dfs.getClient().getLocatedBlocks(f.getPath().toUri().getPath(), 0,
          f.getLen());
      if (lbs == null || lbs.getErasureCodingPolicy() != null) {
        continue;
      }
      List<LocatedBlock> list = lbs.getLocatedBlocks();
      int usable = lbs.isUnderConstruction() ? list.size() - 1 : list.size();
      for (LocatedBlock lb : list.subList(0, Math.max(0, usable))) {
        l.blocks++;
        ExtendedBlock b = lb.getBlock();
        l.bytes += b.getNumBytes();
        if (!arbitrator.holders(new BlockKey(b.getBlockPoolId(), b.getBlockId(),
            b.getGenerationStamp())).isEmpty()) {
          l.cached++;
          continue;
        }
        l.pending.add(new Pending(f.getPath(), lb));
        if (l.pending.size() > room) {
          throw queueFull(l.datasetId, "more than " + room, alreadyQueued);
        }
      }
    }
    return l;
  }

  private RequestRefusedException queueFull(String datasetId, String blocks, int alreadyQueued) {
    return new RequestRefusedException("Cannot prefetch " + datasetId + ": queuing its blocks "
        + "not yet cached (" + blocks + ") would take the prefetch queue past "
        + MasterConfigKeys.PREFETCH_QUEUE_MAX_BLOCKS_KEY + " (" + maxQueuedBlocks + "; "
        + alreadyQueued + " queued for slaves now). Prefetch a part of it, try again once the "
        + "slaves have taken their commands (with their heartbeats), or raise the key.");
  }

  /**
   * Of the slaves beside a replica, the one readers will ask (the rendezvous winner, as the
   * client's {@code SlaveSelector} chooses); with none beside a replica, the serving slave given
   * fewest blocks by this plan.
   */
  private static String choose(LocatedBlock lb, Map<String, String> slaveByDatanode,
      List<String> serving, Map<String, List<PrefetchCommandProto>> plan) {
    String beside = null;
    long id = lb.getBlock().getBlockId();
    for (DatanodeInfo dn : lb.getLocations()) {
      String s = slaveByDatanode.get(dn.getXferAddr());
      if (s != null && (beside == null
          || SlaveRendezvous.score(id, s) > SlaveRendezvous.score(id, beside))) {
        beside = s;
      }
    }
    if (beside != null) {
      return beside;
    }
    String best = null;
    for (String s : serving) {
      if (best == null || plan.getOrDefault(s, List.of()).size()
          < plan.getOrDefault(best, List.of()).size()) {
        best = s;
      }
    }
    return best;
  }

  /** Takes the prefetch commands queued for a slave (sent with its heartbeat). */
  public synchronized List<PrefetchCommandProto> take(String slaveId) {
    List<PrefetchCommandProto> q = queued.remove(slaveId);
    if (q == null) {
      return List.of();
    }
    queuedBlocks -= q.size();
    return q;
  }

  /** The commands queued for slaves, per slave id (ordered), for the master's checkpoint. */
  public synchronized PrefetchQueueProto queueState() {
    PrefetchQueueProto.Builder b = PrefetchQueueProto.newBuilder().setSequence(sequence.get());
    for (Map.Entry<String, List<PrefetchCommandProto>> e : new TreeMap<>(queued).entrySet()) {
      b.addQueued(QueuedPrefetchProto.newBuilder().setSlaveId(e.getKey())
          .addAllCommands(e.getValue()));
    }
    return b.build();
  }

  /**
   * Queues again the commands of a restarted master's checkpoint, before slaves register: each
   * slave takes its own with its first heartbeats. Commands past
   * {@code mpcache.master.prefetch.queue.max-blocks} are dropped (their blocks are read from HDFS
   * as usual).
   *
   * @return the commands dropped
   */
  public synchronized int restore(PrefetchQueueProto state) {
    sequence.accumulateAndGet(state.getSequence(), Math::max);
    int dropped = 0;
    for (QueuedPrefetchProto q : state.getQueuedList()) {
      int room = Math.max(0, maxQueuedBlocks - queuedBlocks);
      List<PrefetchCommandProto> take = q.getCommandsList().subList(0,
          Math.min(room, q.getCommandsCount()));
      dropped += q.getCommandsCount() - take.size();
      if (!take.isEmpty()) {
        queued.computeIfAbsent(q.getSlaveId(), s -> new ArrayList<>()).addAll(take);
        queuedBlocks += take.size();
      }
    }
    return dropped;
  }

  /** Drops the commands of a slave that is gone. */
  public synchronized void forget(String slaveId) {
    take(slaveId);
  }
}
