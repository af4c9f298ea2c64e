package org.mpcache.tiers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Finds and removes what a crashed earlier run of the kernel mechanism left behind: loop devices
 * backed by this run's images folder (or by a deleted {@code mpcache-tier-*} image, whose folder
 * is gone), their mounts and throttle rules, and throttle rules on loop devices that are no
 * longer attached, which would otherwise slow down whoever attaches that device next. Devices of
 * other tier sets that still exist are left alone, so concurrent runs with other work
 * directories are safe. Stateless and thread-safe; the parsers are pure.
 */
final class KernelLeftovers {
  /** Prefix of every image file the kernel mechanism creates. */
  static final String IMAGE_PREFIX = "mpcache-tier-";
  private static final String DELETED = " (deleted)";

  /** One line of {@code losetup --list --raw --output NAME,MAJ:MIN,BACK-FILE}. */
  static final class Attached {
    final String device;
    final String majMin;
    final String backFile;
    final boolean deleted;

    Attached(String device, String majMin, String backFile, boolean deleted) {
      this.device = device;
      this.majMin = majMin;
      this.backFile = backFile;
      this.deleted = deleted;
    }
  }

  private KernelLeftovers() {
  }

  /**
   * Parses losetup's raw list (no header): fields separated by one space, spaces inside a field
   * (its padding of MAJ:MIN, a space in a file name) escaped as \x20.
   */
  static List<Attached> parseLosetup(String raw) {
    List<Attached> out = new ArrayList<>();
    for (String line : raw.split("\n")) {
      String[] f = line.trim().split(" ", 3);
      if (f.length < 3 || !f[0].startsWith("/dev/")) {
        continue;
      }
      String back = unescape(f[2]).trim();
      boolean deleted = back.endsWith(DELETED);
      if (deleted) {
        back = back.substring(0, back.length() - DELETED.length());
      }
      out.add(new Attached(unescape(f[0]).trim(), unescape(f[1]).trim(), back, deleted));
    }
    return out;
  }

  /** The mount points of {@code device} in a /proc/self/mounts text, octal escapes undone. */
  static List<String> mountPointsOf(String device, String procMounts) {
    List<String> out = new ArrayList<>();
    for (String line : procMounts.split("\n")) {
      String[] f = line.split(" ");
      if (f.length > 1 && f[0].equals(device)) {
        out.add(unescape(f[1]));
      }
    }
    return out;
  }

  /** The loop device numbers (7:N) that a blkio throttle file holds rules for. */
  static Set<String> loopRules(String throttleFile) {
    Set<String> out = new LinkedHashSet<>();
    for (String line : throttleFile.split("\n")) {
      String[] f = line.trim().split("\\s+");
      if (f.length == 2 && f[0].startsWith(LoopDevice.LOOP_MAJOR + ":")) {
        out.add(f[0]);
      }
    }
    return out;
  }

  /** Whether {@code a} belongs to a tier set in {@code imagesDir} or to one whose folder is gone. */
  static boolean isLeftover(Attached a, Path imagesDir) {
    Path back = Paths.get(a.backFile).normalize();
    if (back.startsWith(imagesDir.toAbsolutePath().normalize())) {
      return true;
    }
    Path name = back.getFileName();
    return a.deleted && name != null && name.toString().startsWith(IMAGE_PREFIX);
  }

  /** Undoes \xHH (losetup) and \NNN (mounts) escapes. */
  static String unescape(String s) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && i + 3 < s.length() && s.charAt(i + 1) == 'x') {
        b.append((char) Integer.parseInt(s.substring(i + 2, i + 4), 16));
        i += 3;
      } else if (c == '\\' && i + 3 < s.length() && Character.isDigit(s.charAt(i + 1))) {
        b.append((char) Integer.parseInt(s.substring(i + 1, i + 4), 8));
        i += 3;
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  /**
   * Removes the leftovers; returns one line per thing removed. Keeps going past failures and
   * throws the first at the end, so one stuck device does not keep the others attached.
   */
  static List<String> clean(Path imagesDir) throws IOException {
    List<String> done = new ArrayList<>();
    List<IOException> errors = new ArrayList<>();
    // Rules are read before the devices are listed: a concurrent run that attaches a device and
    // sets its rule after this point is not mistaken for a leftover.
    Set<String> stale = new LinkedHashSet<>();
    for (String f : LoopDevice.THROTTLE_FILES) {
      stale.addAll(loopRules(Files.readString(HostProbe.BLKIO_ROOT.resolve(f),
          StandardCharsets.US_ASCII)));
    }
    List<Attached> attached = parseLosetup(Shell.run("losetup", "--list", "--noheadings",
        "--raw", "--output", "NAME,MAJ:MIN,BACK-FILE"));
    String mounts = Files.readString(Paths.get("/proc/self/mounts"), StandardCharsets.UTF_8);
    Set<String> live = new LinkedHashSet<>();
    for (Attached a : attached) {
      if (!isLeftover(a, imagesDir)) {
        live.add(a.majMin);
        continue;
      }
      try {
        LoopDevice.resetLimits(a.majMin);
        for (String m : mountPointsOf(a.device, mounts)) {
          LoopDevice.unmount(m);
          done.add("unmounted " + m);
        }
        Shell.run("losetup", "-d", a.device);
        stale.remove(a.majMin);
        done.add("detached " + a.device + " (" + a.backFile + (a.deleted ? DELETED : "") + ")");
        if (!a.deleted) {
          Files.deleteIfExists(Paths.get(a.backFile));
        }
      } catch (IOException e) {
        errors.add(e);
      }
    }
    stale.removeAll(live);
    for (String majMin : stale) {
      try {
        LoopDevice.resetLimits(majMin);
        done.add("reset the limits of unattached loop device " + majMin);
      } catch (IOException e) {
        errors.add(e);
      }
    }
    LoopDevice.throwFirst(errors);
    return done;
  }
}
