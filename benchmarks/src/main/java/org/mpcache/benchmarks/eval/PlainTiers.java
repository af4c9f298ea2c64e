package org.mpcache.benchmarks.eval;

import java.io.File;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.FileUtil;
import org.mpcache.tiers.PageCache;

/**
 * Tiers that are only directories: HDD and SSD directories under one base directory on whatever
 * disk holds it, and memory directories under {@code /dev/shm} (tmpfs) where it exists. Used where
 * the storage tiers cannot be emulated; {@link #figures()} says so, because HDD and SSD then
 * perform alike and a speedup measured on them says nothing about SSDs.
 *
 * <p>Not thread-safe.
 */
public final class PlainTiers implements TierLayout {
  private static final File SHM = new File("/dev/shm");

  private final File base;
  private final File memoryBase;
  private final String reason;

  /**
   * @param base the directory to hold {@code hdd-<i>} and {@code ssd-<i>}
   * @param reason why the tiers are not emulated, printed with the results
   */
  public PlainTiers(File base, String reason) {
    this.base = base.getAbsoluteFile();
    this.memoryBase = memoryBase(this.base);
    this.reason = reason;
  }

  @Override
  public File hddDir(int node) throws IOException {
    return mkdirs(new File(base, "hdd-" + node));
  }

  @Override
  public File ssdDir(int node) throws IOException {
    return mkdirs(new File(base, "ssd-" + node));
  }

  @Override
  public File memoryDir(int node) throws IOException {
    return mkdirs(new File(memoryBase, "node-" + node));
  }

  @Override
  public boolean emulated() {
    return false;
  }

  @Override
  public List<String> figures() {
    return List.of("storage tiers NOT emulated (" + reason + "): HDD and SSD directories share "
        + "one disk, so times do not show SSD speed; memory cache on "
        + (memoryBase.getPath().startsWith(SHM.getPath()) ? "tmpfs" : "disk"));
  }

  @Override
  public boolean dropCaches() {
    return PageCache.drop().dropped();
  }

  @Override
  public void close() {
    FileUtil.fullyDelete(memoryBase);
  }

  /** A tmpfs directory for node memory caches where the machine has one, else one under base. */
  static File memoryBase(File base) {
    return SHM.isDirectory() && SHM.canWrite()
        ? new File(SHM, "mpcache-eval-" + ProcessHandle.current().pid())
        : new File(base, "memory");
  }

  static File mkdirs(File dir) throws IOException {
    if (!dir.isDirectory() && !dir.mkdirs()) {
      throw new IOException("Cannot create directory " + dir);
    }
    return dir;
  }
}
