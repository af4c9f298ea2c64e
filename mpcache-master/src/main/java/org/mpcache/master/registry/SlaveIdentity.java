package org.mpcache.master.registry;

import java.net.InetAddress;
import java.util.Objects;

/**
 * Who registered a slave id: the caller's authenticated user (a Kerberos principal's full name,
 * or the user name simple authentication reports) and the address the registration came from.
 * The master binds a live slave id to it: later calls under that id, and a new registration of
 * it, must come from the same identity ({@link SlaveAdmission}).
 *
 * <p>Immutable; thread-safe.
 */
public final class SlaveIdentity {
  private final String user;
  private final InetAddress address;

  /**
   * @param user the caller's full user name
   * @param address where the call came from; null when it is unknown (not an RPC call)
   */
  public SlaveIdentity(String user, InetAddress address) {
    this.user = Objects.requireNonNull(user, "user");
    this.address = address;
  }

  public String user() {
    return user;
  }

  /** Where the registration came from; null when it is unknown. */
  public InetAddress address() {
    return address;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SlaveIdentity other && user.equals(other.user)
        && Objects.equals(address, other.address);
  }

  @Override
  public int hashCode() {
    return Objects.hash(user, address);
  }

  @Override
  public String toString() {
    return user + "@" + (address == null ? "?" : address.getHostAddress());
  }
}
