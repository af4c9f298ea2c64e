package org.mpcache.tiers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.service.AbstractService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sets up, for each emulated node, an HDD-like and an SSD-like directory whose speeds differ as
 * real devices' do (see {@link TierSpec}), and takes them down again. The mechanism comes from
 * {@link TierConfigKeys#MECHANISM_KEY} and the machine ({@link MechanismDecision}); {@link
 * #mechanism()} and {@link #describe()} say which one is in use, and results must be printed
 * with it.
 *
 * <p>Under the kernel mechanism every node gets its own HDD and its own SSD, each a {@link
 * LoopDevice} with its own throttle, so a node's DataNode and NodeManager share one HDD as on a
 * real node and nodes do not share each other's bandwidth. At start it first removes what a
 * crashed earlier run left ({@link KernelLeftovers}); at stop, and from a JVM shutdown hook if the
 * owner never stops it, it resets the limits, unmounts and detaches every device it made, going
 * on past failures. Under the user-space mechanism the directories are plain and {@link
 * #configure} puts the HDD read bandwidth on every DataNode's own read throttle.
 *
 * <p>Use: {@code tiers = new StorageTiers(dir, n); tiers.init(conf); tiers.start();} then {@link
 * #nodes()}, {@link #configure} on the cluster's configuration, {@link #dropCaches()} before every
 * measured job, and {@code tiers.stop()} (or try-with-resources: a service is Closeable) after the
 * cluster has stopped: a device still in use is only detached lazily, when its last file closes.
 *
 * <p>Thread-safety: the lifecycle methods are serialized by {@link AbstractService}; the getters
 * may be called from any thread after start.
 */
public class StorageTiers extends AbstractService {
  /** The DataNode's own read throttle (bytes per second, 0 = none) in Hadoop 3.5.0. */
  public static final String DATANODE_READ_BPS_KEY = "dfs.datanode.data.read.bandwidthPerSec";

  private static final Logger LOG = LoggerFactory.getLogger(StorageTiers.class);

  private final Path workDir;
  private final int nodeCount;
  private final HostProbe host;
  private final List<LoopDevice> devices = Collections.synchronizedList(new ArrayList<>());
  private volatile TierSpec spec;
  private volatile MechanismDecision decision;
  private volatile List<NodeTiers> nodes = List.of();
  private volatile List<String> leftoversCleaned = List.of();
  private Thread shutdownHook;

  /** Tiers for {@code nodes} nodes under {@code workDir}, on this machine as it is. */
  public StorageTiers(Path workDir, int nodes) {
    this(workDir, nodes, HostProbe.probe());
  }

  /** As above with the machine's facts given, so the mechanism decision can be tested. */
  StorageTiers(Path workDir, int nodes, HostProbe host) {
    super(StorageTiers.class.getSimpleName());
    if (nodes < 1) {
      throw new IllegalArgumentException("need at least one node, got " + nodes);
    }
    this.workDir = workDir.toAbsolutePath().normalize();
    this.nodeCount = nodes;
    this.host = host;
  }

  @Override
  protected void serviceInit(Configuration conf) throws Exception {
    spec = TierSpec.from(conf);
    decision = MechanismDecision.decide(spec.mechanism(), host);
    super.serviceInit(conf);
  }

  @Override
  protected void serviceStart() throws Exception {
    Files.createDirectories(workDir);
    shutdownHook = new Thread(this::stop, "storage-tiers-teardown");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
    if (decision.mechanism() == TierMechanism.KERNEL) {
      try {
        removeLeftovers();
        nodes = startKernel();
      } catch (IOException e) {
        tearDownDevices();
        if (spec.mechanism() != MechanismChoice.AUTO) {
          throw new IOException("Cannot set up kernel storage tiers: " + e.getMessage()
              + ". Set " + TierConfigKeys.MECHANISM_KEY + " to auto or userspace to run without "
              + "them.", e);
        }
        LOG.warn("Kernel storage tiers failed, using user space instead", e);
        decision = MechanismDecision.fallback("auto: kernel setup failed (" + e.getMessage()
            + ")");
      }
    } else if (host.kernelObstacles().isEmpty()) {
      // a crashed kernel run may have left mounts in the directories about to be emptied
      try {
        removeLeftovers();
      } catch (IOException e) {
        LOG.warn("Cannot remove leftovers of an earlier kernel run", e);
      }
    }
    if (decision.mechanism() != TierMechanism.KERNEL) {
      nodes = startPlain();
    }
    LOG.info("Storage tiers up for {} nodes: {}", nodeCount, decision);
    super.serviceStart();
  }

  private void removeLeftovers() throws IOException {
    leftoversCleaned = KernelLeftovers.clean(imagesDir());
    for (String line : leftoversCleaned) {
      LOG.warn("Removed a leftover of an earlier run: {}", line);
    }
  }

  private List<NodeTiers> startKernel() throws IOException {
    List<NodeTiers> out = new ArrayList<>();
    for (int i = 0; i < nodeCount; i++) {
      LoopDevice hdd = attach(i, "hdd", spec.hdd());
      LoopDevice ssd = attach(i, "ssd", spec.ssd());
      out.add(new NodeTiers(i, dataDir(hdd.mountPoint()), dataDir(ssd.mountPoint()),
          hdd.device() + " " + hdd.majMin(), ssd.device() + " " + ssd.majMin()));
    }
    return Collections.unmodifiableList(out);
  }

  private LoopDevice attach(int node, String tier, TierSpec.Device limits) throws IOException {
    LoopDevice d = LoopDevice.create(
        imagesDir().resolve(KernelLeftovers.IMAGE_PREFIX + "node" + node + "-" + tier + ".img"),
        nodeDir(node).resolve(tier), limits, spec.dirtyBytes());
    devices.add(d);
    return d;
  }

  private List<NodeTiers> startPlain() throws IOException {
    List<NodeTiers> out = new ArrayList<>();
    for (int i = 0; i < nodeCount; i++) {
      Path hdd = nodeDir(i).resolve("hdd");
      Path ssd = nodeDir(i).resolve("ssd");
      deleteRecursively(hdd);
      deleteRecursively(ssd);
      out.add(new NodeTiers(i, dataDir(hdd), dataDir(ssd), null, null));
    }
    return Collections.unmodifiableList(out);
  }

  /** A fresh directory below the device root, so the root's lost+found is not in the way. */
  private static Path dataDir(Path root) throws IOException {
    return Files.createDirectories(root.resolve("data"));
  }

  private Path nodeDir(int node) {
    return workDir.resolve("node" + node);
  }

  /** Where the kernel mechanism keeps its sparse images. */
  Path imagesDir() {
    return workDir.resolve("images");
  }

  @Override
  protected void serviceStop() throws Exception {
    try {
      tearDownDevices();
    } finally {
      Thread hook = shutdownHook;
      shutdownHook = null;
      if (hook != null && Thread.currentThread() != hook) {
        try {
          Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
          // the JVM is exiting and the hook runs anyway; stop() is idempotent
        }
      }
      super.serviceStop();
    }
  }

  /**
   * Runs {@code load} with every device's throttle off, then flushes what it wrote to the devices
   * ({@code sync}) and puts the throttles back, also when {@code load} fails. For writing a
   * workload's input, which the evaluation does not time: a 1.75 MB/s HDD would otherwise take
   * minutes to receive data a real cluster holds already. Other mechanisms just run it.
   */
  public <T> T unthrottled(IoCallable<T> load) throws IOException {
    List<LoopDevice> ds;
    synchronized (devices) {
      ds = List.copyOf(devices);
    }
    for (LoopDevice d : ds) {
      d.throttle(false);
    }
    try {
      return load.call();
    } finally {
      if (!ds.isEmpty()) {
        Shell.run("sync");
      }
      for (LoopDevice d : ds) {
        d.throttle(true);
      }
    }
  }

  /** A piece of I/O work that returns a value. */
  @FunctionalInterface
  public interface IoCallable<T> {
    /** Does the work. */
    T call() throws IOException;
  }

  /** Tears down every device made so far, newest first, going on past failures. */
  private void tearDownDevices() throws IOException {
    List<IOException> errors = new ArrayList<>();
    synchronized (devices) {
      for (int i = devices.size() - 1; i >= 0; i--) {
        try {
          devices.get(i).close();
        } catch (IOException e) {
          LOG.error("Cannot tear down {}", devices.get(i).device(), e);
          errors.add(e);
        }
      }
      devices.clear();
    }
    LoopDevice.throwFirst(errors);
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    Files.walkFileTree(dir, new SimpleFileVisitor<Path>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        Files.delete(file);
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
        if (e != null) {
          throw e;
        }
        Files.delete(d);
        return FileVisitResult.CONTINUE;
      }
    });
  }

  /**
   * Adds to a cluster configuration what the mechanism needs there: under the user-space
   * mechanism, the HDD read bandwidth as every DataNode's read throttle (each DataNode has its
   * own, shared by all its readers); nothing under the others. Call it on the configuration the
   * DataNodes start with.
   */
  public void configure(Configuration conf) {
    if (mechanism() == TierMechanism.USERSPACE) {
      conf.setLong(DATANODE_READ_BPS_KEY, spec.hdd().readBytesPerSec());
    }
  }

  /**
   * Writes back and drops the page cache so the next reads hit the devices. Call it before every
   * measured job (and so between modes); see {@link PageCache}. The write-back runs with the
   * devices' write limits lifted and their read limits kept; the limits are back on return, or
   * an {@link UncheckedIOException} says they could not be put back.
   */
  public PageCache.Outcome dropCaches() {
    List<LoopDevice> ds;
    synchronized (devices) {
      ds = List.copyOf(devices);
    }
    // The sync writes out what earlier, untimed work left dirty (a job's output, the journal):
    // at an HDD's 8 write operations per second, seconds per job that no measurement times.
    // Reads keep their limits, so nothing running meanwhile reads faster than its tier.
    try {
      for (LoopDevice d : ds) {
        d.throttleWrites(false);
      }
    } catch (IOException e) {
      LOG.warn("Could not lift the write limits for the page cache's drop: {}", e.toString());
    }
    try {
      return PageCache.drop();
    } finally {
      for (LoopDevice d : ds) {
        try {
          d.throttleWrites(true);
        } catch (IOException e) {
          throw new UncheckedIOException("Could not put the write limits of " + d.device()
              + " back after the page cache's drop: the tiers no longer model their devices", e);
        }
      }
    }
  }

  /** The mechanism in use; set by init, and possibly changed to user space by a failed start. */
  public TierMechanism mechanism() {
    return decision.mechanism();
  }

  /** The mechanism in use and why. */
  public MechanismDecision decision() {
    return decision;
  }

  public TierSpec spec() {
    return spec;
  }

  /** The nodes' directories, by node index; empty before start. */
  public List<NodeTiers> nodes() {
    return nodes;
  }

  public NodeTiers node(int index) {
    return nodes.get(index);
  }

  /** What the machine allows, as probed when this was built. */
  public HostProbe host() {
    return host;
  }

  /** Several lines: mechanism, why, what it covers, the limits, the nodes' directories. */
  public String describe() {
    StringBuilder b = new StringBuilder();
    b.append("mechanism: ").append(decision).append('\n');
    b.append("covers:    ").append(decision.mechanism().coverage()).append('\n');
    b.append("limits:    ").append(spec).append('\n');
    for (NodeTiers n : nodes) {
      b.append("           ").append(n).append('\n');
    }
    if (!leftoversCleaned.isEmpty()) {
      b.append("removed leftovers of an earlier run: ").append(leftoversCleaned).append('\n');
    }
    return b.toString();
  }
}
