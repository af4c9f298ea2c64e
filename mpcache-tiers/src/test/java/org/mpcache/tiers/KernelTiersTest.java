package org.mpcache.tiers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sets up real throttled loop devices, measures them and tears them down. Runs only where the
 * machine allows it (root, loop devices, cgroup v1 blkio); elsewhere it is skipped.
 */
class KernelTiersTest {
  @TempDir
  Path dir;

  /** Whatever a failed assertion left attached is removed, so the temporary folder can go. */
  @AfterEach
  void removeLeftovers() throws IOException {
    TierTestSupport.removeKernelLeftovers(dir);
  }

  @Test
  void startMeasureStop_hddNearItsLimits_leftoversAndOwnDevicesGone() throws Exception {
    HostProbe host = TierTestSupport.assumeKernelAllowed();
    Path leftoverMount = dir.resolve("leftover-mount");
    if (!crashLeftover(leftoverMount)) {
      assumeTrue(false, "this machine refuses to attach loop devices");
    }

    Configuration conf = new Configuration(false);
    conf.set(TierConfigKeys.MECHANISM_KEY, "kernel");
    conf.set(TierConfigKeys.HDD_SIZE_KEY, "512m");
    conf.set(TierConfigKeys.SSD_SIZE_KEY, "1g");
    List<String> numbers = new ArrayList<>();
    StorageTiers tiers = new StorageTiers(dir, 1, host);
    try {
      tiers.init(conf);
      tiers.start();
      assertThat(tiers.mechanism()).isEqualTo(TierMechanism.KERNEL);
      assertThat(tiers.describe()).contains("removed leftovers").contains(leftoverMount.toString());
      assertThat(mounts()).doesNotContain(" " + leftoverMount + " ");
      NodeTiers node = tiers.node(0);
      numbers.add(node.hddDevice().orElseThrow().split(" ")[1]);
      numbers.add(node.ssdDevice().orElseThrow().split(" ")[1]);
      assertThat(mounts()).contains(" " + node.hddDir().getParent() + " ")
          .contains(" " + node.ssdDir().getParent() + " ");

      TierReport report = new TierMeasurement(1.0, 4).measure(tiers, List.of(0));
      System.out.println(report);
      assertThat(report.summary()).startsWith("tiers kernel, cold: HDD ");
      TierFigures hdd = report.rows().get(0);
      TierFigures ssd = report.rows().get(1);
      assertThat(hdd.cold()).as("page cache dropped").isTrue();
      assertThat(hdd.throttled()).isTrue();
      // The throttle shows in the upper bounds; the lower ones only catch a device far slower
      // than its limits, loose enough for a machine busy with other builds (measured: 74 MiB/s
      // sequential against 150 at a load average of 20).
      assertThat(hdd.seqReadMibps()).as(report.toString()).isBetween(0.2 * 150, 1.3 * 150);
      assertThat(hdd.parallelReadMibps()).as(report.toString()).isBetween(0.2 * 150, 1.3 * 150);
      assertThat(hdd.randIops()).as(report.toString()).isBetween(0.2 * 125, 1.3 * 125);
      // The SSD's sequential reads are faster than the HDD's; by how much depends on the CPU a
      // loaded machine leaves (measured: 237 against 149 MiB/s at a load average of 20). Random
      // reads tell the tiers apart whatever the load.
      assertThat(ssd.seqReadMibps()).as(report.toString())
          .isGreaterThan(hdd.seqReadMibps()).isLessThan(1.3 * 500);
      assertThat(ssd.randIops()).as(report.toString()).isGreaterThan(10 * hdd.randIops());

      // The drop lifts the write limits for its sync; every limit is back afterwards.
      assertThat(tiers.dropCaches().dropped()).isTrue();
      TierSpec.Device hddLimits = tiers.spec().hdd();
      long[] expected = {hddLimits.readBytesPerSec(), hddLimits.writeBytesPerSec(),
          hddLimits.iops(), hddLimits.iops()};
      for (int i = 0; i < expected.length; i++) {
        String rules = Files.readString(HostProbe.BLKIO_ROOT.resolve(
            LoopDevice.THROTTLE_FILES.get(i)), StandardCharsets.US_ASCII);
        assertThat(rules).as(LoopDevice.THROTTLE_FILES.get(i))
            .contains(numbers.get(0) + " " + expected[i]);
      }
    } finally {
      tiers.stop();
    }
    assertThat(tiers.getFailureCause()).isNull();

    assertNothingLeft(numbers);
  }

