package org.mpcache.benchmarks.eval;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.mpcache.tiers.StorageTiers;
import org.mpcache.tiers.TierMeasurement;
import org.mpcache.tiers.TierMechanism;
import org.mpcache.tiers.TierReport;

/**
 * The evaluation's tiers on {@link StorageTiers}: each node's HDD and SSD directories on their
 * own throttled devices (or, where the kernel mechanism is not available, the mechanism
 * StorageTiers fell back to), measured cold once at start with {@link TierMeasurement}; memory
 * directories on tmpfs.
 *
 * <p>Not thread-safe.
 */
final class EmulatedTiers implements TierLayout {
  private final StorageTiers tiers;
  private final TierReport report;
  private final File memoryBase;

  /** Takes over started {@code tiers} and measures them for about {@code seconds} per phase. */
  EmulatedTiers(StorageTiers tiers, File base, double seconds) throws IOException {
    this.tiers = tiers;
    this.memoryBase = PlainTiers.memoryBase(base);
    this.report = new TierMeasurement(seconds, 4).measure(tiers, List.of());
  }

  @Override
  public File hddDir(int node) {
    return tiers.node(node).hddDir().toFile();
  }

  @Override
  public File ssdDir(int node) {
    return tiers.node(node).ssdDir().toFile();
  }

  @Override
  public File memoryDir(int node) throws IOException {
    return PlainTiers.mkdirs(new File(memoryBase, "node-" + node));
  }

  @Override
  public boolean emulated() {
    return tiers.mechanism() == TierMechanism.KERNEL;
  }

  @Override
  public List<String> figures() {
    List<String> lines = new ArrayList<>(List.of(report.toString().split("\n")));
    if (!emulated()) {
      lines.add("NOTICE: the HDD and SSD are not both throttled devices here, so speedups "
          + "understate or misstate what SSDs give");
    }
    return lines;
  }

  @Override
  public <T> T load(StorageTiers.IoCallable<T> load) throws IOException {
    return tiers.unthrottled(load);
  }

  @Override
  public void configure(Configuration conf) {
    tiers.configure(conf);
  }

  @Override
  public void writeFigures(Path dir) throws IOException {
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("tiers.csv"), report.toCsv(), StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("tiers.json"), report.toJson(), StandardCharsets.UTF_8);
  }

  @Override
  public boolean dropCaches() {
    return tiers.dropCaches().dropped();
  }

  @Override
  public void close() throws IOException {
    FileUtil.fullyDelete(memoryBase);
    tiers.stop();
    if (tiers.getFailureCause() != null) {
      throw new IOException("Tearing the storage tiers down failed", tiers.getFailureCause());
    }
  }
}
