package org.mpcache.master.admin;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import javax.annotation.concurrent.GuardedBy;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.mpcache.common.BlockKey;
import org.mpcache.common.SlaveRendezvous;
import org.mpcache.common.proto.AdminProtos.PrefetchResponseProto;
import org.mpcache.common.proto.AdminProtos.SlaveBlocksProto;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveInfoProto;
import org.mpcache.common.proto.SlaveMasterProtos.PrefetchCommandProto;
import org.mpcache.common.protocolPB.ProtoConverters;
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
 * <p>Encrypted and erasure-coded files, and the last block of a file being written, are skipped,
 * as the client skips them (an encrypted file's plaintext never goes to an SSD).
 *
 * <p>The whole path is one dataset, named by its qualified path: the same id a job reading that
 * path as its input reports.
 *
 * <p>Thread-safe: planning runs on the caller's thread; the queues are guarded by this object.
 */
public final class PrefetchPlanner {

  /** Opens the master's HDFS client when the first prefetch needs it. */
  @FunctionalInterface
  public interface FileSystemSource {
    FileSystem get() throws IOException;
  }

  private final FileSystemSource fileSystem;
  private final SlaveRegistry registry;
  private final ReplaceArbitrator arbitrator;
  private final ArbitratorStats stats;
  private final AtomicLong sequence = new AtomicLong();
  @GuardedBy("this")
  private final Map<String, List<PrefetchCommandProto>> queued = new HashMap<>();

  public PrefetchPlanner(FileSystemSource fileSystem, SlaveRegistry registry,
      ReplaceArbitrator arbitrator) {
    this.fileSystem = fileSystem;
    this.registry = registry;
    this.arbitrator = arbitrator;
    this.stats = arbitrator.stats();
  }

  /**
   * Queues the blocks of {@code path} on slaves.
   *
   * @throws FileNotFoundException when the path does not exist
   * @throws IOException when HDFS cannot be read or the file system is not HDFS
   */
  public PrefetchResponseProto plan(String path, boolean force) throws IOException {
    FileSystem fs = fileSystem.get();
    if (!(fs instanceof DistributedFileSystem)) {
      throw new IOException("prefetch needs HDFS; the master's default file system is "
          + fs.getUri() + " (set fs.defaultFS in the master's core-site.xml)");
    }
    DistributedFileSystem dfs = (DistributedFileSystem) fs;
    Path root = dfs.makeQualified(new Path(path));
    FileStatus st = dfs.getFileStatus(root);
    List<FileStatus> files = new ArrayList<>();
    if (st.isDirectory()) {
      RemoteIterator<LocatedFileStatus> it = dfs.listFiles(root, true);
      while (it.hasNext()) {
        files.add(it.next());
      }
    } else {
      files.add(st);
    }
    Map<FileStatus, List<LocatedBlock>> blocks = new LinkedHashMap<>();
    int total = 0;
    for (FileStatus f : files) {
      if (f.isEncrypted()) {
        continue;
      }
      LocatedBlocks lbs = dfs.getClient().getLocatedBlocks(f.getPath().toUri().getPath(), 0,
          f.getLen());
      if (lbs == null || lbs.getErasureCodingPolicy() != null) {
        continue;
      }
      List<LocatedBlock> list = new ArrayList<>(lbs.getLocatedBlocks());
      if (lbs.isUnderConstruction() && !list.isEmpty()) {
        list.remove(list.size() - 1);
      }
      blocks.put(f, list);
      total += list.size();
    }
    String datasetId = root.toString();
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
    int cached = 0;
    int unplaced = 0;
    for (Map.Entry<FileStatus, List<LocatedBlock>> e : blocks.entrySet()) {
      for (LocatedBlock lb : e.getValue()) {
        ExtendedBlock b = lb.getBlock();
        BlockKey key = new BlockKey(b.getBlockPoolId(), b.getBlockId(), b.getGenerationStamp());
        if (!arbitrator.holders(key).isEmpty()) {
          cached++;
          continue;
        }
        String slave = choose(lb, slaveByDatanode, serving, plan);
        if (slave == null) {
          unplaced++;
          continue;
        }
        plan.computeIfAbsent(slave, s -> new ArrayList<>()).add(PrefetchCommandProto.newBuilder()
            .setAccess(BlockAccessProto.newBuilder().setBlock(ProtoConverters.toProto(key))
                .setBlockBytes(b.getNumBytes()).setDatasetId(datasetId)
                .setDatasetBlocks(Math.max(1, total)).setJobId(jobId))
            .setPath(e.getKey().getPath().toString()).setOffset(lb.getStartOffset())
            .setForce(force).build());
      }
    }
    PrefetchResponseProto.Builder r = PrefetchResponseProto.newBuilder().setDatasetId(datasetId)
        .setFiles(files.size()).setBlocks(total).setAlreadyCached(cached).setUnplaced(unplaced);
    int queuedNow = 0;
    synchronized (this) {
      for (Map.Entry<String, List<PrefetchCommandProto>> e : plan.entrySet()) {
        queued.computeIfAbsent(e.getKey(), s -> new ArrayList<>()).addAll(e.getValue());
        long bytes = 0;
        for (PrefetchCommandProto c : e.getValue()) {
          bytes += c.getAccess().getBlockBytes();
        }
        r.addAssigned(SlaveBlocksProto.newBuilder().setSlaveId(e.getKey())
            .setBlocks(e.getValue().size()).setBytes(bytes));
        queuedNow += e.getValue().size();
      }
    }
    stats.prefetchQueued(queuedNow);
    return r.setQueued(queuedNow).build();
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
    return q == null ? List.of() : q;
  }

  /** Drops the commands of a slave that is gone. */
  public synchronized void forget(String slaveId) {
    queued.remove(slaveId);
  }
}
