package org.mpcache.tiers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class TierSpecTest {
  private static Configuration conf() {
    return new Configuration(false);
  }

  @Test
  void from_defaults_describeHddAndSsd() {
    TierSpec s = TierSpec.from(conf());
    assertThat(s.mechanism()).isEqualTo(MechanismChoice.AUTO);
    assertThat(s.hdd().readBytesPerSec()).isEqualTo(150L << 20);
    assertThat(s.hdd().iops()).isEqualTo(125);
    assertThat(s.hdd().requestMillis()).isEqualTo(8.0);
    assertThat(s.ssd().readBytesPerSec()).isEqualTo(500L << 20);
    assertThat(s.ssd().iops()).isEqualTo(20_000);
    assertThat(s.hdd().sizeBytes()).isEqualTo(8L << 30);
    assertThat(s.dirtyBytes()).isEqualTo(32L << 20);
  }

  @Test
  void from_dirtyLimit_zeroOrAtLeastFourMiB() {
    Configuration c = conf();
    c.set(TierConfigKeys.DIRTY_BYTES_KEY, "0");
    assertThat(TierSpec.from(c).dirtyBytes()).isZero();
    c.set(TierConfigKeys.DIRTY_BYTES_KEY, "8m");
    assertThat(TierSpec.from(c).dirtyBytes()).isEqualTo(8L << 20);
    c.set(TierConfigKeys.DIRTY_BYTES_KEY, "1m");
    assertThatThrownBy(() -> TierSpec.from(c)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(TierConfigKeys.DIRTY_BYTES_KEY).hasMessageContaining("'1m'")
        .hasMessageContaining("at least 4m");
  }

  @Test
  void from_suffixesAndMechanism_parsed() {
    Configuration c = conf();
    c.set(TierConfigKeys.HDD_READ_BPS_KEY, "120m");
    c.set(TierConfigKeys.SSD_SIZE_KEY, "2g");
    c.set(TierConfigKeys.MECHANISM_KEY, " UserSpace ");
    TierSpec s = TierSpec.from(c);
    assertThat(s.hdd().readBytesPerSec()).isEqualTo(120L << 20);
    assertThat(s.ssd().sizeBytes()).isEqualTo(2L << 30);
    assertThat(s.mechanism()).isEqualTo(MechanismChoice.USERSPACE);
  }

  @Test
  void from_unknownMechanism_namesKeyAndChoices() {
    Configuration c = conf();
    c.set(TierConfigKeys.MECHANISM_KEY, "fuse");
    assertThatThrownBy(() -> TierSpec.from(c)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(TierConfigKeys.MECHANISM_KEY).hasMessageContaining("'fuse'")
        .hasMessageContaining("auto, kernel, userspace or none");
  }

  @Test
  void from_zeroBandwidth_rejectedWithKey() {
    Configuration c = conf();
    c.set(TierConfigKeys.SSD_WRITE_BPS_KEY, "0");
    assertThatThrownBy(() -> TierSpec.from(c)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(TierConfigKeys.SSD_WRITE_BPS_KEY).hasMessageContaining("positive");
  }

  @Test
  void from_notABandwidth_rejectedWithKey() {
    Configuration c = conf();
    c.set(TierConfigKeys.HDD_WRITE_BPS_KEY, "fast");
    assertThatThrownBy(() -> TierSpec.from(c)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(TierConfigKeys.HDD_WRITE_BPS_KEY).hasMessageContaining("'fast'");
  }

  @Test
  void from_negativeIops_rejectedWithKey() {
    Configuration c = conf();
    c.set(TierConfigKeys.HDD_IOPS_KEY, "-5");
    assertThatThrownBy(() -> TierSpec.from(c)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(TierConfigKeys.HDD_IOPS_KEY).hasMessageContaining("'-5'");
  }

  @Test
  void from_iopsNotInteger_rejectedWithKey() {
    Configuration c = conf();
    c.set(TierConfigKeys.SSD_IOPS_KEY, "20k");
    assertThatThrownBy(() -> TierSpec.from(c)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(TierConfigKeys.SSD_IOPS_KEY).hasMessageContaining("integer");
  }

  @Test
  void from_deviceTooSmall_rejectedWithMinimum() {
    Configuration c = conf();
    c.set(TierConfigKeys.HDD_SIZE_KEY, "10m");
    assertThatThrownBy(() -> TierSpec.from(c)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(TierConfigKeys.HDD_SIZE_KEY).hasMessageContaining("64m");
  }
}
