package org.mpcache.common.protocolPB;

import java.util.Objects;

/**
 * The slave's answer to a request for Localized Cache room: granted in an SSD directory (one of the
 * NodeManager's local dirs), or denied with a reason. Immutable and thread-safe.
 *
 * @param dir the SSD directory; {@code null} when denied
 * @param denyReason why the request was denied; {@code null} when granted
 */
public record LocalizedGrant(String dir, String denyReason) {

  public LocalizedGrant {
    if ((dir == null) == (denyReason == null)) {
      throw new IllegalArgumentException("A grant has either a directory or a deny reason");
    }
  }

  public static LocalizedGrant granted(String dir) {
    return new LocalizedGrant(Objects.requireNonNull(dir, "dir"), null);
  }

  public static LocalizedGrant denied(String reason) {
    return new LocalizedGrant(null, Objects.requireNonNull(reason, "reason"));
  }

  public boolean isGranted() {
    return dir != null;
  }
}
