package org.mpcache.tiers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TierMeasurementTest {
  @TempDir
  Path dir;

  @Test
  void fileBytes_followsBandwidthWithinDeviceAndReaderBounds() {
    TierMeasurement m = new TierMeasurement(2, 4);
    assertThat(m.fileBytes(new TierSpec.Device(150L << 20, 1, 1, 8L << 30))).isEqualTo(300L << 20);
    // at most a quarter of the device, in whole MiB per reader
    assertThat(m.fileBytes(new TierSpec.Device(10L << 30, 1, 1, 1L << 30))).isEqualTo(256L << 20);
    // at least 1 MiB per reader
    assertThat(m.fileBytes(new TierSpec.Device(1, 1, 1, 64L << 20))).isEqualTo(4L << 20);
  }

  @Test
  void constructor_badArguments_rejected() {
    assertThatThrownBy(() -> new TierMeasurement(0, 4))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new TierMeasurement(1, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void measure_plainDirs_reportsEveryTierOfEveryNodeAndCleansUp() throws Exception {
    Configuration c = new Configuration(false);
    c.set(TierConfigKeys.MECHANISM_KEY, "none");
    c.set(TierConfigKeys.HDD_READ_BPS_KEY, "16m");
    c.set(TierConfigKeys.SSD_READ_BPS_KEY, "32m");
    try (StorageTiers t = new StorageTiers(dir, 2, MechanismDecisionTest.NOT_ROOT)) {
      t.init(c);
      t.start();
      TierReport r = new TierMeasurement(0.25, 2).measure(t, List.of());
      assertThat(r.rows()).hasSize(4);
      assertThat(r.rows()).extracting(TierFigures::tier)
          .containsExactly("hdd", "ssd", "hdd", "ssd");
      for (TierFigures f : r.rows()) {
        assertThat(f.throttled()).isFalse();
        assertThat(f.seqReadMibps()).isPositive();
        assertThat(f.seqWriteMibps()).isPositive();
        assertThat(f.randIops()).isPositive();
        assertThat(f.parallelReadMibps()).isPositive();
      }
      assertThat(r.rows().get(0).limitReadMibps()).isEqualTo(16.0);
      try (var left = Files.list(t.node(0).hddDir())) {
        assertThat(left).isEmpty();
      }

      String csv = r.toCsv();
      String[] lines = csv.split("\n");
      assertThat(lines).hasSize(5);
      assertThat(lines[0]).isEqualTo("mechanism," + String.join(",", TierFigures.COLUMNS));
      assertThat(lines[1].split(",")).hasSize(TierFigures.COLUMNS.size() + 1);
      assertThat(lines[1]).startsWith("none,0,hdd,");
      assertThat(r.toJson()).contains("\"mechanism\": \"none\"")
          .contains("\"tier\": \"ssd\"").contains("\"limit_read_mibps\": 32.0");
      assertThat(r.toString()).contains("none (plain directories)").contains("hdd").contains("ssd");
      assertThat(r.summary()).startsWith("tiers none").contains("HDD ").contains("; SSD ")
          .contains("IOPS");
    }
  }
}
