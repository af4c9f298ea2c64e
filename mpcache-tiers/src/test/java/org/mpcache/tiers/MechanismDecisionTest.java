package org.mpcache.tiers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class MechanismDecisionTest {
  static final HostProbe CAPABLE = new HostProbe(true, true, List.of(), true, true);
  static final HostProbe NOT_ROOT = new HostProbe(false, true, List.of(), false, false);
  static final HostProbe NO_LOOP = new HostProbe(true, false, List.of("losetup"), true, true);

  @Test
  void decide_autoOnCapableHost_kernel() {
    MechanismDecision d = MechanismDecision.decide(MechanismChoice.AUTO, CAPABLE);
    assertThat(d.mechanism()).isEqualTo(TierMechanism.KERNEL);
    assertThat(d.reason()).startsWith("auto");
  }

  @Test
  void decide_autoWithoutRoot_userspaceSayingWhy() {
    MechanismDecision d = MechanismDecision.decide(MechanismChoice.AUTO, NOT_ROOT);
    assertThat(d.mechanism()).isEqualTo(TierMechanism.USERSPACE);
    assertThat(d.reason()).contains("not running as root").contains("blkio")
        .contains("falling back to user space");
  }

  @Test
  void decide_autoWithoutLoopDevices_userspaceSayingWhy() {
    MechanismDecision d = MechanismDecision.decide(MechanismChoice.AUTO, NO_LOOP);
    assertThat(d.mechanism()).isEqualTo(TierMechanism.USERSPACE);
    assertThat(d.reason()).contains("/dev/loop-control").contains("losetup")
        .doesNotContain("root");
  }

  @Test
  void decide_kernelWhereNotAllowed_failsNamingKeyAndObstacles() {
    assertThatThrownBy(() -> MechanismDecision.decide(MechanismChoice.KERNEL, NOT_ROOT))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(TierConfigKeys.MECHANISM_KEY)
        .hasMessageContaining("not running as root")
        .hasMessageContaining("auto or userspace");
  }

  @Test
  void decide_kernelWhereAllowed_kernel() {
    assertThat(MechanismDecision.decide(MechanismChoice.KERNEL, CAPABLE).mechanism())
        .isEqualTo(TierMechanism.KERNEL);
  }

  @Test
  void decide_explicitChoices_honouredEvenWhereKernelWorks() {
    assertThat(MechanismDecision.decide(MechanismChoice.USERSPACE, CAPABLE).mechanism())
        .isEqualTo(TierMechanism.USERSPACE);
    assertThat(MechanismDecision.decide(MechanismChoice.NONE, CAPABLE).mechanism())
        .isEqualTo(TierMechanism.NONE);
  }

  @Test
  void kernelObstacles_capableHost_none() {
    assertThat(CAPABLE.kernelObstacles()).isEmpty();
    assertThat(NOT_ROOT.kernelObstacles()).hasSize(2);
  }
}