  /** Nothing of this test's tier set is attached, mounted or throttled any more. */
  private void assertNothingLeft(List<String> numbers) throws IOException {
    String losetup = Shell.run("losetup", "--list", "--noheadings", "--raw", "--output",
        "NAME,MAJ:MIN,BACK-FILE");
    assertThat(losetup).doesNotContain(dir.toString());
    assertThat(mounts()).doesNotContain(dir.toString());
    Set<String> attached = new java.util.HashSet<>();
    for (KernelLeftovers.Attached a : KernelLeftovers.parseLosetup(losetup)) {
      attached.add(a.majMin);
    }
    for (String f : LoopDevice.THROTTLE_FILES) {
      Set<String> rules = KernelLeftovers.loopRules(Files.readString(
          HostProbe.BLKIO_ROOT.resolve(f), StandardCharsets.US_ASCII));
      for (String n : numbers) {
        // a device number another run has attached since may carry that run's rule
        if (!attached.contains(n)) {
          assertThat(rules).as(f).doesNotContain(n);
        }
      }
    }
  }

  @Test
  void start_failsHalfway_undoesWhatItDidOrFallsBack() throws Exception {
    HostProbe host = TierTestSupport.assumeKernelAllowed();
    Configuration conf = new Configuration(false);
    conf.set(TierConfigKeys.HDD_SIZE_KEY, "256m");
    // larger than ext4's largest file: node 0's HDD is set up, then its SSD image fails
    conf.set(TierConfigKeys.SSD_SIZE_KEY, "100t");
    conf.set(TierConfigKeys.MECHANISM_KEY, "kernel");
    StorageTiers strict = new StorageTiers(dir, 1, host);
    strict.init(conf);
    assertThatThrownBy(strict::start).hasMessageContaining("Cannot set up kernel storage tiers")
        .hasMessageContaining(TierConfigKeys.MECHANISM_KEY);
    assertNothingLeft(List.of());

    conf.set(TierConfigKeys.MECHANISM_KEY, "auto");
    try (StorageTiers lenient = new StorageTiers(dir, 1, host)) {
      lenient.init(conf);
      lenient.start();
      assertThat(lenient.mechanism()).isEqualTo(TierMechanism.USERSPACE);
      assertThat(lenient.decision().reason()).contains("kernel setup failed");
      assertThat(lenient.node(0).hddDir()).isDirectory();
      assertNothingLeft(List.of());
    }
  }

  /**
   * Leaves what a crashed run would: an attached, mounted and throttled image in the images
   * folder. Returns false when the machine refuses to attach a loop device.
   */
  private boolean crashLeftover(Path mountPoint) throws IOException {
    Path image = dir.resolve("images").resolve(KernelLeftovers.IMAGE_PREFIX + "node0-hdd.img");
    Files.createDirectories(image.getParent());
    Files.createDirectories(mountPoint);
    try (RandomAccessFile f = new RandomAccessFile(image.toFile(), "rw")) {
      f.setLength(64L << 20);
    }
    String device;
    try {
      device = Shell.run("losetup", "--find", "--show", image.toString());
    } catch (IOException refused) {
      return false;
    }
    Shell.run("mkfs.ext4", "-q", "-F", device);
    Shell.run("mount", device, mountPoint.toString());
    String majMin = Files.readString(Paths.get("/sys/block",
        Paths.get(device).getFileName().toString(), "dev"), StandardCharsets.US_ASCII).trim();
    LoopDevice.writeThrottle(majMin, 1 << 20, 1 << 20, 10);
    return true;
  }

  private static String mounts() throws IOException {
    return Files.readString(Paths.get("/proc/self/mounts"), StandardCharsets.UTF_8);
  }
}
