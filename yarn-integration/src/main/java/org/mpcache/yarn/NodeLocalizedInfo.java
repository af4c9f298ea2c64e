package org.mpcache.yarn;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Objects;

/**
 * What a node's tasks need to know about the slave beside them: the address of its Localized Cache
 * and the node's SSD directories. The NodeManager's auxiliary service publishes it as its metadata,
 * which YARN hands to every container as the base64 environment variable
 * {@code NM_AUX_SERVICE_<name>}. Immutable and thread-safe.
 *
 * @param address the slave's {@code LocalizedProtocol} address, host:port
 * @param ssdDirs the node's SSD directories, each one of the NodeManager's local dirs
 */
public record NodeLocalizedInfo(String address, List<String> ssdDirs) {

  /** The environment variable YARN sets in every container from the service's metadata. */
  public static final String ENV_VARIABLE =
      "NM_AUX_SERVICE_" + YarnIntegrationConfigKeys.AUX_SERVICE_NAME;

  public NodeLocalizedInfo {
    Objects.requireNonNull(address, "address");
    ssdDirs = List.copyOf(ssdDirs);
    for (String d : ssdDirs) {
      if (d.isEmpty() || d.indexOf('\n') >= 0 || d.indexOf(',') >= 0) {
        throw new IllegalArgumentException("Bad SSD directory name '" + d + "'");
      }
    }
  }

  /** The metadata bytes: the address and the comma-separated directories on two lines. */
  public ByteBuffer encode() {
    return ByteBuffer.wrap((address + "\n" + String.join(",", ssdDirs))
        .getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Reads the value of {@link #ENV_VARIABLE}.
   *
   * @throws IllegalArgumentException when the value is not what {@link #encode} produced
   */
  public static NodeLocalizedInfo fromEnvironmentValue(String base64) {
    String text = new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
    int nl = text.indexOf('\n');
    if (nl < 0) {
      throw new IllegalArgumentException(ENV_VARIABLE + " does not hold mpCache node information: '"
          + text + "'");
    }
    String dirs = text.substring(nl + 1);
    return new NodeLocalizedInfo(text.substring(0, nl),
        dirs.isEmpty() ? List.of() : Arrays.asList(dirs.split(",")));
  }
}
