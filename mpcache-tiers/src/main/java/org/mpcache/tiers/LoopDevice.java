package org.mpcache.tiers;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One emulated device of the kernel mechanism: a sparse image file attached to a loop device
 * with direct I/O (so the image's own pages do not sit in the page cache twice), formatted ext4,
 * mounted, and limited by cgroup v1 blkio throttle rules in the root blkio cgroup, which apply to
 * every process on the machine, and by a strict per-device dirty page limit, so that writers wait
 * for the device as they do on a node whose memory its containers fill. {@link #create} sets it
 * all up or undoes what it did; {@link #close} undoes it all, as far as it can, and reports what
 * it could not.
 *
 * <p>Not thread-safe: one owner ({@link StorageTiers}) sets it up and tears it down.
 */
final class LoopDevice implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LoopDevice.class);
  /** Loop devices' block major number. */
  static final int LOOP_MAJOR = 7;
  /** The throttle files of the v1 blkio controller, each holding "MAJ:MIN value" lines. */
  static final List<String> THROTTLE_FILES = List.of("blkio.throttle.read_bps_device",
      "blkio.throttle.write_bps_device", "blkio.throttle.read_iops_device",
      "blkio.throttle.write_iops_device");
  /** Per-device writeback settings ({@code max_bytes}, {@code strict_limit}), by "MAJ:MIN". */
  static final Path BDI_ROOT = Path.of("/sys/class/bdi");

  private final Path image;
  private final Path mountPoint;
  private String device;
  private String majMin;
  private boolean mounted;
  private TierSpec.Device limits;

  private LoopDevice(Path image, Path mountPoint) {
    this.image = image;
    this.mountPoint = mountPoint;
  }

  /**
   * Creates a sparse image of {@code spec.sizeBytes()}, attaches, formats and mounts it on
   * {@code mountPoint}, then sets the throttle and the dirty limit ({@code dirtyBytes}, 0 for
   * none). On failure undoes what was done and throws.
   */
  static LoopDevice create(Path image, Path mountPoint, TierSpec.Device spec, long dirtyBytes)
      throws IOException {
    LoopDevice d = new LoopDevice(image, mountPoint);
    try {
      d.setUp(spec, dirtyBytes);
      return d;
    } catch (IOException | RuntimeException e) {
      try {
        d.close();
      } catch (IOException undo) {
        e.addSuppressed(undo);
      }
      throw e;
    }
  }

  private void setUp(TierSpec.Device spec, long dirtyBytes) throws IOException {
    Files.createDirectories(image.getParent());
    Files.createDirectories(mountPoint);
    Files.deleteIfExists(image);
    try (RandomAccessFile f = new RandomAccessFile(image.toFile(), "rw")) {
      f.setLength(spec.sizeBytes());
    }
    device = Shell.run("losetup", "--find", "--show", "--direct-io=on", image.toString());
    majMin = Files.readString(Path.of("/sys/block", Path.of(device).getFileName().toString(),
        "dev"), StandardCharsets.US_ASCII).trim();
    // A rule left on this device number by a crashed run would limit the formatting.
    resetLimits(majMin);
    // Inode tables are written now, not by ext4's lazy-init thread later, which would compete
    // with the measured I/O; one inode per 64 KiB is plenty for HDFS blocks and task files.
    Shell.run("mkfs.ext4", "-q", "-F", "-m", "0", "-i", "65536",
        "-E", "nodiscard,lazy_itable_init=0,lazy_journal_init=0", device);
    Shell.run("mount", device, mountPoint.toString());
    mounted = true;
    limits = spec;
    throttle(true);
    writeDirtyLimit(majMin, dirtyBytes);
  }

  /**
   * Puts the device's throttle rules on ({@code on}) or takes them off, leaving the dirty limit;
   * for loading data that no measurement times.
   */
  void throttle(boolean on) throws IOException {
    writeThrottle(majMin, on ? limits.readBytesPerSec() : 0, on ? limits.writeBytesPerSec() : 0,
        on ? limits.iops() : 0);
  }

  /**
   * Takes the device's write limits (bytes and operations per second) off ({@code on} false) or
   * puts them back, keeping its read limits: for flushing what untimed work left dirty.
   */
  void throttleWrites(boolean on) throws IOException {
    writeThrottle(majMin, limits.readBytesPerSec(), on ? limits.writeBytesPerSec() : 0,
        limits.iops(), on ? limits.iops() : 0);
  }

  /** The loop device, e.g. /dev/loop3. */
  String device() {
    return device;
  }

  /** The device number, e.g. 7:3. */
  String majMin() {
    return majMin;
  }

  Path mountPoint() {
    return mountPoint;
  }

  /**
   * Resets the throttle, unmounts (lazily if the directory is still busy), detaches the loop
   * device and deletes the image. Every step is tried even when an earlier one failed; the
   * first failure is thrown with the others suppressed.
   */
  @Override
  public void close() throws IOException {
    List<IOException> errors = new ArrayList<>();
    if (majMin != null) {
      try {
        resetLimits(majMin);
      } catch (IOException e) {
        errors.add(e);
      }
    }
    if (mounted) {
      try {
        unmount(mountPoint.toString());
        mounted = false;
      } catch (IOException e) {
        errors.add(e);
      }
    }
    if (device != null) {
      try {
        Shell.run("losetup", "-d", device);
        device = null;
      } catch (IOException e) {
        errors.add(e);
      }
    }
    try {
      Files.deleteIfExists(image);
    } catch (IOException e) {
      errors.add(e);
    }
    throwFirst(errors);
  }

  /** Unmounts; when the mount is busy (a process still has a file open) detaches it lazily. */
  static void unmount(String mountPoint) throws IOException {
    try {
      Shell.run("umount", mountPoint);
    } catch (IOException busy) {
      LOG.warn("{} is busy ({}): detaching it lazily; the device goes once its last file is "
          + "closed. Stop the cluster before the tiers.", mountPoint, busy.getMessage());
      Shell.run("umount", "-l", mountPoint);
    }
  }

  /** Writes the four limits of {@code majMin} to the root blkio cgroup. */
  static void writeThrottle(String majMin, long readBps, long writeBps, int iops)
      throws IOException {
    writeThrottle(majMin, readBps, writeBps, iops, iops);
  }

  /** Writes the four limits of {@code majMin}, reads' and writes' operations apart. */
  static void writeThrottle(String majMin, long readBps, long writeBps, int readIops,
      int writeIops) throws IOException {
    long[] values = {readBps, writeBps, readIops, writeIops};
    for (int i = 0; i < THROTTLE_FILES.size(); i++) {
      writeControl(HostProbe.BLKIO_ROOT.resolve(THROTTLE_FILES.get(i)), majMin + " " + values[i]);
    }
  }

  /**
   * Limits the dirty page-cache bytes of {@code majMin}'s device to {@code bytes}, strictly (its
   * writers wait for the device once that much is dirty, however little the rest of the machine
   * has dirty); 0 leaves the kernel's machine-wide limits alone.
   */
  static void writeDirtyLimit(String majMin, long bytes) throws IOException {
    if (bytes <= 0) {
      return;
    }
    Path bdi = BDI_ROOT.resolve(majMin);
    writeControl(bdi.resolve("max_bytes"), Long.toString(bytes));
    writeControl(bdi.resolve("strict_limit"), "1");
  }

  /** Writes one line to a cgroup or sysfs control file. */
  private static void writeControl(Path file, String value) throws IOException {
    Files.writeString(file, value + "\n", StandardCharsets.US_ASCII, StandardOpenOption.WRITE);
  }

  /**
   * Removes every limit of {@code majMin}: the four throttle rules (writing 0 deletes a rule) and
   * the dirty limit (back to the kernel's defaults, a 100% share and no strict limit). Tries them
   * all.
   */
  static void resetLimits(String majMin) throws IOException {
    List<IOException> errors = new ArrayList<>();
    Path bdi = BDI_ROOT.resolve(majMin);
    if (Files.isDirectory(bdi)) {
      try {
        writeControl(bdi.resolve("strict_limit"), "0");
        writeControl(bdi.resolve("max_ratio"), "100");
      } catch (IOException e) {
        errors.add(new IOException("cannot reset the dirty limit of " + majMin + ": " + e, e));
      }
    }
    for (String f : THROTTLE_FILES) {
      try {
        writeControl(HostProbe.BLKIO_ROOT.resolve(f), majMin + " 0");
      } catch (IOException e) {
        errors.add(new IOException("cannot reset " + f + " for " + majMin + ": " + e, e));
      }
    }
    throwFirst(errors);
  }

  static void throwFirst(List<IOException> errors) throws IOException {
    if (errors.isEmpty()) {
      return;
    }
    IOException first = errors.get(0);
    for (int i = 1; i < errors.size(); i++) {
      first.addSuppressed(errors.get(i));
    }
    throw first;
  }
}
