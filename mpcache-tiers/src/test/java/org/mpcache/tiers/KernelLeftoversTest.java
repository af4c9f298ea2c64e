package org.mpcache.tiers;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Paths;
import java.util.List;
import org.junit.jupiter.api.Test;

class KernelLeftoversTest {
  @Test
  void parseLosetup_rawList_devicesNumbersAndFiles() {
    List<KernelLeftovers.Attached> a = KernelLeftovers.parseLosetup(
        "/dev/loop0 \\x20\\x207:0\\x20\\x20 /tmp/run/images/mpcache-tier-node0-hdd.img\n"
            + "/dev/loop1 7:1 /tmp/gone/images/mpcache-tier-node0-ssd.img\\x20(deleted)\n"
            + "/dev/loop2 7:2 /home/user/my\\x20disk.img\n"
            + "\n");
    assertThat(a).hasSize(3);
    assertThat(a.get(0).device).isEqualTo("/dev/loop0");
    assertThat(a.get(0).majMin).isEqualTo("7:0");
    assertThat(a.get(0).deleted).isFalse();
    assertThat(a.get(1).backFile).isEqualTo("/tmp/gone/images/mpcache-tier-node0-ssd.img");
    assertThat(a.get(1).deleted).isTrue();
    assertThat(a.get(2).backFile).isEqualTo("/home/user/my disk.img");
  }

  @Test
  void isLeftover_ownFolderOrDeletedTierImage_only() {
    List<KernelLeftovers.Attached> a = KernelLeftovers.parseLosetup(
        "/dev/loop0 7:0 /tmp/run/images/mpcache-tier-node0-hdd.img\n"
            + "/dev/loop1 7:1 /tmp/gone/images/mpcache-tier-node0-ssd.img (deleted)\n"
            + "/dev/loop2 7:2 /tmp/other/images/mpcache-tier-node0-hdd.img\n"
            + "/dev/loop3 7:3 /var/lib/snap.img (deleted)\n");
    java.nio.file.Path mine = Paths.get("/tmp/run/images");
    assertThat(KernelLeftovers.isLeftover(a.get(0), mine)).isTrue();
    assertThat(KernelLeftovers.isLeftover(a.get(1), mine)).isTrue();
    // another run's live tiers, and someone else's deleted image, are not ours to remove
    assertThat(KernelLeftovers.isLeftover(a.get(2), mine)).isFalse();
    assertThat(KernelLeftovers.isLeftover(a.get(3), mine)).isFalse();
  }

  @Test
  void mountPointsOf_procMounts_unescapesSpaces() {
    String mounts = "/dev/vda / ext4 rw 0 0\n"
        + "/dev/loop4 /tmp/run/node0/hdd ext4 rw 0 0\n"
        + "/dev/loop4 /tmp/my\\040dir ext4 rw 0 0\n"
        + "/dev/loop40 /tmp/x ext4 rw 0 0\n";
    assertThat(KernelLeftovers.mountPointsOf("/dev/loop4", mounts))
        .containsExactly("/tmp/run/node0/hdd", "/tmp/my dir");
  }

  @Test
  void loopRules_throttleFile_loopDevicesOnly() {
    assertThat(KernelLeftovers.loopRules("7:0 157286400\n253:0 100\n7:12 125\n"))
        .containsExactly("7:0", "7:12");
    assertThat(KernelLeftovers.loopRules("")).isEmpty();
  }
}
