package org.mpcache.tiers;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What this machine allows for emulating tiers: root, loop devices, the tools that set them up,
 * the cgroup v1 blkio throttle and dropping the page cache. {@link #probe()} looks; the
 * constructor lets tests state facts. Immutable and thread-safe.
 */
public final class HostProbe {
  /** The v1 blkio controller's root cgroup, where device limits apply to every process. */
  static final Path BLKIO_ROOT = Paths.get("/sys/fs/cgroup/blkio");
  static final Path LOOP_CONTROL = Paths.get("/dev/loop-control");
  static final Path DROP_CACHES = Paths.get("/proc/sys/vm/drop_caches");
  /** The commands the kernel mechanism runs. */
  static final List<String> TOOLS = List.of("losetup", "mkfs.ext4", "mount", "umount");

  private final boolean root;
  private final boolean loopControl;
  private final List<String> missingTools;
  private final boolean blkioThrottle;
  private final boolean dropCaches;

  public HostProbe(boolean root, boolean loopControl, List<String> missingTools,
      boolean blkioThrottle, boolean dropCaches) {
    this.root = root;
    this.loopControl = loopControl;
    this.missingTools = Collections.unmodifiableList(new ArrayList<>(missingTools));
    this.blkioThrottle = blkioThrottle;
    this.dropCaches = dropCaches;
  }

  /** Looks at this machine. Reads files and the PATH only; changes nothing. */
  public static HostProbe probe() {
    List<String> missing = new ArrayList<>();
    for (String t : TOOLS) {
      if (which(t) == null) {
        missing.add(t);
      }
    }
    return new HostProbe(isRoot(), Files.exists(LOOP_CONTROL), missing,
        Files.isWritable(BLKIO_ROOT.resolve("blkio.throttle.read_bps_device"))
            && Files.isWritable(BLKIO_ROOT.resolve("blkio.throttle.write_iops_device")),
        Files.isWritable(DROP_CACHES));
  }

  /** Effective uid 0, from /proc/self/status (no native call needed). */
  private static boolean isRoot() {
    try {
      for (String line : Files.readAllLines(Paths.get("/proc/self/status"),
          StandardCharsets.UTF_8)) {
        if (line.startsWith("Uid:")) {
          String[] f = line.substring(4).trim().split("\\s+");
          return f.length > 1 && f[1].equals("0");
        }
      }
    } catch (IOException e) {
      return false;
    }
    return false;
  }

  /** The file of an executable on the PATH (or /sbin, /usr/sbin), or null. */
  static Path which(String tool) {
    List<String> dirs = new ArrayList<>();
    String path = System.getenv("PATH");
    if (path != null) {
      Collections.addAll(dirs, path.split(File.pathSeparator));
    }
    Collections.addAll(dirs, "/usr/sbin", "/sbin", "/usr/bin", "/bin");
    for (String d : dirs) {
      if (d.isEmpty()) {
        continue;
      }
      Path p = Paths.get(d, tool);
      if (Files.isRegularFile(p) && Files.isExecutable(p)) {
        return p;
      }
    }
    return null;
  }

  public boolean root() {
    return root;
  }

  public boolean loopControl() {
    return loopControl;
  }

  public List<String> missingTools() {
    return missingTools;
  }

  public boolean blkioThrottle() {
    return blkioThrottle;
  }

  /** Whether /proc/sys/vm/drop_caches can be written (root outside a restricted container). */
  public boolean dropCaches() {
    return dropCaches;
  }

  /**
   * Why the kernel mechanism cannot be used here, one reason per missing piece; empty when
   * everything it needs is present (the loop device may still refuse at setup, inside some
   * containers).
   */
  public List<String> kernelObstacles() {
    List<String> why = new ArrayList<>();
    if (!root) {
      why.add("not running as root");
    }
    if (!loopControl) {
      why.add("no " + LOOP_CONTROL + " (loop devices unavailable)");
    }
    if (!missingTools.isEmpty()) {
      why.add("missing commands: " + String.join(", ", missingTools));
    }
    if (!blkioThrottle) {
      why.add("no writable cgroup v1 blkio throttle under " + BLKIO_ROOT);
    }
    return why;
  }

  @Override
  public String toString() {
    return "root=" + root + ", loop-control=" + loopControl + ", missing tools=" + missingTools
        + ", blkio throttle=" + blkioThrottle + ", drop_caches=" + dropCaches;
  }
}
