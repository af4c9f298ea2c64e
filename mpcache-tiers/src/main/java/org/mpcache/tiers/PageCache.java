package org.mpcache.tiers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;

/**
 * Empties the kernel's page cache so the next reads come from the (emulated) devices: throttles
 * apply to device I/O only, and page-cache hits would otherwise hide the tiers. Needs root;
 * inside a virtual machine it empties the guest's cache only (the host may still cache the disk
 * image, which does not matter for throttled devices since the throttle sits above it).
 * Stateless and thread-safe.
 */
public final class PageCache {
  /** What a drop did: whether the cache was emptied, and if not, why. Immutable. */
  public static final class Outcome {
    private final boolean dropped;
    private final String detail;

    Outcome(boolean dropped, String detail) {
      this.dropped = dropped;
      this.detail = detail;
    }

    /** True when dirty data was written back and the clean page cache was emptied. */
    public boolean dropped() {
      return dropped;
    }

    public String detail() {
      return detail;
    }

    @Override
    public String toString() {
      return (dropped ? "page cache dropped" : "page cache NOT dropped") + " (" + detail + ")";
    }
  }

  private PageCache() {
  }

  /**
   * Writes back dirty data ({@code sync}) and drops clean pages, dentries and inodes ({@code echo
   * 3 > /proc/sys/vm/drop_caches}). Never throws: the outcome says what went wrong.
   */
  public static Outcome drop() {
    long start = System.nanoTime();
    try {
      Shell.run("sync");
      Files.writeString(HostProbe.DROP_CACHES, "3\n", StandardCharsets.US_ASCII,
          StandardOpenOption.WRITE);
      return new Outcome(true, String.format(java.util.Locale.ROOT, "sync + drop_caches in %.1f s",
          (System.nanoTime() - start) / 1e9));
    } catch (IOException | SecurityException e) {
      return new Outcome(false, "cannot write " + HostProbe.DROP_CACHES + ": " + e.getMessage());
    }
  }
}
