package org.mpcache.yarn;

import java.io.File;
import java.io.IOException;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.split.JobSplit;
import org.apache.hadoop.mapreduce.split.SplitMetaInfoReader;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.yarn.api.ApplicationConstants;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.common.protocolPB.LocalizedGrant;
import org.mpcache.common.protocolPB.LocalizedJob;
import org.mpcache.common.protocolPB.LocalizedProtocol;
import org.mpcache.common.protocolPB.LocalizedProtocolClientSideTranslatorPB;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A task attempt's view of the SSD Localized Cache: asks the slave for room before each localized
 * file is written and says where the file goes (the attempt's application directory on the granted
 * SSD), or nothing, in which case the caller writes to the task's HDD dirs. A task never fails
 * because of the cache: a denial, a slave that is down or a call that times out all mean "HDD", and
 * after the first failed call the attempt stops asking. Each request also describes the job for the
 * master's Dynamic Space Manager: its type ({@link YarnIntegrationConfigKeys#JOB_TYPE_KEY}, or the
 * job's name) and its whole input size, the sum of its splits read once from the job's
 * {@code job.splitmetainfo} in the staging directory ({@code mapreduce.job.dir}); a job whose input
 * cannot be read that way is described as unknown. A grant is not enough: before it asks, and again
 * for the granted dir, the client checks that the SSD's filesystem really has the file's estimated
 * size plus {@link YarnIntegrationConfigKeys#SSD_MARGIN_BYTES_KEY} usable, and otherwise answers
 * "HDD". It calls the slave as {@link LocalizedTaskIdentity} says: on a Kerberized cluster, with a
 * block token of its job's files. Thread-safe: MapTask's spill thread and the reduce's fetchers
 * and mergers call it concurrently.
 */
final class LocalizedSpaceClient {
  private static final Logger LOG = LoggerFactory.getLogger(LocalizedSpaceClient.class);

  private final LocalizedProtocol slave;
  private final String applicationId;
  private final String containerId;
  private final String attemptId;
  private final double estimateFactor;
  private final List<String> ssdRoots;
  private final List<String> ssdAppDirs;
  private final Configuration conf;
  private final long marginBytes;
  /** {@link YarnIntegrationConfigKeys#SPILL_STEP_BYTES_KEY}; 0: estimates asked for whole. */
  private final long stepBytes;
  private final UsableSpace usableSpace;
  private volatile boolean unavailable;
  /**
   * The files placed on the SSD whose grant is still the caller's to settle, by path (no scheme):
   * the slave's directory the grant is in and the bytes it holds for the file (the estimate until
   * the file is written, then its length).
   */
  private final Map<String, FileGrant> files = new ConcurrentHashMap<>();
  /** The job as the first request described it; {@code null} until then. */
  private volatile LocalizedJob job;

  LocalizedSpaceClient(LocalizedProtocol slave, String applicationId, String containerId,
      String attemptId, double estimateFactor, List<String> ssdRoots, List<String> ssdAppDirs,
      Configuration conf) {
    this(slave, applicationId, containerId, attemptId, estimateFactor, ssdRoots, ssdAppDirs, conf,
        YarnIntegrationConfigKeys.SSD_MARGIN_BYTES_DEFAULT, UsableSpace.REAL);
  }

  /**
   * @param marginBytes the usable bytes a file must leave free on the SSD's filesystem
   * @param usableSpace the probe of a dir's usable bytes (the test seam; real otherwise)
   */
  LocalizedSpaceClient(LocalizedProtocol slave, String applicationId, String containerId,
      String attemptId, double estimateFactor, List<String> ssdRoots, List<String> ssdAppDirs,
      Configuration conf, long marginBytes, UsableSpace usableSpace) {
    this.conf = conf;
    this.marginBytes = marginBytes;
    this.stepBytes = conf.getLongBytes(YarnIntegrationConfigKeys.SPILL_STEP_BYTES_KEY,
        YarnIntegrationConfigKeys.SPILL_STEP_BYTES_DEFAULT);
    if (stepBytes < 0) {
      throw new IllegalArgumentException(YarnIntegrationConfigKeys.SPILL_STEP_BYTES_KEY + " is "
          + stepBytes + ": set the bytes of a spill's first room, at least 0 (0: its whole "
          + "estimate), e.g. 8m");
    }
    this.usableSpace = Objects.requireNonNull(usableSpace, "usableSpace");
    this.slave = slave;
    this.applicationId = applicationId;
    this.containerId = containerId;
    this.attemptId = attemptId;
    this.estimateFactor = estimateFactor;
    this.ssdRoots = List.copyOf(ssdRoots);
    this.ssdAppDirs = List.copyOf(ssdAppDirs);
    this.unavailable = slave == null || ssdAppDirs.isEmpty();
  }

  /**
   * The client of the task running in this JVM, from the container's environment and {@code conf}.
   * Also sets {@link YarnIntegrationConfigKeys#HDD_LOCAL_DIRS_KEY} in {@code conf} to the task's
   * local dirs that are not on the SSD. Without a container id (not under YARN) or a slave address
   * the client never grants.
   */
  static LocalizedSpaceClient forTask(Configuration conf, Map<String, String> env) {
    String[] localDirs = conf.getTrimmedStrings(MRConfig.LOCAL_DIR);
    NodeLocalizedInfo info = nodeInfo(conf, env);
    List<String> ssdAppDirs = new ArrayList<>();
    List<String> hddDirs = new ArrayList<>();
    for (String dir : localDirs) {
      (underAny(dir, info.ssdDirs()) != null ? ssdAppDirs : hddDirs).add(dir);
    }
    conf.setStrings(YarnIntegrationConfigKeys.HDD_LOCAL_DIRS_KEY,
        (hddDirs.isEmpty() ? Arrays.asList(localDirs) : hddDirs).toArray(new String[0]));
    double factor = conf.getDouble(YarnIntegrationConfigKeys.ESTIMATE_FACTOR_KEY,
        YarnIntegrationConfigKeys.ESTIMATE_FACTOR_DEFAULT);
    if (!(factor >= 1.0)) {
      throw new IllegalArgumentException(YarnIntegrationConfigKeys.ESTIMATE_FACTOR_KEY + " is "
          + factor + ": set a factor of at least 1, e.g. "
          + YarnIntegrationConfigKeys.ESTIMATE_FACTOR_DEFAULT);
    }
    long margin = conf.getLongBytes(YarnIntegrationConfigKeys.SSD_MARGIN_BYTES_KEY,
        YarnIntegrationConfigKeys.SSD_MARGIN_BYTES_DEFAULT);
    if (margin < 0) {
      throw new IllegalArgumentException(YarnIntegrationConfigKeys.SSD_MARGIN_BYTES_KEY + " is "
          + margin + ": set the bytes to keep free on the SSD, at least 0, e.g. 64m");
    }
    String container = env.get(ApplicationConstants.Environment.CONTAINER_ID.name());
    String attempt = conf.get(MRJobConfig.TASK_ATTEMPT_ID);
    LocalizedProtocol slave = null;
    String appId = null;
    if (container != null && attempt != null && !ssdAppDirs.isEmpty()) {
      appId = ContainerId.fromString(container).getApplicationAttemptId().getApplicationId()
          .toString();
      try {
        // The proxy calls as the user it was made by.
        slave = LocalizedTaskIdentity.of(conf).doAs(
            (PrivilegedExceptionAction<LocalizedProtocol>) () ->
                new LocalizedProtocolClientSideTranslatorPB(
                    NetUtils.createSocketAddr(info.address()), LocalizedRpc.clientConf(conf)));
      } catch (IOException | IllegalArgumentException e) {
        LOG.warn("No SSD Localized Cache for {}: cannot reach the slave at {}: {}", attempt,
            info.address(), e.toString());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        LOG.warn("No SSD Localized Cache for {}: interrupted", attempt);
      }
    }
    return new LocalizedSpaceClient(slave, appId, container, attempt, factor, info.ssdDirs(),
        ssdAppDirs, conf, margin, UsableSpace.REAL);
  }

  private static NodeLocalizedInfo nodeInfo(Configuration conf, Map<String, String> env) {
    String published = env.get(NodeLocalizedInfo.ENV_VARIABLE);
    if (published != null) {
      return NodeLocalizedInfo.fromEnvironmentValue(published);
    }
    return new NodeLocalizedInfo(conf.getTrimmed(YarnIntegrationConfigKeys.LOCALIZED_ADDRESS_KEY,
        YarnIntegrationConfigKeys.LOCALIZED_ADDRESS_DEFAULT),
        Arrays.asList(conf.getTrimmedStrings(MpCacheConfigKeys.SLAVE_CACHE_DIRS_KEY)));
  }

  /** The root in {@code roots} that {@code dir} lies under, or {@code null}. */
  private static String underAny(String dir, List<String> roots) {
    String d = new Path(dir).toUri().getPath();
    for (String root : roots) {
      String r = new Path(root).toUri().getPath();
      if (d.equals(r) || d.startsWith(r.endsWith("/") ? r : r + "/")) {
        return root;
      }
    }
    return null;
  }

  /**
   * Where a localized file of about {@code size} bytes goes on the SSD, {@code relativePath} inside
   * the attempt's application directory there; {@code null} when it goes to the HDDs. The grant
   * also holds {@code besideBytes} for a file written next to it without a grant of its own (a map
   * output's index), which {@link #written} keeps when it gives back what the estimate exceeded.
   * A file that may {@code grow} (a spill, written through {@link RelocatingLocalFileSystem}) is
   * granted at most {@link YarnIntegrationConfigKeys#SPILL_STEP_BYTES_KEY} at first, and more by
   * {@link #grow} as it is written.
   */
  Path place(String relativePath, long size, long besideBytes, boolean grows) {
    if (unavailable || size < 0) {
      return null;
    }
    long estimate = Math.max(1, (long) Math.ceil(size * estimateFactor));
    long bytes = (grows && stepBytes > 0 ? Math.min(estimate, stepBytes) : estimate) + besideBytes;
    // The slave accounts grants, not the disk: the NodeManager's own files and writes the slave
    // never granted share the filesystem. Not asking when no SSD dir really has room means no
    // grant is held for a file that goes to the HDDs.
    if (ssdAppDirs.stream().noneMatch(d -> fits(d, bytes))) {
      LOG.info("No SSD dir of {} has {} usable bytes (+{} margin) for {}: HDD", attemptId, bytes,
          marginBytes, relativePath);
      return null;
    }
    LocalizedGrant grant = ask(bytes, relativePath);
    if (grant == null) {
      return null;
    }
    for (String appDir : ssdAppDirs) {
      if (underAny(appDir, List.of(grant.dir())) != null) {
        if (!fits(appDir, bytes)) {
          // Another SSD dir had room but the slave chose this one, or the disk filled since the
          // check. The unused grant ends with the container.
          LOG.warn("Granted SSD dir {} has less than {} usable bytes (+{} margin) for {} of {}:"
              + " HDD", grant.dir(), bytes, marginBytes, relativePath, attemptId);
          return null;
        }
        Path placed = new Path(appDir, relativePath);
        files.put(placed.toUri().getPath(), new FileGrant(grant.dir(), bytes, besideBytes));
        return placed;
      }
    }
    // A misconfigured node: the slave's SSD dir is not a NodeManager local dir. The unused grant
    // ends with the container.
    LOG.warn("Granted SSD dir {} is not among the local dirs {} of {}", grant.dir(), ssdAppDirs,
        attemptId);
    return null;
  }

  /**
   * {@code file}'s path relative to the attempt's SSD application dir it lies in, as
   * {@link #place} built it; {@code null} when it is not on the SSD.
   */
  String relativeToSsd(Path file) {
    String f = file.toUri().getPath();
    for (String appDir : ssdAppDirs) {
      String d = new Path(appDir).toUri().getPath();
      if (f.startsWith(d.endsWith("/") ? d : d + "/")) {
        return f.substring(d.length()).replaceFirst("^/", "");
      }
    }
    return null;
  }

  /** Whether {@code dir}'s filesystem really has {@code bytes} plus the margin usable now. */
  private boolean fits(String dir, long bytes) {
    long usable = usableSpace.usableBytes(dir);
    return usable - marginBytes >= bytes;
  }

  /** The job's description, worked out on the first call. */
  private LocalizedJob job() {
    LocalizedJob j = job;
    if (j == null) {
      j = describeJob(conf, attemptId);
      job = j;
    }
    return j;
  }

  /**
   * The job's type and whole input size; {@link LocalizedJob#UNKNOWN} when either cannot be found
   * (the job is then not recorded in the master's history).
   */
  static LocalizedJob describeJob(Configuration conf, String attemptId) {
    String type = conf.getTrimmed(YarnIntegrationConfigKeys.JOB_TYPE_KEY,
        YarnIntegrationConfigKeys.JOB_TYPE_DEFAULT);
    if (type.isEmpty()) {
      type = conf.getTrimmed(MRJobConfig.JOB_NAME, "");
    }
    String jobDir = conf.get(MRJobConfig.MAPREDUCE_JOB_DIR);
    if (type.isEmpty() || jobDir == null || attemptId == null) {
      return LocalizedJob.UNKNOWN;
    }
    try {
      Path dir = new Path(jobDir);
      FileSystem fs = dir.getFileSystem(conf);
      long input = 0;
      for (JobSplit.TaskSplitMetaInfo split : SplitMetaInfoReader.readSplitMetaInfo(
          TaskAttemptID.forName(attemptId).getJobID(), fs, conf, dir)) {
        input += split.getInputDataLength();
      }
      return new LocalizedJob(type, input);
    } catch (IOException | RuntimeException e) {
      LOG.info("Cannot read the input size of {} from {}: {}", attemptId, jobDir, e.toString());
      return LocalizedJob.UNKNOWN;
    }
  }

  /**
   * Declares that {@code file}, of {@code bytes} bytes, stays on the SSD after this attempt ends (a
   * map's final output). Does nothing for files on the HDDs.
   */
  void reportRetained(Path file, long bytes) {
    String root = underAny(file.toUri().getPath(), ssdRoots);
    if (unavailable || root == null) {
      return;
    }
    try {
      slave.reportRetained(applicationId, containerId, attemptId, root, bytes);
    } catch (IOException e) {
      LOG.warn("Could not report the {} bytes {} keeps on the SSD: {}", bytes, attemptId,
          e.toString());
    }
  }

  /**
   * {@code file}, placed on the SSD by {@link #place}, was closed with {@code bytes} written: the
   * part of its grant the estimate exceeded them by goes back to the slave now, not when the
   * container ends (a spill is estimated by its records before the combiner ran, often several
   * times what it writes).
   */
  void written(Path file, long bytes) {
    String key = file.toUri().getPath();
    FileGrant g = files.get(key);
    long kept = bytes + (g == null ? 0 : g.besideBytes());
    if (g != null && bytes >= 0 && kept < g.bytes()) {
      files.put(key, new FileGrant(g.dir(), kept, g.besideBytes()));
      giveBack(g.dir(), g.bytes() - kept, file);
    }
  }

  /**
   * Whether {@code file}, placed on the SSD by {@link #place}, may hold {@code bytes}: at once
   * when its grant holds them (besides what it holds for a file beside it); else the slave is
   * asked for as much again as the grant holds, at least what is missing, in the file's dir, and
   * the answer is whether it granted them there. A file the client did not place, or any file
   * once the slave is unreachable (as before it asked), may grow.
   */
  boolean grow(Path file, long bytes) {
    String key = file.toUri().getPath();
    FileGrant g = files.get(key);
    if (g == null || bytes + g.besideBytes() <= g.bytes() || unavailable) {
      return true;
    }
    long more = Math.max(bytes + g.besideBytes() - g.bytes(), g.bytes());
    String appDir = ssdAppDirs.stream().filter(d -> underAny(d, List.of(g.dir())) != null)
        .findFirst().orElse(null);
    if (appDir == null || !fits(appDir, more)) {
      LOG.info("No room for {} more bytes of {} on the SSD (+{} margin): HDD", more, file,
          marginBytes);
      return false;
    }
    LocalizedGrant grant = ask(more, file);
    if (grant == null) {
      // Refused; or the slave is unreachable, and the file goes on as before it asked.
      return unavailable;
    }
    if (!grant.dir().equals(g.dir())) {
      giveBack(grant.dir(), more, file);
      return false;
    }
    files.put(key, new FileGrant(g.dir(), g.bytes() + more, g.besideBytes()));
    return true;
  }

  /**
   * Asks the slave for {@code bytes} more of the attempt's room, for {@code what}: the grant, or
   * null when the slave refused them or could not be reached (which also sets
   * {@link #unavailable}: the attempt stops asking).
   */
  private LocalizedGrant ask(long bytes, Object what) {
    LocalizedGrant grant;
    try {
      grant = slave.requestSpace(applicationId, containerId, attemptId, bytes, job());
    } catch (IOException e) {
      unavailable = true;
      LOG.warn("SSD Localized Cache unavailable for {}, using the HDD dirs from now on: {}",
          attemptId, e.toString());
      return null;
    }
    if (!grant.isGranted()) {
      LOG.info("SSD room for {} bytes of {} denied: {}", bytes, what, grant.denyReason());
      return null;
    }
    return grant;
  }

  /** {@code file}, placed on the SSD by {@link #place}, was deleted: its grant goes back. */
  void deleted(Path file) {
    FileGrant g = files.remove(file.toUri().getPath());
    if (g != null && g.bytes() > 0) {
      giveBack(g.dir(), g.bytes(), file);
    }
  }

  /** {@code from} was renamed to {@code to} (a single spill becoming the map's output). */
  void renamed(Path from, Path to) {
    FileGrant g = files.remove(from.toUri().getPath());
    if (g != null) {
      files.put(to.toUri().getPath(), g);
    }
  }

  /**
   * {@code file} left the SSD (moved to an HDD dir when the SSD was full): its grant is kept until
   * the container ends, the SSD being evidently fuller than the slave's accounting.
   */
  void leftSsd(Path file) {
    files.remove(file.toUri().getPath());
  }

  private void giveBack(String dir, long bytes, Path file) {
    if (unavailable) {
      return;
    }
    try {
      slave.returnSpace(applicationId, containerId, attemptId, dir, bytes);
    } catch (IOException e) {
      // The grant then ends with the container, as it did before files gave theirs back.
      LOG.debug("Could not give back {} granted bytes of {} ({}): {}", bytes, file, attemptId,
          e.toString());
    }
  }

  /**
   * The slave's SSD directory a file's grant is in, the bytes it holds for the file, and those of
   * them held for a file written beside it.
   */
  private record FileGrant(String dir, long bytes, long besideBytes) {
  }

  /**
   * The bytes a process may still write in a directory's filesystem. {@link #REAL} asks the
   * filesystem ({@link File#getUsableSpace()}) of the dir or, when the dir does not exist yet, of
   * its nearest existing ancestor. Implementations are thread-safe.
   */
  @FunctionalInterface
  interface UsableSpace {
    UsableSpace REAL = dir -> {
      File f = new File(dir).getAbsoluteFile();
      while (f != null && !f.exists()) {
        f = f.getParentFile();
      }
      return f == null ? 0 : f.getUsableSpace();
    };

    long usableBytes(String dir);
  }
}
